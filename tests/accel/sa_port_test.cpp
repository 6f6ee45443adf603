// The SA's L1 port booking (sa_port_booking, docs/sa.md): which bank-cycles
// a tile's row bursts book and how long they wait, pinned by hand on small
// cases and, over many random jobs among other initiators' bookings, against
// the booking as it was before slot_calendar::reserve_run_past_own (a run of
// free words at a time, the words after it one by one with a table of the
// job's own latest booking per bank).
#include "accel/sa_engine.h"
#include "base/slot_calendar.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

namespace {

using npu::base::l1_bank_calendar;
constexpr std::uint64_t kBase = 0x10000000, kSize = 64 * 1024;

// 16 banks of 4-byte words at kBase; a ring of `window` cycles (1024: laps
// end often).
l1_bank_calendar make_banks(std::uint64_t window = 1000) {
    l1_bank_calendar c;
    c.base = kBase;
    c.size = kSize;
    c.bank_mask = 15;
    c.shift = 2;
    c.banks.init(16, window);
    return c;
}

// Whether bank-cycle (bank, cycle) is booked, without booking it (on a copy).
bool booked(const l1_bank_calendar& c, unsigned bank, std::uint64_t cycle) {
    l1_bank_calendar copy = c;
    return copy.banks.reserve(bank, cycle) != cycle;
}

// The booking before reserve_run_past_own, word for word (the old
// sa_port_booking::row), with counters of the cases a comparison must cover.
class reference_port {
public:
    reference_port(l1_bank_calendar* banks, std::uint64_t port_bandwidth)
        : banks_(banks), port_bandwidth_(port_bandwidth) {}
    void begin_job(std::uint64_t start) {
        words_per_cycle_ = std::max<std::uint64_t>(1, port_bandwidth_ >> banks_->shift);
        own_next_.assign(std::size_t(banks_->bank_mask) + 1, 0);
        start_ = start;
    }
    void begin_tile(std::uint64_t cycle) { tile_cycle_ = cycle, bytes_ = wait_ = 0; }
    std::uint64_t wait() const { return wait_; }
    std::uint64_t own_passed = 0, waits = 0, alone = 0;

    void row(std::uint64_t addr, std::uint64_t len) {
        l1_bank_calendar& cal = *banks_;
        const std::uint64_t at = tile_cycle_ + wait_ + bytes_ / port_bandwidth_;
        bytes_ += len;
        if (len == 0 || addr < cal.base || addr - cal.base >= cal.size || len > cal.size - (addr - cal.base)) return;
        const std::uint64_t offset = addr - cal.base;
        const std::uint64_t first = offset >> cal.shift, words = ((offset + len - 1) >> cal.shift) - first + 1;
        const unsigned mask = cal.bank_mask;
        const std::uint64_t per_cycle = words_per_cycle_;
        std::uint64_t cycle = at, lane = 0, left = words, waited = 0;
        unsigned bank = static_cast<unsigned>(first) & mask;
        // The ring holds every booking from half its window before START to
        // the word's cycle (sa_port_booking::reach, word by word here).
        const auto hold = [&](std::uint64_t to) {
            const std::uint64_t margin = cal.banks.window() / 2;
            if (to - start_ + margin >= cal.banks.ring_cycles()) cal.banks.grow_to(margin + 2 * (to - start_) + 1);
        };
        while (left) {
            hold(cycle + left / per_cycle + 1);
            const std::uint64_t run = cal.banks.reserve_free_run(left, per_cycle, cycle, bank, mask, lane);
            for (std::uint64_t i = 0; i < run; ++i) {
                own_next_[bank] = cycle + 1;
                if (++lane == per_cycle) lane = 0, ++cycle;
                bank = (bank + 1) & mask;
            }
            left -= run;
            if (!left) break;
            alone += run == 0;
            if (own_next_[bank] <= cycle) {
                const std::uint64_t served = cal.banks.reserve(bank, cycle);
                hold(served + 1);
                waits += served != cycle;
                waited += served - cycle;
                cycle = served;
                own_next_[bank] = served + 1;
            } else {
                ++own_passed;
            }
            if (++lane == per_cycle) lane = 0, ++cycle;
            bank = (bank + 1) & mask;
            --left;
        }
        wait_ += waited;
    }

private:
    l1_bank_calendar* banks_;
    std::uint64_t port_bandwidth_, words_per_cycle_ = 1, tile_cycle_ = 0, bytes_ = 0, wait_ = 0, start_ = 0;
    std::vector<std::uint64_t> own_next_;
};

TEST(SaPortBooking, AnotherInitiatorsBankCycleDelaysTheRestOfTheStream) {
    auto c = make_banks();
    c.banks.reserve(3, 100);  // another initiator's
    npu::accel::sa_port_booking port(&c, 64);
    ASSERT_TRUE(port.begin_job(100, 0));
    port.begin_tile(100);
    // 16 words, one per bank, all in cycle 100: bank 3's is taken, so it and
    // the 12 words after it go out in cycle 101.
    port.row(kBase, 64);
    EXPECT_EQ(port.wait(), 1u);
    for (unsigned b = 0; b < 16; ++b) {
        EXPECT_EQ(booked(c, b, 100), b <= 3) << "bank " << b;
        EXPECT_EQ(booked(c, b, 101), b >= 3) << "bank " << b;
    }
    // The next row starts a port cycle (64 B) and the wait later: 102.
    port.row(kBase + 2, 4);  // words 0 and 1
    EXPECT_EQ(port.wait(), 1u);
    EXPECT_TRUE(booked(c, 0, 102) && booked(c, 1, 102) && !booked(c, 2, 102));
}

TEST(SaPortBooking, TheJobsOwnBankCyclesArePassedOverOnce) {
    auto c = make_banks();
    npu::accel::sa_port_booking port(&c, 64);
    ASSERT_TRUE(port.begin_job(500, 0));
    port.begin_tile(500);
    // 62 bytes from byte 3: words 0..16, the 17th (bank 0) in cycle 501.
    port.row(kBase + 3, 62);
    // 62 B is under a port cycle: the next row starts in cycle 500 too, on
    // banks 0..3 the first row holds there: no wait, nothing booked twice.
    port.row(kBase + 64, 16);
    EXPECT_EQ(port.wait(), 0u);
    for (unsigned b = 0; b < 16; ++b) {
        EXPECT_TRUE(booked(c, b, 500)) << "bank " << b;
        EXPECT_EQ(booked(c, b, 501), b == 0) << "bank " << b;
    }
}

TEST(SaPortBooking, ABankCycleBeforeTheJobsLatestInItsBankCountsAsOwn) {
    // 32 B port: 8 words per cycle. The first row's 9th word (bank 8) goes
    // out in cycle 201; the next row starts in cycle 200 (30 B < 32) on
    // bank 8, which another initiator holds in cycle 200. The job booked
    // bank 8 later than that, so the port takes it for its own: passed
    // over, no wait (the closed form's bound on the port's own conflicts).
    auto c = make_banks();
    c.banks.reserve(8, 200);
    npu::accel::sa_port_booking port(&c, 32);
    ASSERT_TRUE(port.begin_job(200, 0));
    port.begin_tile(200);
    port.row(kBase + 3, 30);
    port.row(kBase + 32, 4);
    EXPECT_EQ(port.wait(), 0u);
    auto probe = c;
    EXPECT_EQ(probe.banks.reserve(8, 200), 202u) << "bank 8: another's at 200, the job's at 201";

    // The same with cycle 200 free: the second row books it, and bank 8's
    // latest booking of the job is then cycle 200: a third row that wants
    // bank 8 in cycle 201 (taken by the first row) waits for 202.
    auto d = make_banks();
    npu::accel::sa_port_booking port2(&d, 32);
    ASSERT_TRUE(port2.begin_job(200, 0));
    port2.begin_tile(200);
    port2.row(kBase + 3, 30);
    port2.row(kBase + 32, 4);
    EXPECT_EQ(port2.wait(), 0u);
    EXPECT_TRUE(booked(d, 8, 200));
    port2.row(kBase + 32, 4);  // starts at 200 + 34 / 32 = 201
    EXPECT_EQ(port2.wait(), 1u);
    EXPECT_TRUE(booked(d, 8, 202));
}

// `count` other initiators' bookings of random bank-cycles in [now, now +
// spread), in both calendars (which must agree where they land).
void book_others(l1_bank_calendar& mine, l1_bank_calendar& theirs, std::mt19937_64& rng, unsigned count,
                 std::uint64_t now, std::uint64_t spread) {
    for (unsigned i = 0; i < count; ++i) {
        const unsigned b = static_cast<unsigned>(rng() % 16);
        const std::uint64_t at = now + rng() % spread;
        ASSERT_EQ(mine.banks.reserve(b, at), theirs.banks.reserve(b, at));
    }
}

// Booking every bank-cycle of [lo, end) in copies of both calendars: the
// first slot that differs makes a booking land elsewhere.
void expect_same_bookings(const l1_bank_calendar& mine, const l1_bank_calendar& theirs, std::uint64_t lo,
                          std::uint64_t end, unsigned job) {
    auto a = mine, z = theirs;
    for (unsigned b = 0; b < 16; ++b)
        for (std::uint64_t cy = lo; cy < end; ++cy)
            ASSERT_EQ(a.banks.reserve(b, cy), z.banks.reserve(b, cy))
                << "job " << job << " bank " << b << " cycle " << cy;
}

// Random jobs among other initiators' bookings, on both implementations in
// two identical calendars: every row's wait and, after every job, every
// bank-cycle around it must be the same.
void compare_random(std::uint64_t port_bandwidth, std::uint32_t seed) {
    auto mine = make_banks(), theirs = make_banks();
    npu::accel::sa_port_booking port(&mine, port_bandwidth);
    reference_port ref(&theirs, port_bandwidth);
    std::mt19937_64 rng(seed);
    std::uint64_t now = 1000, rows = 0, waited_rows = 0;
    for (unsigned job = 0; job < 400; ++job) {
        // A big jump now and then: laps and rebases of the 16-bit ring.
        now += rng() % 16 == 0 ? rng() % (std::uint64_t{1} << 26) : rng() % 3000;
        const std::uint64_t lo = now;
        // Other initiators: scattered bank-cycles and dense bursts.
        ASSERT_NO_FATAL_FAILURE(book_others(mine, theirs, rng, static_cast<unsigned>(rng() % 200), now, 600));
        ASSERT_TRUE(port.begin_job(now, 0));
        ref.begin_job(now);
        std::uint64_t t = now;
        const unsigned tiles = 1 + static_cast<unsigned>(rng() % 4);
        for (unsigned tile = 0; tile < tiles; ++tile) {
            port.begin_tile(t);
            ref.begin_tile(t);
            const unsigned n = 1 + static_cast<unsigned>(rng() % 40);
            for (unsigned r = 0; r < n; ++r) {
                // Mostly inside L1 at any byte, lengths up to a few port
                // cycles; sometimes outside or past L1's end (not booked).
                std::uint64_t addr = kBase + rng() % kSize;
                if (rng() % 50 == 0) addr = kBase + kSize - rng() % 64;
                if (rng() % 80 == 0) addr = kBase - 64;
                const std::uint64_t len = rng() % 8 == 0 ? rng() % 8 : rng() % 300;
                port.row(addr, len);
                ref.row(addr, len);
                ASSERT_EQ(port.wait(), ref.wait()) << "job " << job << " tile " << tile << " row " << r;
                ++rows;
            }
            waited_rows += port.wait() != 0;
            t += 50 + rng() % 400 + port.wait();
        }
        now = t;
        ASSERT_NO_FATAL_FAILURE(expect_same_bookings(mine, theirs, lo, now + 64, job));
    }
    // The comparison covers waits, the job's own bank-cycles passed over and
    // words looked at alone (a run leaving its lap).
    EXPECT_GT(waited_rows, 50u);
    EXPECT_GT(ref.waits, 100u);
    EXPECT_GT(ref.own_passed, 100u);
    EXPECT_GT(ref.alone, 10u);
    EXPECT_GT(rows, 10000u);
}

TEST(SaPortBooking, BooksAsTheWordByWordBookingAt16WordsPerCycle) { compare_random(64, 1); }
TEST(SaPortBooking, BooksAsTheWordByWordBookingAt8WordsPerCycle) { compare_random(32, 2); }
TEST(SaPortBooking, BooksAsTheWordByWordBookingAtOneWordPerCycle) { compare_random(4, 3); }
// 32 words per cycle on 16 banks: every bank twice in a cycle.
TEST(SaPortBooking, BooksAsTheWordByWordBookingAt32WordsPerCycle) { compare_random(128, 4); }

// One rows() call of a comparison: `count` rows of `len` bytes from
// `first`, `stride` apart.
struct rows_call {
    std::uint64_t first, stride, count, len;
};

// What a comparison of rows() against the reference covered.
struct rows_coverage {
    std::uint64_t calls = 0, waited_calls = 0, own_passed = 0;
};

// The frame of the rows() comparisons: 2000 random jobs of three tiles of
// `calls` calls each, among other initiators' bookings (in a third of the
// jobs, up to `max_others` each), across laps and rebases. next(rng, theirs,
// row_cycle) picks a call (row_cycle: where row() would start the next row);
// it is issued as rows() here and row by row on the reference: the same
// waits after every call and, after every job, the same bank-cycles.
template <class Next>
rows_coverage compare_rows_calls(std::uint64_t port_bandwidth, std::uint32_t seed, unsigned max_others, unsigned calls,
                                 Next&& next) {
    auto mine = make_banks(), theirs = make_banks();
    npu::accel::sa_port_booking port(&mine, port_bandwidth);
    reference_port ref(&theirs, port_bandwidth);
    std::mt19937_64 rng(seed);
    rows_coverage cov;
    std::uint64_t now = 1000;
    for (unsigned job = 0; job < 2000; ++job) {
        now += rng() % 16 == 0 ? rng() % (std::uint64_t{1} << 26) : rng() % 3000;
        const std::uint64_t lo = now;
        const unsigned others = static_cast<unsigned>(rng() % 3 == 0 ? rng() % max_others : 0);
        book_others(mine, theirs, rng, others, now, 200);
        if (::testing::Test::HasFailure()) return cov;
        EXPECT_TRUE(port.begin_job(now, 0));
        ref.begin_job(now);
        std::uint64_t t = now;
        for (unsigned tile = 0; tile < 3; ++tile) {
            port.begin_tile(t);
            ref.begin_tile(t);
            std::uint64_t bytes = 0;  // the tile's stream so far
            for (unsigned call = 0; call < calls; ++call) {
                const rows_call c = next(rng, theirs, t + ref.wait() + bytes / port_bandwidth);
                const std::uint64_t before = port.wait();
                port.rows(c.first, c.stride, c.count, c.len);
                for (std::uint64_t r = 0; r < c.count; ++r) ref.row(c.first + r * c.stride, c.len);
                bytes += c.count * c.len;
                EXPECT_EQ(port.wait(), ref.wait()) << "job " << job << " tile " << tile << " call " << call;
                ++cov.calls;
                cov.waited_calls += port.wait() != before;
                if (::testing::Test::HasFailure()) return cov;
            }
            t += 50 + rng() % 400 + port.wait();
        }
        now = t;
        expect_same_bookings(mine, theirs, lo, now + 64, job);
        if (::testing::Test::HasFailure()) return cov;
    }
    cov.own_passed = ref.own_passed;
    return cov;
}

// rows() (a tile's weight or activation rows in one call: when every row is
// one port cycle over all banks and their bank-cycles are free, booked as a
// block) against the reference row by row, among other initiators'
// bookings that sometimes fall inside such a block: the same waits and the
// same bank-cycles.
TEST(SaPortBooking, RowsBookAsRowByRow) {
    std::uint64_t blocks = 0, blocks_met_another = 0, other_shapes = 0;
    compare_rows_calls(64, 5, 40, 3, [&](std::mt19937_64& rng, const l1_bank_calendar& theirs, std::uint64_t at) {
        rows_call c{};
        c.count = 1 + rng() % 24;
        if (rng() % 4) {
            // The block shape: 64 B rows (one port cycle, 16 banks),
            // aligned, on the same banks; now and then a misaligned start,
            // or rows running past L1's end.
            c.len = 64;
            c.stride = 64 * (rng() % 5);
            c.first = kBase + 4 * (rng() % (kSize / 4 - 64 * 30));
            if (rng() % 10 == 0) c.first += 2;
            if (rng() % 40 == 0) c.first = kBase + kSize - 64 * (rng() % 4);
            const bool met = [&] {
                for (std::uint64_t r = 0; r < c.count; ++r)
                    for (unsigned b = 0; b < 16; ++b)
                        if (booked(theirs, b, at + r)) return true;
                return false;
            }();
            blocks_met_another += met;
            blocks += !met;
        } else {
            c.len = 1 + rng() % 200;
            c.stride = rng() % 512;
            c.first = kBase + rng() % kSize;
            ++other_shapes;
        }
        return c;
    });
    EXPECT_GT(blocks, 5000u);
    EXPECT_GT(blocks_met_another, 100u);
    EXPECT_GT(other_shapes, 1000u);
}

// rows() of rows narrower than a port cycle (an int8 tile's 16-byte rows,
// four to a cycle; any alignment and stride; ports of 8, 16 and 32 words):
// booked at once when none of their bank-cycles is another initiator's,
// the job's own passed over. Between them, single rows of up to two port
// cycles at any byte, which leave the job's latest booking of a bank past
// the next row's cycle (a misaligned row spilling into the next cycle).
void compare_narrow_rows(std::uint64_t port_bandwidth, std::uint32_t seed) {
    const rows_coverage cov =
        compare_rows_calls(port_bandwidth, seed, 60, 6, [&](std::mt19937_64& rng, const l1_bank_calendar&, std::uint64_t) {
            rows_call c{};
            if (rng() % 5 == 0) {
                c.first = kBase + rng() % (kSize - 256);
                c.count = 1;
                c.len = 1 + rng() % (2 * port_bandwidth);
                return c;
            }
            c.count = 1 + rng() % 24;
            c.len = 1 + rng() % port_bandwidth;
            c.stride = rng() % 2 ? 4 * (rng() % 64) : rng() % 300;
            c.first = kBase + (rng() % 2 ? 4 * (rng() % (kSize / 8)) : rng() % (kSize / 2));
            if (rng() % 40 == 0) c.first = kBase + kSize - rng() % 200;  // rows past L1's end
            return c;
        });
    EXPECT_GT(cov.calls, 30000u);
    EXPECT_GT(cov.waited_calls, 500u);
    EXPECT_GT(cov.own_passed, 1000u);
}

TEST(SaPortBooking, NarrowRowsBookAsRowByRowAt16WordsPerCycle) { compare_narrow_rows(64, 6); }
TEST(SaPortBooking, NarrowRowsBookAsRowByRowAt8WordsPerCycle) { compare_narrow_rows(32, 7); }
TEST(SaPortBooking, NarrowRowsBookAsRowByRowAt32WordsPerCycle) { compare_narrow_rows(128, 8); }

}  // namespace

// npu_accel links SystemC, whose main() calls sc_main (see slot_calendar_test.cpp).
extern "C" int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
