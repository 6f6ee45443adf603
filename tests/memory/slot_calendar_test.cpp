// The bank calendar's compact ring (16- or 32-bit lap tags, rebased before
// they overflow) books exactly the cycles a ring of plain 64-bit cycles
// books, over runs long enough to rebase many times.
#include "base/sim_services.h"
#include "base/slot_calendar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

// The calendar as it was before the compact ring: a slot holds the booked
// cycle + 1, one row of `size` slots per resource, sized by the same rule.
class reference_calendar {
public:
    reference_calendar(unsigned resources, std::uint64_t window) {
        std::uint64_t size = 1024;
        while (size < window && size * resources < (std::uint64_t{1} << 22)) size <<= 1;
        size_ = size;
        ring_.assign(std::size_t(resources) * size, 0);
    }
    std::uint64_t reserve(unsigned resource, std::uint64_t cycle) {
        std::uint64_t* r = ring_.data() + std::size_t(resource) * size_;
        while (r[cycle & (size_ - 1)] == cycle + 1) ++cycle;
        r[cycle & (size_ - 1)] = cycle + 1;
        return cycle;
    }
    std::uint64_t size() const { return size_; }
    bool taken(unsigned resource, std::uint64_t cycle) const {
        return ring_[std::size_t(resource) * size_ + (cycle & (size_ - 1))] == cycle + 1;
    }
    void book(unsigned resource, std::uint64_t cycle) {
        ring_[std::size_t(resource) * size_ + (cycle & (size_ - 1))] = cycle + 1;
    }

private:
    std::vector<std::uint64_t> ring_;
    std::uint64_t size_ = 0;
};

// Initiators booking around a time that moves forward, each within `spread`
// cycles of it (as decoupled initiators within a few quanta do), with jumps
// of up to `jump` cycles (idle stretches); every booking must land on the
// reference's cycle. Returns how many bookings waited (so a run that never
// contended proves nothing).
template <class Calendar>
std::uint64_t compare_runs(Calendar& cal, reference_calendar& ref, unsigned resources, std::uint64_t spread,
                           std::uint64_t jump, unsigned steps, std::uint64_t min_end, std::uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::uint64_t now = 0, waited = 0;
    for (unsigned i = 0; i < steps; ++i) {
        if (rng() % 4096 == 0)
            now += rng() % jump;
        else
            now += rng() % 3;
        const unsigned r = static_cast<unsigned>(rng() % resources);
        const std::uint64_t at = now + rng() % spread;
        const std::uint64_t expect = ref.reserve(r, at);
        const std::uint64_t got = cal.reserve(r, at);
        if (got != expect) {
            ADD_FAILURE() << "booking " << i << " of resource " << r << " at cycle " << at << ": got " << got
                          << ", the reference " << expect;
            return waited;
        }
        waited += got != at;
    }
    EXPECT_GT(now, min_end) << "the run did not cover enough laps";
    return waited;
}

std::uint64_t compare_calendar(unsigned resources, std::uint64_t window, std::uint64_t spread, std::uint64_t jump,
                               unsigned steps, std::uint32_t seed) {
    npu::base::slot_calendar cal;
    cal.init(resources, window);
    reference_calendar ref(resources, window);
    return compare_runs(cal, ref, resources, spread, jump, steps, std::uint64_t{1} << 32, seed);
}

// slot_calendar through reserve_inline, the cores' L1 path (its inline
// first look, then reserve()).
struct inline_calendar {
    npu::base::slot_calendar& cal;
    std::uint64_t reserve(unsigned r, std::uint64_t c) { return cal.reserve_inline(r, c); }
};

TEST(SlotCalendar, ReserveInlineBooksWhatReserveBooks) {
    // The masked ring (16 and 8 banks) across rebases and jumps, and the
    // other rings (1 and 32 resources), which it leaves to reserve().
    for (const unsigned resources : {16u, 8u, 1u, 32u}) {
        npu::base::slot_calendar cal;
        cal.init(resources, 1000);
        reference_calendar ref(resources, 1000);
        inline_calendar through{cal};
        EXPECT_GT(compare_runs(through, ref, resources, 600, std::uint64_t{1} << 27, 2000000, std::uint64_t{1} << 32,
                               9 + resources),
                  1000u)
            << resources << " resources";
    }
}

TEST(SlotCalendar, RebasingKeepsEveryBookingWithinReach) {
    // 8-bit slots rebase every 2^7 laps (2^17 cycles of a 1024-cycle ring),
    // so time moving forward a cycle per booking (no jumps) crosses a dozen
    // rebases with the bookings of the last few thousand cycles still live:
    // the same code as the 16- and 32-bit rings.
    npu::base::slot_ring<std::uint8_t> ring;
    ring.init(16, 1024);
    reference_calendar ref(16, 1000);
    ASSERT_EQ(ref.size(), 1024u);
    EXPECT_GT(compare_runs(ring, ref, 16, 3000, 1, 2000000, std::uint64_t{1} << 20, 1), 1000u);
}

TEST(SlotCalendar, NarrowRingBooksTheSameCyclesAcrossRebases) {
    // 16 banks, a 1024-cycle ring (16-bit slots): a rebase every 2^15 laps
    // (2^25 cycles); jumps of up to 2^27 cycles cross many of them. A slot
    // per bank and cycle: bookings three laps apart still land where the
    // reference's do (the calendar of 2 to 16 resources is a mask_ring,
    // below; slot_ring serves one resource and more than 16).
    npu::base::slot_ring<std::uint16_t> ring;
    ring.init(16, 1024);
    reference_calendar ref(16, 1000);
    EXPECT_GT(compare_runs(ring, ref, 16, 3000, std::uint64_t{1} << 27, 2000000, std::uint64_t{1} << 32, 1), 1000u);
}

TEST(SlotCalendar, MaskRingBooksTheSameCyclesAcrossRebases) {
    // The L1's calendar (16 banks: a tag and a bank mask per cycle), with
    // initiators within a ring of each other, as the ring's size (four
    // quanta) keeps them: the same cycles as the reference across rebases.
    EXPECT_GT(compare_calendar(16, 1000, 600, std::uint64_t{1} << 27, 2000000, 1), 1000u);
    EXPECT_GT(compare_calendar(8, 1000, 600, std::uint64_t{1} << 27, 2000000, 4), 1000u);
    EXPECT_GT(compare_calendar(2, 1000, 600, std::uint64_t{1} << 27, 2000000, 5), 1000u);
}

TEST(SlotCalendar, MaskRingKeepsOneLapPerCycle) {
    // What the mask ring gives up against a slot per bank: a cycle holds the
    // bookings of one lap. Booking bank 1 a ring later drops bank 0's booking
    // of the same ring cycle a lap before (slot_ring kept it); bank 1's own
    // booking a lap before is dropped by both.
    npu::base::slot_calendar cal;
    cal.init(16, 1000);  // a 1024-cycle ring
    EXPECT_EQ(cal.reserve(0, 5), 5u);
    EXPECT_EQ(cal.reserve(0, 5), 6u);       // taken: the next cycle
    EXPECT_EQ(cal.reserve(1, 5 + 1024), 5u + 1024);
    EXPECT_EQ(cal.reserve(1, 5 + 1024), 6u + 1024);
    EXPECT_EQ(cal.reserve(0, 5), 5u);       // the lap before: forgotten
    npu::base::slot_ring<std::uint16_t> ring;
    ring.init(16, 1024);
    EXPECT_EQ(ring.reserve(0, 5), 5u);
    EXPECT_EQ(ring.reserve(1, 5 + 1024), 5u + 1024);
    EXPECT_EQ(ring.reserve(0, 5), 6u);      // kept
}

// grow_to lengthens the ring and keeps every booking: a calendar grown
// after its bookings answers every later booking exactly as one made that
// long from the start, on each ring kind (mask ring: 16 and 8 banks; slot
// ring: 1 and 32 resources; a ring at its cap does not grow). The bookings span most of
// the small ring and several laps of tags, then the probes reach a whole
// small ring past them: cells the small ring would share.
void compare_grown(unsigned resources, std::uint64_t window, std::uint64_t grown_window, unsigned seed) {
    npu::base::slot_calendar grown, made;
    grown.init(resources, window);
    made.init(resources, grown_window);
    const std::uint64_t small = grown.ring_cycles(), big = made.ring_cycles();
    ASSERT_LT(small, big);
    std::mt19937_64 rng(seed);
    // Laps of the small ring before the bookings: tags other than 1.
    const std::uint64_t base = 37 * small;
    // A quarter of the slots of the small ring's first half, before its
    // end: no booking's walk to a free cycle reaches the next lap (which the
    // small ring would share with this one).
    const std::uint64_t bookings = resources * small / 8;
    for (std::uint64_t i = 0; i < bookings; ++i) {
        const auto r = static_cast<unsigned>(rng() % resources);
        const std::uint64_t c = base + rng() % (small / 2);
        ASSERT_EQ(grown.reserve(r, c), made.reserve(r, c)) << "booking " << i;
    }
    ASSERT_EQ(grown.grow_to(big), big);
    EXPECT_EQ(grown.ring_cycles(), big);
    EXPECT_EQ(grown.initial_cycles(), small);
    std::uint64_t waited = 0;
    for (std::uint64_t i = 0; i < bookings; ++i) {
        const auto r = static_cast<unsigned>(rng() % resources);
        const std::uint64_t c = base + rng() % (2 * small);
        const std::uint64_t got = grown.reserve(r, c);
        ASSERT_EQ(got, made.reserve(r, c)) << "probe " << i << ": resource " << r << ", cycle " << c;
        waited += got != c;
    }
    // Probes met the kept bookings (a lost booking would let one through).
    EXPECT_GT(waited, bookings / 20);
}

TEST(SlotCalendar, GrowToKeepsEveryBookingOnEachRing) {
    compare_grown(16, 1000, 5000, 21);                   // mask ring, 1 Ki -> 8 Ki cycles
    compare_grown(8, 3000, 9000, 22);                    // mask ring, 8 banks
    compare_grown(1, 1000, 4000, 23);                    // slot ring, one resource
    compare_grown(32, 1000, 2048, 24);                   // slot ring, more than 16
    // A ring at its cap (2^22 slots: the wide ring's case) stays as it is.
    npu::base::slot_calendar capped;
    capped.init(16, std::uint64_t{1} << 24);
    const std::uint64_t cap = capped.ring_cycles();
    EXPECT_EQ(cap, (std::uint64_t{1} << 22) / 16);
    EXPECT_EQ(capped.grow_to(4 * cap), cap);
}

TEST(SlotCalendar, SingleResourceNarrowRing) {
    EXPECT_GT(compare_calendar(1, 1024, 2000, std::uint64_t{1} << 27, 1000000, 2), 1000u);
}

TEST(SlotCalendar, WideRingWhenTheWindowDwarfsTheCappedRing) {
    // A window 64 times the capped ring (2^22 / 16 slots): 32-bit slots.
    // Rebasing them takes 2^31 laps, beyond any test: this checks the wide
    // ring's bookings, with jumps that wrap its 16-bit counterpart's tags.
    EXPECT_GT(compare_calendar(16, std::uint64_t{1} << 24, 5000, std::uint64_t{1} << 36, 1000000, 3), 1000u);
}

// The runs and blocks the DMA's and the SA's ports book in one call
// (reserve_free_run, reserve_stride_run, reserve_block_if_free) against the reference booking
// one by one, among scattered single bookings, across laps and rebases:
// the same count and the same bank-cycles (where a call books none because
// its run leaves the lap or needs a rebase, booked one by one as the callers
// do, and those must find their cycles free).
template <class Calendar>
void compare_runs_and_blocks(Calendar& cal, unsigned resources, std::uint64_t window, std::uint32_t seed,
                             std::uint64_t min_lap_leaves) {
    reference_calendar ref(resources, window);
    std::mt19937_64 rng(seed);
    std::uint64_t now = 0, runs_cut = 0, runs_whole = 0, blocks_booked = 0, blocks_refused = 0, lap_leaves = 0;
    std::uint64_t strides_cut = 0, strides_whole = 0;
    const unsigned mask = resources - 1;
    for (unsigned step = 0; step < 200000; ++step) {
        now += rng() % 64 == 0 ? rng() % (std::uint64_t{1} << 24) : rng() % 8;
        const unsigned kind = static_cast<unsigned>(rng() % 5);
        if (kind == 0) {
            const unsigned r = static_cast<unsigned>(rng() % resources);
            const std::uint64_t at = now + rng() % 200;
            ASSERT_EQ(cal.reserve(r, at), ref.reserve(r, at)) << "step " << step;
        } else if (kind == 1 || kind == 2) {
            // A run over interleaved resources (the DMA: 2 words a cycle on
            // 16 banks; the L2 path: one resource, one a cycle).
            // Half of them DMA-shaped (two a cycle from lane 0:
            // reserve_free_run's pairwise path), the rest anything.
            const bool dma_shaped = kind == 2;
            const std::uint64_t per_cycle = dma_shaped ? 2 : 1 + rng() % 4;
            const std::uint64_t n = 1 + rng() % 80;
            const unsigned first = static_cast<unsigned>(rng() % resources);
            const std::uint64_t lane = dma_shaped ? 0 : rng() % per_cycle;
            const std::uint64_t cycle0 = now + rng() % 200;
            // The leading bookings that find their slot free, booking as
            // they go (with fewer resources than lanes a run meets itself).
            std::vector<std::pair<unsigned, std::uint64_t>> run;
            auto free_now = [&](unsigned r, std::uint64_t cy) {
                if (ref.taken(r, cy)) return false;
                for (const auto& b : run)
                    if (b.first == r && b.second == cy) return false;
                return true;
            };
            std::uint64_t expect = 0;
            while (expect < n) {
                const unsigned r = (first + expect) & mask;
                const std::uint64_t cy = cycle0 + (lane + expect) / per_cycle;
                if (!free_now(r, cy)) break;
                run.emplace_back(r, cy);
                ++expect;
            }
            const std::uint64_t got = cal.reserve_free_run(n, per_cycle, cycle0, first, mask, lane);
            if (got == 0 && expect > 0) {
                // Refused whole (the run leaves its first cycle's lap, or its
                // lap needs a rebase): the caller books one by one.
                for (std::uint64_t i = 0; i < expect; ++i) {
                    const unsigned r = (first + i) & mask;
                    const std::uint64_t cy = cycle0 + (lane + i) / per_cycle;
                    ASSERT_EQ(cal.reserve(r, cy), cy) << "step " << step;
                    ref.book(r, cy);
                }
                ++lap_leaves;
                continue;
            }
            ASSERT_EQ(got, expect) << "step " << step;
            for (std::uint64_t i = 0; i < got; ++i) ref.book((first + i) & mask, cycle0 + (lane + i) / per_cycle);
            (got < n ? runs_cut : runs_whole) += 1;
        } else if (kind == 4) {
            // One lane of a wide port (reserve_stride_run: the DMA's L1
            // words after a conflict): a booking a cycle, `step` resources
            // apart.
            const unsigned stride = 1u << (rng() % 3);
            const std::uint64_t n = 1 + rng() % 40;
            const unsigned first = static_cast<unsigned>(rng() % resources);
            const std::uint64_t cycle0 = now + rng() % 200;
            std::uint64_t expect = 0;
            while (expect < n && !ref.taken((first + expect * stride) & mask, cycle0 + expect)) ++expect;
            const std::uint64_t got = cal.reserve_stride_run(n, cycle0, first, stride, mask);
            if (got == 0 && expect > 0) {
                for (std::uint64_t i = 0; i < expect; ++i) {
                    const unsigned r = (first + i * stride) & mask;
                    ASSERT_EQ(cal.reserve(r, cycle0 + i), cycle0 + i) << "step " << step;
                    ref.book(r, cycle0 + i);
                }
                ++lap_leaves;
                continue;
            }
            ASSERT_EQ(got, expect) << "step " << step;
            for (std::uint64_t i = 0; i < got; ++i) ref.book((first + i * stride) & mask, cycle0 + i);
            (got < n ? strides_cut : strides_whole) += 1;
        } else {
            const std::uint64_t n = 1 + rng() % 40;
            const std::uint64_t cycle0 = now + rng() % 200;
            bool free = true;
            for (unsigned r = 0; r < resources; ++r)
                for (std::uint64_t k = 0; k < n; ++k) free = free && !ref.taken(r, cycle0 + k);
            const bool booked = cal.reserve_block_if_free(cycle0, n);
            if (free && !booked) {
                // Refused (it leaves the lap, or needs a rebase): the caller
                // books one by one.
                for (unsigned r = 0; r < resources; ++r)
                    for (std::uint64_t k = 0; k < n; ++k) {
                        ASSERT_EQ(cal.reserve(r, cycle0 + k), cycle0 + k) << "step " << step;
                        ref.book(r, cycle0 + k);
                    }
                ++lap_leaves;
                continue;
            }
            ASSERT_EQ(booked, free) << "step " << step;
            if (booked)
                for (unsigned r = 0; r < resources; ++r)
                    for (std::uint64_t k = 0; k < n; ++k) ref.book(r, cycle0 + k);
            (booked ? blocks_booked : blocks_refused) += 1;
        }
    }
    // Every bank-cycle around the end as the reference has it.
    for (unsigned r = 0; r < resources; ++r)
        for (std::uint64_t cy = now; cy < now + 300; ++cy) ASSERT_EQ(cal.reserve(r, cy), ref.reserve(r, cy));
    // The comparison covered each outcome.
    EXPECT_GT(runs_cut, 1000u);
    EXPECT_GT(runs_whole, 1000u);
    EXPECT_GT(blocks_booked, 1000u);
    EXPECT_GT(blocks_refused, 1000u);
    EXPECT_GT(strides_cut, 1000u);
    EXPECT_GT(strides_whole, 1000u);
    EXPECT_GE(lap_leaves, min_lap_leaves);
}

TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneOn16Banks) {
    npu::base::slot_calendar cal;
    cal.init(16, 1000);
    compare_runs_and_blocks(cal, 16, 1000, 11, 100);
}

#if NPU_HOST_AVX512
TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneOn16BanksWithoutAvx512) {
    // mask_ring's portable walk of a DMA burst's pairs (reserve_pairs16)
    // also on a host whose runs above took its AVX-512 path.
    const bool had = npu::base::use_avx512bw;
    npu::base::use_avx512bw = false;
    npu::base::slot_calendar cal;
    cal.init(16, 1000);
    compare_runs_and_blocks(cal, 16, 1000, 21, 100);
    npu::base::use_avx512bw = had;
}
#endif

#if NPU_HOST_AVX512
// mask_ring::reserve's walk past taken cycles, 16 cells a step on AVX-512,
// books the cycle the portable walk books, from every start and resource:
// two calendars given the same bookings, one by each path, with blocks of
// every bank (an SA tile's stream) long enough for walks of several steps,
// across laps of the ring.
TEST(SlotCalendar, ReserveWalksPastTakenCyclesAsThePortableWalk) {
    if (!npu::base::use_avx512bw) GTEST_SKIP() << "this host has no AVX-512BW: one path only";
    const bool had = npu::base::use_avx512bw;
    npu::base::slot_calendar wide, portable;
    wide.init(16, 1024);
    portable.init(16, 1024);
    std::mt19937_64 rng(17);
    std::uint64_t walks = 0, long_walks = 0;
    for (std::uint64_t k = 0; k < 200000; ++k) {
        const std::uint64_t base = k / 4;  // about 200 laps of the ring
        const std::uint64_t cycle = base + rng() % 400;
        if (rng() % 16 == 0) {
            const std::uint64_t n = 1 + rng() % 80;
            npu::base::use_avx512bw = true;
            const bool a = wide.reserve_block_if_free(cycle, n);
            npu::base::use_avx512bw = false;
            ASSERT_EQ(a, portable.reserve_block_if_free(cycle, n)) << "block at " << cycle << " of " << n;
            continue;
        }
        const unsigned r = static_cast<unsigned>(rng() % 16);
        npu::base::use_avx512bw = true;
        const std::uint64_t a = wide.reserve(r, cycle);
        npu::base::use_avx512bw = false;
        ASSERT_EQ(a, portable.reserve(r, cycle)) << "bank " << r << " from cycle " << cycle;
        walks += a != cycle;
        long_walks += a - cycle >= 32;
    }
    npu::base::use_avx512bw = had;
    // Both kinds of walk were compared.
    EXPECT_GT(walks, 10000u);
    EXPECT_GT(long_walks, 1000u);
}
#endif

TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneOn8Banks) {
    // The mask ring's walk for any count of resources (no pairs path).
    npu::base::slot_calendar cal;
    cal.init(8, 1000);
    compare_runs_and_blocks(cal, 8, 1000, 15, 100);
}

TEST(SlotCalendar, MaskRingRunsAndBlocksBookAsOneByOneAcrossRebases) {
    // 8-bit tags: a rebase every 2^7 laps of the 1024-cycle ring.
    npu::base::mask_ring<std::uint8_t> ring;
    ring.init(16, 1024);
    compare_runs_and_blocks(ring, 16, 1000, 16, 100);
}

TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneOnOneResource) {
    npu::base::slot_calendar cal;
    cal.init(1, 1000);
    compare_runs_and_blocks(cal, 1, 1000, 12, 100);
}

TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneInTheWideRing) {
    npu::base::slot_calendar cal;
    cal.init(16, std::uint64_t{1} << 24);
    // Its ring is 2^18 cycles long: few runs leave a lap.
    compare_runs_and_blocks(cal, 16, std::uint64_t{1} << 24, 13, 1);
}

TEST(SlotCalendar, RunsAndBlocksBookAsOneByOneAcrossRebases) {
    // 8-bit slots: a rebase every 2^7 laps of the 1024-cycle ring.
    npu::base::slot_ring<std::uint8_t> ring;
    ring.init(16, 1024);
    compare_runs_and_blocks(ring, 16, 1000, 14, 100);
}

// The cluster's path to L2 at the gap9 defaults: 4 requests outstanding,
// a 7-cycle round trip (2-cycle issue slots), 8 B per cycle.
npu::base::l2_path_calendar gap9_l2_path() {
    npu::base::l2_path_calendar p;
    p.set_up(4, 8, 7, 4096);
    return p;
}

TEST(L2PathCalendar, ABurstTakesEverySlotOfItsBeats) {
    auto p = gap9_l2_path();
    // 256 B: 32 cycles of beats, 16 slots of 2 cycles.
    EXPECT_EQ(p.reserve_burst(100, 256), 132u);
    // A second burst issued while the first crosses queues behind it.
    EXPECT_EQ(p.reserve_burst(104, 256), 164u);
    // A core request issued during the bursts goes out after them.
    EXPECT_EQ(p.reserve(110, 7), 164u);
    // An odd issue cycle: the burst still takes its 32 cycles of beats.
    EXPECT_EQ(p.reserve_burst(1001, 256), 1033u);
    // A short burst takes a whole slot.
    EXPECT_EQ(p.reserve_burst(2000, 8), 2002u);
}

TEST(L2PathCalendar, CoreRequestsDelayABurstBySlotsTheyHold) {
    auto p = gap9_l2_path();
    // Core requests booked ahead (as decoupled cores do) in the slots at
    // cycles 200, 204 and 240: a burst issued at 200 takes the free slots
    // in order, two slots (4 cycles) later than alone; the one at 240 is
    // past its end.
    EXPECT_EQ(p.reserve(200, 7), 200u);
    EXPECT_EQ(p.reserve(204, 7), 204u);
    EXPECT_EQ(p.reserve(240, 7), 240u);
    EXPECT_EQ(p.reserve_burst(200, 256), 236u);
    // Every slot from 200 to 236 is taken: a request issued at 206 waits.
    EXPECT_EQ(p.reserve(206, 7), 236u);
}

// A burst's issue slots, each the first free one after the previous, as
// booked one by one (reserve_burst before its runs after a taken stretch),
// among core requests, on two calendars: the same completion cycles.
TEST(L2PathCalendar, BurstsBookTheSlotsTheOneByOneLoopBooked) {
    auto p = gap9_l2_path(), q = gap9_l2_path();
    std::mt19937_64 rng(21);
    std::uint64_t now = 0, delayed = 0;
    for (unsigned i = 0; i < 100000; ++i) {
        now += rng() % 256 == 0 ? rng() % (std::uint64_t{1} << 20) : rng() % 16;
        const std::uint64_t at = now + rng() % 100;
        if (rng() % 3) {
            ASSERT_EQ(p.reserve(at, 7), q.reserve(at, 7)) << i;
            continue;
        }
        const std::uint64_t bytes = 1 + rng() % 512;
        const std::uint64_t got = p.reserve_burst(at, bytes);
        // The loop reserve_burst had: a run, then the rest one by one.
        const std::uint64_t slot = q.slot_cycles(q.round_trip);
        const std::uint64_t beats = (bytes + q.width - 1) / q.width;
        const std::uint64_t n = std::max<std::uint64_t>(1, (beats + slot - 1) / slot);
        const std::uint64_t first = at / slot;
        const std::uint64_t run = q.slots.reserve_free_run(n, 1, first, 0, 0);
        std::uint64_t next = first + run;
        for (std::uint64_t k = run; k < n; ++k) next = q.slots.reserve(0, next) + 1;
        const std::uint64_t expect = std::max(at + beats, next * slot);
        ASSERT_EQ(got, expect) << i;
        delayed += got > at + beats + 1;
    }
    EXPECT_GT(delayed, 1000u);
}

// reserve_first_free books what n reserves, each from one past the
// previous, book: on one resource of 16-bit slots (eight a step) and of
// 8-bit slots (a rebase every 2^17 cycles), among single bookings, with
// free stretches shorter and longer than n.
template <class Slot>
void first_free_matches_reserves(std::uint64_t max_jump) {
    npu::base::slot_ring<Slot> ring;
    ring.init(1, 1024);
    reference_calendar ref(1, 1000);
    std::mt19937_64 rng(5);
    std::uint64_t now = 0, runs = 0;
    for (unsigned i = 0; i < 200000; ++i) {
        now += rng() % 512 == 0 ? rng() % max_jump : rng() % 8;
        const std::uint64_t at = now + rng() % 64;
        if (rng() % 2) {
            ASSERT_EQ(ring.reserve(0, at), ref.reserve(0, at)) << i;
            continue;
        }
        const std::uint64_t n = 1 + rng() % 40;
        std::uint64_t next = at;
        for (std::uint64_t k = 0; k < n; ++k) next = ref.reserve(0, next) + 1;
        ASSERT_EQ(ring.reserve_first_free(0, at, n), next) << i;
        runs += next > at + n;
    }
    EXPECT_GT(runs, 10000u);
}

TEST(SlotCalendar, FirstFreeBooksWhatReservesBookOn16BitSlots) {
    first_free_matches_reserves<std::uint16_t>(std::uint64_t{1} << 26);
}

TEST(SlotCalendar, FirstFreeBooksWhatReservesBookOn8BitSlotsAcrossRebases) {
    first_free_matches_reserves<std::uint8_t>(std::uint64_t{1} << 12);
}

}  // namespace

// Runs `check` on each path a memcheck scan has on this host: the AVX-512
// one (if the host has it) and the portable one (use_avx512bw cleared).
template <class F>
void on_each_scan_path(F check) {
#if NPU_HOST_AVX512
    const bool had = npu::base::use_avx512bw;
    for (const bool avx512 : {had, false}) {
        npu::base::use_avx512bw = avx512;
        check();
    }
    npu::base::use_avx512bw = had;
#else
    check();
#endif
}

// Memcheck's scan of a read's shadow bytes (32, then 8 bytes per compare)
// finds the same first not-written byte as a byte loop: every length up to
// 100, every position of the first bad byte, every kind of bad byte, at
// every alignment of the start.
// On a host with AVX-512BW both paths: 64 bytes a step from n = 64, and
// the portable one (use_avx512bw cleared).
TEST(MemcheckShadow, FirstNotWrittenIsTheFirstByteThatIsNotExactlyWritten) {
    std::vector<unsigned char> shadow(200 + 16);
    std::size_t checked = 0;
    on_each_scan_path([&] {
        for (std::size_t align = 0; align < 16; ++align)
            for (std::size_t n = 0; n <= 200; n += n < 100 ? 1 : 7)
                for (std::size_t bad = 0; bad <= n; ++bad)
                    for (unsigned char kind : {0, 2, 3, 4}) {
                        std::fill(shadow.begin(), shadow.end(), npu::base::shadow_written);
                        if (bad < n) shadow[align + bad] = kind;
                        // Bytes past the end never count.
                        shadow[align + n] = 0;
                        ASSERT_EQ(npu::base::first_not_written(shadow.data() + align, n), bad)
                            << "n " << n << ", bad byte at " << bad << " (" << int(kind) << "), start + " << align;
                        ++checked;
                    }
    });
    EXPECT_GT(checked, 200000u);
}

// The SA's one-pass check of its operand rows' shadow (rows_written) is
// false exactly when a byte inside one of the rows is not exactly written:
// every row length up to 130 (whole 64-byte steps and masked tails), strides
// longer than, equal to and shorter than a row, the bad byte in any row at
// any position; bytes between and after the rows never count. AVX-512 and
// portable paths as above.
TEST(MemcheckShadow, RowsWrittenIsFalseExactlyWhenARowHasABadByte) {
    std::size_t checked = 0, bad_rows = 0;
    on_each_scan_path([&] {
        for (std::size_t n = 1; n <= 130; n += n < 70 ? 1 : 5)
            for (const std::size_t stride : {n, n + 3, n + 64, n / 2 + 1})
                for (const std::size_t rows : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
                    const std::size_t span = (rows - 1) * stride + n;
                    std::vector<unsigned char> shadow(span + 64, 0);
                    // Rows written, everything else not.
                    for (std::size_t r = 0; r < rows; ++r)
                        std::fill_n(shadow.begin() + static_cast<std::ptrdiff_t>(r * stride), n,
                                    npu::base::shadow_written);
                    ASSERT_TRUE(npu::base::rows_written(shadow.data(), stride, rows, n))
                        << "n " << n << ", stride " << stride << ", rows " << rows;
                    for (std::size_t r = 0; r < rows; ++r)
                        for (std::size_t i = 0; i < n; i += i + 1 < n ? std::max<std::size_t>(1, n / 7) : 1) {
                            const std::size_t at = r * stride + i;
                            const unsigned char was = shadow[at];
                            shadow[at] = npu::base::shadow_in_flight;
                            // Overlapping rows (stride < n): the byte may be in a later row too.
                            ASSERT_FALSE(npu::base::rows_written(shadow.data(), stride, rows, n))
                                << "n " << n << ", stride " << stride << ", rows " << rows << ", row " << r << ", byte "
                                << i;
                            shadow[at] = was;
                            ++bad_rows;
                        }
                    ++checked;
                }
    });
    EXPECT_GT(checked, 1000u);
    EXPECT_GT(bad_rows, 10000u);
}

// npu_base links SystemC, whose main() calls sc_main (a gtest_main next to
// it leaves libsystemc's sc_main reference unresolved with some linkers).
// extern "C" as SystemC declares it (sc_externs.h; <systemc> is not needed).
// base::divisor (the calendars', memories' and DMA's divisions by fixed
// widths): exactly n / d for every dividend, by a shift or a division.
TEST(Divisor, DividesExactlyLikeTheHardware) {
    std::mt19937_64 rng(17);
    std::vector<std::uint64_t> ds = {1,
                                     2,
                                     3,
                                     5,
                                     7,
                                     8,
                                     10,
                                     2702,  // the gap9 cluster clock's period in ps (370 MHz)
                                     2703,
                                     1000000000000ull / 370000000ull,
                                     (std::uint64_t{1} << 32) + 1,
                                     (std::uint64_t{1} << 63) - 1,
                                     std::uint64_t{1} << 63,
                                     (std::uint64_t{1} << 63) + 1,
                                     UINT64_MAX - 1,
                                     UINT64_MAX};
    for (int i = 0; i < 200; ++i) ds.push_back(rng() >> (rng() % 64));
    std::uint64_t checked = 0;
    for (const std::uint64_t d0 : ds) {
        const std::uint64_t d = d0 ? d0 : 1;
        const npu::base::divisor div(d);
        ASSERT_EQ(div.value(), d);
        std::vector<std::uint64_t> ns = {0, 1, d - 1, d, d + 1, 2 * d - 1, 2 * d, std::uint64_t{1} << 63, UINT64_MAX,
                                         UINT64_MAX - 1, UINT64_MAX - d, UINT64_MAX / d * d, UINT64_MAX / d * d - 1};
        for (int i = 0; i < 2000; ++i) ns.push_back(rng() >> (rng() % 64));
        for (const std::uint64_t n : ns) {
            ASSERT_EQ(div.div(n), n / d) << n << " / " << d;
            ++checked;
        }
        if (d > 1 && d < UINT64_MAX / 8) {
            EXPECT_EQ(div.div_up(d * 3 - 1), 3u) << d;
            EXPECT_EQ(div.div_up(d * 3), 3u) << d;
            EXPECT_EQ(div.div_up(d * 3 + 1), 4u) << d;
        }
    }
    EXPECT_GT(checked, 400000u);
    // 0 counts as 1.
    EXPECT_EQ(npu::base::divisor(0).div(12345), 12345u);
}

extern "C" int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
