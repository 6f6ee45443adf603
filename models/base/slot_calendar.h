// A reservation calendar of single-ported resources in global cycles: the
// banks of the shared L1 (TCDM), each serving one access per cycle, shared by
// every L1 initiator of a SoC (cores, DMA channels, SA ports).
//
// Why a calendar: with temporal decoupling each initiator runs a whole
// quantum ahead on its own, so accesses do not arrive in time order. Every
// access books the first free cycle of its bank at or after the cycle it is
// issued (its global cycle: SystemC time + the initiator's local offset), so a
// bank never serves two accesses in one cycle whatever order the initiators
// run in, and an access that finds its cycle booked waits for the next free
// one. Deterministic because SystemC's scheduling order is.
//
// Error bound (documented in docs/memory-map.md): the capacity of each bank
// is exact, but who waits is decided by simulation order within a quantum
// (the initiator that runs first books first) rather than by the hardware's
// round-robin. When a bank is saturated all along (every contender issues
// faster than the bank serves), the time to serve all of them is the same
// as round-robin's; an individual initiator's wait can differ from
// round-robin's by up to one quantum (soc.quantum), so a smaller quantum
// tightens it. A core that waited for a bank (or the L2 path) therefore runs short batches
// (128 cycles) and synchronises after each for a while (models/cpu/core.cpp),
// so contending cores take turns in time order and the bound shrinks to
// about one such batch while the contention lasts. A ring of `window` cycles per resource holds the bookings; it
// covers several quanta, and a booking older than that is forgotten (it can
// no longer be contended: every initiator is past it).
//
// Cost: one load, compare and store per access when only one initiator is
// active (nothing else books its cycles), in a ring small enough to stay in
// the host's caches. A slot holds 16 bits (the ring lap of its booking, see
// slot_ring); the L1's 16 banks share one such tag per cycle with a 16-bit
// mask of the banks booked (mask_ring), so its ring of 16 Ki cycles is 64
// KiB (512 KiB with a tag per bank; with a 64-bit cycle per slot, 2 MiB,
// every booking missed the host's L2, and the booking was half of the ISS's
// time in a load-heavy program).
#pragma once

#include "config/config.h"
#include "divisor.h"
#include "host_isa.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace npu::base {

// floor(n / d) for a count of lanes per cycle (1, 2, 16 in practice): a
// shift when d is a power of two. Every run checks where its last booking
// falls, and a 64-bit division there was most of a short run's latency.
inline std::uint64_t div_lanes(std::uint64_t n, std::uint64_t d) {
    return (d & (d - 1)) == 0 ? n >> __builtin_ctzll(d) : n / d;
}

#if NPU_HOST_AVX512

// slot_ring<uint16_t>::reserve_block_if_free's check and fill of `slots`
// adjacent slots, 32 a step (an SA tile's operand rows book every bank for
// a few hundred cycles at once): false, nothing booked, if one is booked.
__attribute__((target("avx512f,avx512bw"))) inline bool reserve_block16_avx512(std::uint16_t* first,
                                                                              std::uint64_t slots,
                                                                              std::uint16_t t) {
    const __m512i tv = _mm512_set1_epi16(static_cast<short>(t));
    const std::uint64_t whole = slots & ~std::uint64_t{31};
    const __mmask32 tail = static_cast<__mmask32>((std::uint64_t{1} << (slots - whole)) - 1);
    __mmask32 taken = 0;
    for (std::uint64_t k = 0; k < whole; k += 32) taken |= _mm512_cmpeq_epi16_mask(_mm512_loadu_si512(first + k), tv);
    taken |= _mm512_mask_cmpeq_epi16_mask(tail, _mm512_maskz_loadu_epi16(tail, first + whole), tv);
    if (taken) return false;
    for (std::uint64_t k = 0; k < whole; k += 32) _mm512_storeu_si512(first + k, tv);
    _mm512_mask_storeu_epi16(first + whole, tail, tv);
    return true;
}
#endif

// The check of reserve_masks_past_own_if_free (both rings): for i < n,
// row i's slots masks[i] at cycles[i], against booked(cycle) (the bits of
// that cycle's booked resources). Moves own (a copy of own_next) as the
// word-by-word walk would (a free slot booked: its cycle + 1; a slot passed
// over: unchanged): a row's own bookings pass over the slots of their cycle
// that a later row wants too. masks[i] becomes the slots row i books (its
// free ones not booked by an earlier row of the same cycle), so the caller
// books them without reading a slot again. False at the first slot another
// initiator holds.
template <class Booked>
bool plan_rows_past_own(const std::uint64_t* cycles, std::uint16_t* masks, std::size_t n, std::uint64_t* own,
                        Booked booked) {
    std::uint64_t cycle = cycles[0];
    unsigned in_cycle = 0;  // the slots of `cycle` booked by the rows so far
    for (std::size_t i = 0; i < n; ++i) {
        if (cycles[i] != cycle) cycle = cycles[i], in_cycle = 0;
        const unsigned taken = booked(cycle) & masks[i];
        for (unsigned b = taken; b; b &= b - 1)
            if (own[__builtin_ctz(b)] <= cycle) return false;
        const unsigned book = masks[i] & ~taken & ~in_cycle & 0xFFFFu;
        for (unsigned b = book; b; b &= b - 1) own[__builtin_ctz(b)] = cycle + 1;
        in_cycle |= book;
        masks[i] = static_cast<std::uint16_t>(book);
    }
    return true;
}

// Where booking i of a run over interleaved resources is (slot_ring::
// reserve_free_run): resource (resource + i) & resource_mask at cycle
// cycle + (lane + i) / per_cycle.
struct run_cursor {
    std::uint64_t cycle = 0, lane = 0;
    unsigned resource = 0;
};

// What both rings' grow() does with the laps: the grown ring's base lap,
// and where a booking of the old ring (tag t at ring cycle i, which is cycle
// ((t - 1 + old_base) << old_shift) | i) goes in the new one, with its new tag.
struct lap_regrow {
    std::uint64_t old_base = 0;
    unsigned old_shift = 0;
    std::uint64_t new_base = 0, new_mask = 0;
    unsigned new_shift = 0;

    // Sets the new ring's geometry (mask, lap shift, after its init) and
    // returns its base lap: the old base's lap in the longer laps.
    std::uint64_t to(std::uint64_t mask, unsigned shift) {
        new_mask = mask, new_shift = shift;
        return new_base = old_base >> (new_shift - old_shift);
    }
    // The new ring cycle of the old booking (t, i); its tag in `tag`.
    template <class Slot>
    std::uint64_t place(Slot t, std::uint64_t i, Slot& tag) const {
        const std::uint64_t cycle = ((t - 1 + old_base) << old_shift) | i;
        tag = static_cast<Slot>((cycle >> new_shift) - new_base + 1);
        return cycle & new_mask;
    }
};

// The ring of a slot_calendar with slots of type Slot. A slot holds the ring
// lap of its booking (cycle / ring size) counted from base_lap_, plus one
// (0: never booked): the same cycle matches as when the slot held the cycle
// itself. Before a lap stops fitting in a Slot the laps are rebased: the
// bookings more than kept_laps laps before the newest are forgotten (their
// slots read as never booked). That changes nothing while no initiator books
// that far behind another, which slot_calendar::init makes sure of.
//
// Cycle-major: the slots of one cycle, one per resource, are adjacent
// (slot of resource r at ring cycle i: ring_[i * resources_ + r]). What
// books many resources at once books them within one cycle or a few: an SA
// tile's block (every bank for a few cycles) is one contiguous stretch
// checked and filled 16 bytes a step, a DMA burst's two words of a cycle
// are adjacent slots, and a burst's 32 cycles on 16 banks are 1 KiB of
// adjacent slots instead of a slot in each of 16 rows a ring apart.
template <class Slot>
class slot_ring {
public:
    static constexpr std::uint64_t kept_laps = std::uint64_t{1} << (8 * sizeof(Slot) - 1);

    void init(unsigned resources, std::uint64_t size) {
        mask_ = size - 1;
        lap_shift_ = static_cast<unsigned>(__builtin_ctzll(size));
        resources_ = resources;
        // 16 bytes of padding: the SIMD checks of a block or run that ends
        // at the ring's last cycle read (never book) up to a vector past it.
        ring_.assign(std::size_t(resources) * size + 16 / sizeof(Slot), 0);
    }
    bool empty() const { return ring_.empty(); }

    std::uint64_t reserve(unsigned resource, std::uint64_t cycle) {
        Slot* const column = ring_.data() + resource;
        const std::size_t step = resources_;
        // Every cycle of a lap has the same tag: one compare per taken cycle
        // (a core or DMA word behind an SA tile's stream walks many).
        for (std::uint64_t lap = cycle >> lap_shift_;; ++lap) {
            std::uint64_t tag = lap - base_lap_ + 1;
            if (__builtin_expect(tag > max_tag, 0)) tag = rebase(lap);
            const Slot t = static_cast<Slot>(tag);
            std::uint64_t i = cycle & mask_;
            // Most accesses find their cycle free: one compare.
            if (column[i * step] != t) {
                column[i * step] = t;
                return (lap << lap_shift_) | i;
            }
            ++i;
#if defined(__SSE2__)
            if constexpr (sizeof(Slot) == 2) {
                // One resource (the L2 path): adjacent cycles, eight slots
                // per SSE2 step; the loads stay inside the lap.
                if (step == 1) {
                    const __m128i tv = _mm_set1_epi16(static_cast<short>(t));
                    for (; i + 8 <= mask_ + 1; i += 8) {
                        const unsigned taken = static_cast<unsigned>(_mm_movemask_epi8(
                            _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i)), tv)));
                        if (taken != 0xFFFFu) {
                            i += static_cast<unsigned>(__builtin_ctz(~taken)) / 2;
                            column[i] = t;
                            return (lap << lap_shift_) | i;
                        }
                    }
                }
            }
#endif
            for (Slot* s = column + i * step; i <= mask_; ++i, s += step)
                if (*s != t) {
                    *s = t;
                    return (lap << lap_shift_) | i;
                }
            cycle = (lap + 1) << lap_shift_;
        }
    }

    // Books the first n free cycles of `resource` at or after `cycle`, in
    // order (n calls of reserve, each from one past the previous one's
    // cycle, book the same); returns one past the last booked. One pass over
    // the cycles in between, eight a step for one resource of 16-bit slots:
    // the cluster's L2 path, where a DMA burst's slots interleave with the
    // other channel's and the cores' (a reserve and a reserve_free_run per
    // slot were a twentieth of a network run's host time). Its lap loop is
    // reserve's: reserve written as reserve_first_free(.., 1) - 1 made a
    // network run about 3 % slower (less of it inlined where cores book).
    std::uint64_t reserve_first_free(unsigned resource, std::uint64_t cycle, std::uint64_t n) {
        Slot* const column = ring_.data() + resource;
        const std::size_t step = resources_;
        for (std::uint64_t lap = cycle >> lap_shift_;; ++lap) {
            std::uint64_t tag = lap - base_lap_ + 1;
            if (__builtin_expect(tag > max_tag, 0)) tag = rebase(lap);
            const Slot t = static_cast<Slot>(tag);
            std::uint64_t i = cycle & mask_;
#if defined(__SSE2__)
            if constexpr (sizeof(Slot) == 2) {
                if (step == 1) {
                    // A step's free slots, all booked when no more than n
                    // are free (a taken slot already holds t: rewriting it
                    // changes nothing); else the first n of them one by one
                    // below. The loads stay inside the lap.
                    const __m128i tv = _mm_set1_epi16(static_cast<short>(t));
                    for (; i + 8 <= mask_ + 1; i += 8) {
                        __m128i* p = reinterpret_cast<__m128i*>(column + i);
                        const unsigned free_bytes = ~static_cast<unsigned>(_mm_movemask_epi8(
                                                        _mm_cmpeq_epi16(_mm_loadu_si128(p), tv))) & 0xFFFFu;
                        // A slot's two bytes agree: count one bit per slot,
                        // in SWAR steps (the baseline x86-64 build has no
                        // popcnt instruction; __builtin_popcount is a call).
                        unsigned c = free_bytes & 0x5555u;
                        c = (c & 0x3333u) + ((c >> 2) & 0x3333u);
                        c = (c + (c >> 4)) & 0x0F0Fu;
                        const std::uint64_t free_slots = (c + (c >> 8)) & 0x1Fu;
                        if (free_slots > n) break;
                        _mm_storeu_si128(p, tv);
                        n -= free_slots;
                        if (n == 0) return (lap << lap_shift_) + i + (31 - __builtin_clz(free_bytes)) / 2 + 1;
                    }
                }
            }
#endif
            for (Slot* s = column + i * step; i <= mask_; ++i, s += step)
                if (*s != t) {
                    *s = t;
                    if (--n == 0) return ((lap << lap_shift_) | i) + 1;
                }
            cycle = (lap + 1) << lap_shift_;
        }
    }

    // Books, in order, bookings i = 0, 1, ... of a run of n: booking i is
    // resource (first_resource + i) & resource_mask (interleaved resources,
    // e.g. banks) at cycle0 + (first_lane + i) / per_cycle. Stops at the
    // first whose cycle is already booked and returns how many it booked;
    // each of those found its cycle free, so the ring holds what reserve()
    // would have left. Books none (returns 0) if the run leaves cycle0's lap
    // or would need a rebase: then the caller books one by one.
    // resource_mask + 1 is a power of two, first_resource <= resource_mask,
    // first_lane < per_cycle.
    std::uint64_t reserve_free_run(std::uint64_t n, std::uint64_t per_cycle, std::uint64_t cycle0,
                                   unsigned first_resource, unsigned resource_mask, std::uint64_t first_lane = 0) {
        const std::uint64_t lap = cycle0 >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (n == 0 || tag > max_tag || ((cycle0 + div_lanes(first_lane + n - 1, per_cycle)) >> lap_shift_) != lap)
            return 0;
        const Slot t = static_cast<Slot>(tag);
        // Booking i's slot, walked with no multiplication per booking (every
        // DMA burst books one per L1 word): a slot further per booking, back
        // to the first resource's after the last, a cycle's slots further per
        // cycle. The run stays in its lap: no index wraps.
        const std::ptrdiff_t cycle_step = static_cast<std::ptrdiff_t>(resources_);
        Slot* slot = ring_.data() + (cycle0 & mask_) * resources_ + first_resource;
        if (resource_mask == 0 && per_cycle == 1) {
            // One resource, one booking per cycle (the cluster's L2 path):
            // with one resource in the ring, adjacent slots, eight a step
            // while none of them is booked (the loads stay inside the run's
            // lap).
            std::uint64_t i = 0;
#if defined(__SSE2__)
            if constexpr (sizeof(Slot) == 2) {
                if (cycle_step == 1) {
                    const __m128i tv = _mm_set1_epi16(static_cast<short>(t));
                    for (; i + 8 <= n; i += 8) {
                        __m128i* p = reinterpret_cast<__m128i*>(slot + i);
                        if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128(p), tv)) != 0) break;
                        _mm_storeu_si128(p, tv);
                    }
                }
            }
#endif
            for (slot += static_cast<std::ptrdiff_t>(i) * cycle_step; i < n; ++i, slot += cycle_step) {
                if (*slot == t) return i;
                *slot = t;
            }
            return n;
        }
        const std::uint64_t resources = std::uint64_t{resource_mask} + 1;
        const std::ptrdiff_t back = static_cast<std::ptrdiff_t>(resources);
        std::uint64_t resource = first_resource, lane = first_lane, i = 0;
        if (per_cycle == 2 && resource_mask != 0) {
            // Two bookings per cycle (a DMA burst's L1 words, 8 B per cycle
            // over 4-byte banks), in pairs from an even resource r: r and
            // r + 1, which never straddle the wrap back to resource 0 (the
            // count of resources is even), in as many pairs as there are
            // up to the last resource, with no check per pair but the slots'.
            if (resource & 1u) {
                // An odd first resource: its booking alone, then pairs.
                if (*slot == t) return 0;
                *slot = t;
                ++slot;
                if (++lane == 2) lane = 0, slot += cycle_step;
                if (++resource == resources) resource = 0, slot -= back;
                i = 1;
            }
            // A pair from lane 0 is one cycle's two adjacent slots; from
            // lane 1 its second booking is lane 0 of the next cycle.
            const std::ptrdiff_t second = 1 + static_cast<std::ptrdiff_t>(lane) * cycle_step;
            const std::ptrdiff_t next_pair = 2 + cycle_step;
            while (n - i >= 2) {
                std::uint64_t pairs = std::min((n - i) / 2, (resources - resource) / 2);
                resource += 2 * pairs;
                for (; pairs; --pairs, i += 2) {
                    if (slot[0] == t) return i;
                    slot[0] = t;
                    if (slot[second] == t) return i + 1;
                    slot[second] = t;
                    slot += next_pair;
                }
                if (resource == resources) resource = 0, slot -= back;
            }
            if (i == n) return n;
            // The last booking, the first of a pair.
            if (*slot == t) return i;
            *slot = t;
            return n;
        }
        // In segments up to the last resource (then back to the first):
        // no resource check per booking.
        while (i < n) {
            const std::uint64_t seg = std::min<std::uint64_t>(n - i, resources - resource);
            for (const std::uint64_t end = i + seg; i < end; ++i) {
                if (*slot == t) return i;
                *slot = t;
                ++slot;
                if (++lane == per_cycle) lane = 0, slot += cycle_step;
            }
            if (i == n) break;
            slot -= back;
            resource = 0;
        }
        return n;
    }

    // Books, in order, bookings i = 0, 1, ... of a run of n, one per cycle:
    // booking i is resource (first_resource + i * step) & resource_mask at
    // cycle0 + i (one lane of a wide port over interleaved resources, whose
    // next word is step resources further). Stops at the first whose cycle
    // is already booked and returns how many it booked; like
    // reserve_free_run it books none (returns 0) if the run leaves cycle0's
    // lap or would need a rebase.
    std::uint64_t reserve_stride_run(std::uint64_t n, std::uint64_t cycle0, unsigned first_resource,
                                     unsigned step, unsigned resource_mask) {
        const std::uint64_t lap = cycle0 >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (n == 0 || tag > max_tag || ((cycle0 + n - 1) >> lap_shift_) != lap) return 0;
        const Slot t = static_cast<Slot>(tag);
        Slot* cycle_slots = ring_.data() + (cycle0 & mask_) * resources_;
        unsigned resource = first_resource;
        for (std::uint64_t i = 0; i < n; ++i, cycle_slots += resources_) {
            Slot& slot = cycle_slots[resource];
            if (slot == t) return i;
            slot = t;
            resource = (resource + step) & resource_mask;
        }
        return n;
    }

    // reserve_run_past_own for one ring (slot_calendar's comment).
    std::uint64_t reserve_run_past_own(std::uint64_t n, std::uint64_t per_cycle, run_cursor& at,
                                       unsigned resource_mask, std::uint64_t* own_next) {
        const std::uint64_t lap = at.cycle >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (n == 0 || tag > max_tag || ((at.cycle + div_lanes(at.lane + n - 1, per_cycle)) >> lap_shift_) != lap)
            return 0;
        const Slot t = static_cast<Slot>(tag);
        // Walked as in reserve_free_run, in segments of one cycle's lanes up
        // to the last resource: no lane or wrap check per booking (the SA
        // books a 16-word row per call, all in one cycle: adjacent slots).
        const std::ptrdiff_t cycle_step = static_cast<std::ptrdiff_t>(resources_);
        const std::uint64_t resources = std::uint64_t{resource_mask} + 1;
        Slot* slot = ring_.data() + (at.cycle & mask_) * resources_ + at.resource;
        std::uint64_t resource = at.resource, lane = at.lane, cycle = at.cycle, i = 0;
        while (i < n) {
            const std::uint64_t seg = std::min({n - i, per_cycle - lane, resources - resource});
            std::uint64_t* own = own_next + resource;
            for (std::uint64_t k = 0; k < seg; ++k, ++slot, ++own) {
                if (*slot != t) {
                    *slot = t;
                    *own = cycle + 1;
                } else if (*own <= cycle) {
                    at.cycle = cycle;
                    at.lane = lane + k;
                    at.resource = static_cast<unsigned>(resource + k);
                    return i + k;
                }
            }
            i += seg;
            resource += seg;
            lane += seg;
            if (resource == resources) resource = 0, slot -= static_cast<std::ptrdiff_t>(resources);
            if (lane == per_cycle) lane = 0, slot += cycle_step, ++cycle;
        }
        at.cycle = cycle;
        at.lane = lane;
        at.resource = static_cast<unsigned>(resource);
        return n;
    }

    // Books cycles [cycle0, cycle0 + n) of every resource when none of
    // those slots is booked yet and returns true; else books nothing and
    // returns false, as it does if the block leaves cycle0's lap or would
    // need a rebase. The block's slots are adjacent in the ring (cycle-
    // major): checked and filled 16 bytes a step (the build's -O2 does not
    // vectorise loops of unknown length itself).
    bool reserve_block_if_free(std::uint64_t cycle0, std::uint64_t n) {
        const std::uint64_t lap = cycle0 >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (n == 0 || tag > max_tag || ((cycle0 + n - 1) >> lap_shift_) != lap) return false;
        const Slot t = static_cast<Slot>(tag);
        Slot* const first = ring_.data() + (cycle0 & mask_) * resources_;
        const std::uint64_t slots = n * resources_;
        std::uint64_t k = 0;
        bool checked = false;
#if NPU_HOST_AVX512
        if constexpr (sizeof(Slot) == 2)
            if (use_avx512bw) return reserve_block16_avx512(first, slots, t);
#endif
#if defined(__SSE2__)
        if constexpr (sizeof(Slot) == 2) {
            const __m128i tv = _mm_set1_epi16(static_cast<short>(t));
            int taken = 0;
            for (; k + 8 <= slots; k += 8)
                taken |= _mm_movemask_epi8(
                    _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(first + k)), tv));
            // The last (slots % 8) slots read the rest of their 16 bytes:
            // still inside the ring (init's padding).
            if (k < slots)
                taken |= _mm_movemask_epi8(
                             _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(first + k)), tv)) &
                         ((1 << (2 * (slots - k))) - 1);
            if (taken) return false;
            checked = true;
            for (k = 0; k + 8 <= slots; k += 8) _mm_storeu_si128(reinterpret_cast<__m128i*>(first + k), tv);
        }
#endif
        if (!checked)
            for (std::uint64_t j = 0; j < slots; ++j)
                if (first[j] == t) return false;
        for (; k < slots; ++k) first[k] = t;
        return true;
    }

    // For i < n: books resources masks[i] (bit r: resource r) at cycle
    // cycles[i] (non-decreasing), as reserve_run_past_own would book them
    // one by one, for an initiator whose row i has its words at cycles[i],
    // each on a resource of its own (the SA's rows narrower than its port:
    // an int8 tile's 16-byte rows, four to a port cycle). masks is the
    // caller's scratch: overwritten. When no slot among them is held
    // by another initiator -- a booked slot at a cycle before own_next[r] is
    // the initiator's own, passed over -- books them all, moves own_next
    // past them and returns true; else books nothing and returns false, as
    // it does if the run leaves its first cycle's lap, would need a rebase
    // or the ring does not have 16 resources. Then the caller books row by
    // row. The word-by-word walk paid a call and a lap check per row and a
    // compare per word: here a row's 16 slots are compared at once.
    bool reserve_masks_past_own_if_free(const std::uint64_t* cycles, std::uint16_t* masks, std::size_t n,
                                        std::uint64_t* own_next) {
        if (resources_ != 16 || n == 0) return false;
        const std::uint64_t lap = cycles[0] >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (tag > max_tag || (cycles[n - 1] >> lap_shift_) != lap) return false;
        const Slot t = static_cast<Slot>(tag);
        // Which of a cycle's 16 slots hold this lap's tag (booked), as bits.
        auto booked_bits = [&](const Slot* row) -> unsigned {
#if defined(__SSE2__)
            if constexpr (sizeof(Slot) == 2) {
                const __m128i tv = _mm_set1_epi16(static_cast<short>(t));
                const __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row)), tv);
                const __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 8)), tv);
                return static_cast<unsigned>(_mm_movemask_epi8(_mm_packs_epi16(lo, hi)));
            }
#endif
            unsigned bits = 0;
            for (unsigned r = 0; r < 16; ++r) bits |= unsigned{row[r] == t} << r;
            return bits;
        };
        // First every row is checked (plan_rows_past_own), in a copy of
        // own_next; the bookings below read no slot again (a 16-byte load of
        // slots just stored two bytes at a time would wait for the stores).
        std::uint64_t own[16];
        std::copy(own_next, own_next + 16, own);
        if (!plan_rows_past_own(cycles, masks, n, own,
                                [&](std::uint64_t cycle) { return booked_bits(ring_.data() + (cycle & mask_) * 16); }))
            return false;
        for (std::size_t i = 0; i < n; ++i) {
            Slot* const row = ring_.data() + (cycles[i] & mask_) * 16;
            for (unsigned b = masks[i]; b; b &= b - 1) row[__builtin_ctz(b)] = t;
        }
        std::copy(own, own + 16, own_next);
        return true;
    }

    // A ring of `size` cycles (a larger power of two) with every booking of
    // this one at its cycle: slot_calendar::grow_to.
    void grow(std::uint64_t size) {
        const std::vector<Slot> old = std::move(ring_);
        const std::uint64_t old_mask = mask_;
        lap_regrow laps{base_lap_, lap_shift_};
        init(static_cast<unsigned>(resources_), size);
        base_lap_ = laps.to(mask_, lap_shift_);
        for (std::uint64_t i = 0; i <= old_mask; ++i)
            for (std::size_t r = 0; r < resources_; ++r)
                if (const Slot t = old[i * resources_ + r]) {
                    Slot tag;
                    const std::uint64_t at = laps.place(t, i, tag);
                    ring_[at * resources_ + r] = tag;
                }
    }

private:
    static constexpr std::uint64_t max_tag = Slot(~Slot{0});

    // Moves base_lap_ so that `lap` gets tag kept_laps + 1 (returned).
    __attribute__((noinline)) std::uint64_t rebase(std::uint64_t lap) {
        if (lap < base_lap_) throw std::logic_error("slot_calendar: a booking further behind than its ring keeps");
        const std::uint64_t shift = lap - kept_laps - base_lap_;
        for (Slot& slot : ring_) slot = slot > shift ? static_cast<Slot>(slot - shift) : 0;
        base_lap_ += shift;
        return kept_laps + 1;
    }

    std::vector<Slot> ring_;
    std::uint64_t mask_ = 0, base_lap_ = 0;
    std::size_t resources_ = 0;
    unsigned lap_shift_ = 0;
};

// The ring of a slot_calendar of 2 to 16 resources (the L1's banks): per
// cycle, one lap tag (as slot_ring's slots hold) and a mask of the resources
// booked in that cycle and lap (bit r: resource r). A cycle whose tag is not
// the lap asked for has nothing booked in that lap. slot_ring keeps a tag per
// resource and cycle: 16 banks x 16 Ki cycles x 2 B = 512 KiB, where a DMA
// burst's 32 cycles spread over 1 KiB; here 4 B a cycle (64 KiB, a burst in
// 128 B), and what books several banks of a cycle (a DMA burst's two words, an
// SA tile's whole row) checks and books them with one compare and one store.
// One difference: a cycle holds bookings of one lap only. A booking of a
// newer lap drops the cycle's older one's, which slot_ring kept per bank. Both
// keep only what is at most a ring old: cores and DMA bursts book within
// about a quantum of each other (the ring starts at four, slot_calendar::init),
// and the ring grows before an SA job whose stream it would not hold
// (slot_calendar::grow_to).
template <class Slot>
class mask_ring {
public:
    static constexpr std::uint64_t kept_laps = std::uint64_t{1} << (8 * sizeof(Slot) - 1);
    struct cell {
        Slot tag;
        std::uint16_t mask;
    };
    static_assert(sizeof(Slot) != 2 || sizeof(cell) == 4, "the AVX-512 paths read a 16-bit tag's cell as 32 bits");

    // `capacity`: the longest ring grow() may make, reserved now (address
    // space only: a page is mapped when first used) so that growing keeps
    // the ring where it is.
    void init(unsigned resources, std::uint64_t size, std::uint64_t capacity = 0) {
        set_cycles(size);
        resources_ = resources;
        all_ = static_cast<std::uint16_t>((1u << resources) - 1);
        ring_.reserve(std::max(size, capacity));
        ring_.assign(size, cell{0, 0});
    }
    bool empty() const { return ring_.empty(); }

    // reserve's first look, inline: books `cycle` itself if it is free and
    // needs no rebase; false leaves everything to reserve().
    __attribute__((always_inline)) bool book_if_free(unsigned resource, std::uint64_t cycle) {
        const std::uint64_t tag = (cycle >> lap_shift_) - base_lap_ + 1;
        if (__builtin_expect(tag > max_tag, 0)) return false;
        const Slot t = static_cast<Slot>(tag);
        const std::uint16_t bit = static_cast<std::uint16_t>(1u << resource);
        cell& c = ring_[cycle & mask_];
        if (c.tag != t) {
            c.tag = t, c.mask = bit;
            return true;
        }
        if (c.mask & bit) return false;
        c.mask |= bit;
        return true;
    }

    std::uint64_t reserve(unsigned resource, std::uint64_t cycle) {
        const std::uint16_t bit = static_cast<std::uint16_t>(1u << resource);
        for (std::uint64_t lap = cycle >> lap_shift_;; ++lap) {
            const Slot t = tag_of(lap);
            std::uint64_t i = cycle & mask_;
#if NPU_HOST_AVX512
            // A DMA word or a core's access behind an SA tile's stream walks
            // tens of taken cycles: 16 at a time, to the first one free
            // for this resource (then booked below, as one by one).
            if constexpr (sizeof(Slot) == 2)
                if (use_avx512bw) i = first_free_avx512(ring_.data(), i, mask_ + 1, bit, t);
#endif
            for (; i <= mask_; ++i) {
                cell& c = ring_[i];
                if (c.tag != t) {
                    c.tag = t, c.mask = bit;
                    return (lap << lap_shift_) | i;
                }
                if (!(c.mask & bit)) {
                    c.mask |= bit;
                    return (lap << lap_shift_) | i;
                }
            }
            cycle = (lap + 1) << lap_shift_;
        }
    }

    // slot_ring::reserve_free_run's contract.
    std::uint64_t reserve_free_run(std::uint64_t n, std::uint64_t per_cycle, std::uint64_t cycle0,
                                   unsigned first_resource, unsigned resource_mask, std::uint64_t first_lane = 0) {
        Slot t;
        if (n == 0 || !run_tag(cycle0, cycle0 + div_lanes(first_lane + n - 1, per_cycle), t)) return 0;
        cell* c = ring_.data() + (cycle0 & mask_);
        if (per_cycle == 2 && first_lane == 0 && resource_mask == 15u && resources_ == 16)
            return reserve_pairs16(c, first_resource, n, t);
        unsigned resource = first_resource;
        std::uint64_t lane = first_lane, i = 0;
        while (i < n) {
            // One cycle's bookings, checked against its mask as it grows.
            std::uint16_t m = c->tag == t ? c->mask : 0;
            std::uint64_t k = i;
            for (; k < n && lane < per_cycle; ++k, ++lane) {
                const std::uint16_t bit = static_cast<std::uint16_t>(1u << resource);
                if (m & bit) break;
                m |= bit;
                resource = (resource + 1) & resource_mask;
            }
            if (k != i) c->tag = t, c->mask = m;
            if (k < n && lane < per_cycle) return k;
            i = k, lane = 0, ++c;
        }
        return n;
    }

    // slot_ring::reserve_stride_run's contract.
    std::uint64_t reserve_stride_run(std::uint64_t n, std::uint64_t cycle0, unsigned first_resource, unsigned step,
                                     unsigned resource_mask) {
        Slot t;
        if (n == 0 || !run_tag(cycle0, cycle0 + n - 1, t)) return 0;
        cell* c = ring_.data() + (cycle0 & mask_);
        unsigned resource = first_resource;
        for (std::uint64_t i = 0; i < n; ++i, ++c) {
            const std::uint16_t bit = static_cast<std::uint16_t>(1u << resource);
            if (c->tag != t) {
                c->tag = t, c->mask = bit;
            } else {
                if (c->mask & bit) return i;
                c->mask |= bit;
            }
            resource = (resource + step) & resource_mask;
        }
        return n;
    }

    // slot_ring::reserve_run_past_own's contract.
    std::uint64_t reserve_run_past_own(std::uint64_t n, std::uint64_t per_cycle, run_cursor& at,
                                       unsigned resource_mask, std::uint64_t* own_next) {
        Slot t;
        if (n == 0 || !run_tag(at.cycle, at.cycle + div_lanes(at.lane + n - 1, per_cycle), t)) return 0;
        cell* c = ring_.data() + (at.cycle & mask_);
        std::uint64_t resource = at.resource, lane = at.lane, cycle = at.cycle, i = 0;
        while (i < n) {
            std::uint16_t m = c->tag == t ? c->mask : 0;
            const std::uint16_t before = m;
            for (; i < n && lane < per_cycle; ++i, ++lane) {
                const std::uint16_t bit = static_cast<std::uint16_t>(1u << resource);
                if (!(m & bit)) {
                    m |= bit;
                    own_next[resource] = cycle + 1;
                } else if (own_next[resource] <= cycle) {
                    if (m != before) c->tag = t, c->mask = m;
                    at.cycle = cycle;
                    at.lane = lane;
                    at.resource = static_cast<unsigned>(resource);
                    return i;
                }
                resource = (resource + 1) & resource_mask;
            }
            if (m != before) c->tag = t, c->mask = m;
            if (lane == per_cycle) lane = 0, ++c, ++cycle;
        }
        at.cycle = cycle;
        at.lane = lane;
        at.resource = static_cast<unsigned>(resource);
        return n;
    }

    // slot_ring::reserve_block_if_free's contract.
    bool reserve_block_if_free(std::uint64_t cycle0, std::uint64_t n) {
        Slot t;
        if (n == 0 || !run_tag(cycle0, cycle0 + n - 1, t)) return false;
        cell* const first = ring_.data() + (cycle0 & mask_);
        for (std::uint64_t i = 0; i < n; ++i)
            if (first[i].tag == t && first[i].mask != 0) return false;
        for (std::uint64_t i = 0; i < n; ++i) first[i] = cell{t, all_};
        return true;
    }

    // slot_ring::reserve_masks_past_own_if_free's contract.
    bool reserve_masks_past_own_if_free(const std::uint64_t* cycles, std::uint16_t* masks, std::size_t n,
                                        std::uint64_t* own_next) {
        if (resources_ != 16 || n == 0) return false;
        Slot t;
        if (!run_tag(cycles[0], cycles[n - 1], t)) return false;
        std::uint64_t own[16];
        std::copy(own_next, own_next + 16, own);
        if (!plan_rows_past_own(cycles, masks, n, own, [&](std::uint64_t cycle) -> unsigned {
                const cell& c = ring_[cycle & mask_];
                return c.tag == t ? c.mask : 0u;
            }))
            return false;
        for (std::size_t i = 0; i < n; ++i) {
            cell& c = ring_[cycles[i] & mask_];
            if (c.tag != t) c.tag = t, c.mask = 0;
            c.mask |= masks[i];
        }
        std::copy(own, own + 16, own_next);
        return true;
    }

    // slot_ring::grow's contract.
    // In place, in the memory init reserved: a booking at ring cycle i
    // moves to i + k * (old size) for some k (its cycle modulo the new
    // size), so moving the old cells in ascending order never overwrites
    // one not moved yet. A new ring and a copy of the old one mapped the
    // new ring's pages during the simulation: 36 page faults in an mlp_int8
    // run (one growth), 19 in place.
    void grow(std::uint64_t size) {
        const std::uint64_t old_size = mask_ + 1;
        lap_regrow laps{base_lap_, lap_shift_};
        ring_.resize(size, cell{0, 0});
        set_cycles(size);
        base_lap_ = laps.to(mask_, lap_shift_);
        for (std::uint64_t i = 0; i < old_size; ++i)
            if (const cell c = ring_[i]; c.tag) {
                ring_[i] = cell{0, 0};
                Slot tag;
                const std::uint64_t at = laps.place(c.tag, i, tag);
                ring_[at] = cell{tag, c.mask};
            }
    }

private:
    static constexpr std::uint64_t max_tag = Slot(~Slot{0});

    // The ring's length in cycles (a power of two): its index mask and lap shift.
    void set_cycles(std::uint64_t size) {
        mask_ = size - 1;
        lap_shift_ = static_cast<unsigned>(__builtin_ctzll(size));
    }

    // reserve_free_run of two bookings per cycle from lane 0 on 16
    // resources (a DMA burst's L1 words, 8 B a cycle over 4-byte banks):
    // cycle k books resources r + 2k and r + 2k + 1 (mod 16), a pattern of
    // eight cycles. Cycles whose bookings all find their banks free are
    // booked 16 at a time with AVX-512 (cells are 4 bytes); the first cycle
    // with a taken bank, and the rest, one at a time.
    std::uint64_t reserve_pairs16(cell* c, unsigned r, std::uint64_t n, Slot t) {
        const std::uint64_t whole = n / 2;  // cycles with both bookings
        std::uint64_t k = 0;
#if NPU_HOST_AVX512
        if constexpr (sizeof(Slot) == 2)
            if (use_avx512bw && whole >= 4) k = reserve_pairs16_cells_avx512(c, r, whole, t);
#endif
        auto want = [r](std::uint64_t k) {
            const unsigned q = (r + 2 * static_cast<unsigned>(k)) & 15u;
            return static_cast<std::uint16_t>((1u << q) | (1u << ((q + 1) & 15u)));
        };
        for (; k < whole; ++k) {
            cell& x = c[k];
            const std::uint16_t m = x.tag == t ? x.mask : 0;
            const std::uint16_t w = want(k);
            if (m & w) {
                // The first booking of the cycle may still be free.
                const std::uint16_t first = static_cast<std::uint16_t>(1u << ((r + 2 * k) & 15u));
                if (m & first) return 2 * k;
                x.tag = t, x.mask = m | first;
                return 2 * k + 1;
            }
            x.tag = t, x.mask = m | w;
        }
        if (n & 1) {
            cell& x = c[whole];
            const std::uint16_t m = x.tag == t ? x.mask : 0;
            const std::uint16_t first = static_cast<std::uint16_t>(1u << ((r + 2 * whole) & 15u));
            if (m & first) return n - 1;
            x.tag = t, x.mask = m | first;
        }
        return n;
    }
#if NPU_HOST_AVX512
    // The first of cells [i, end) whose tag is not `t` or whose mask lacks
    // `bit` (free for that resource), whole steps of 16 only: at most 15
    // before `end` are left to the caller's loop, which also books it.
    __attribute__((target("avx512f,avx512bw"))) static std::uint64_t first_free_avx512(const cell* c, std::uint64_t i,
                                                                                      std::uint64_t end,
                                                                                      std::uint16_t bit, Slot t) {
        const __m512i tags = _mm512_set1_epi32(0xFFFF);
        const __m512i tv = _mm512_set1_epi32(static_cast<int>(t));
        const __m512i want = _mm512_set1_epi32(static_cast<int>(std::uint32_t{bit} << 16));
        for (; i + 16 <= end; i += 16) {
            const __m512i v = _mm512_loadu_si512(c + i);
            // Taken: this lap's tag and the resource's bit.
            const __mmask16 taken =
                _mm512_mask_test_epi32_mask(_mm512_cmpeq_epi32_mask(_mm512_and_si512(v, tags), tv), v, want);
            if (taken != 0xFFFF) return i + static_cast<unsigned>(__builtin_ctz(~static_cast<unsigned>(taken)));
        }
        return i;
    }

    // reserve_pairs16's cycles 16 at a time, the last fewer than 16 under a
    // mask (a 64-byte burst of fp32 rows is 8 cycles), while none of them
    // has a taken bank: how many cycles it booked (at most `cycles`; where
    // it stops, the caller's loop goes on cycle by cycle).
    __attribute__((target("avx512f,avx512bw"))) static std::uint64_t reserve_pairs16_cells_avx512(
        cell* c, unsigned r, std::uint64_t cycles, Slot t) {
        // The banks of cycle k of a run from bank r: a pattern of 8 cycles,
        // twice in a step; one per first bank, made once.
        struct patterns {
            alignas(64) std::uint32_t of[16][16];
            patterns() {
                for (unsigned r = 0; r < 16; ++r)
                    for (unsigned k = 0; k < 16; ++k) {
                        const unsigned q = (r + 2 * k) & 15u;
                        of[r][k] = ((1u << q) | (1u << ((q + 1) & 15u))) << 16;
                    }
            }
        };
        static const patterns p;
        const __m512i want = _mm512_load_si512(p.of[r & 15u]);
        const __m512i tags = _mm512_set1_epi32(0xFFFF);
        const __m512i tv = _mm512_set1_epi32(static_cast<int>(t));
        std::uint64_t k = 0;
        for (; k < cycles; k += 16) {
            const __mmask16 lanes = cycles - k >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (cycles - k)) - 1);
            const __m512i v = _mm512_maskz_loadu_epi32(lanes, c + k);
            // Masks of the cycles whose tag is this lap's; the others book afresh.
            const __mmask16 current = _mm512_mask_cmpeq_epi32_mask(lanes, _mm512_and_si512(v, tags), tv);
            const __m512i booked = _mm512_maskz_andnot_epi32(current, tags, v);
            if (_mm512_mask_test_epi32_mask(lanes, booked, want)) break;
            _mm512_mask_storeu_epi32(c + k, lanes, _mm512_or_si512(tv, _mm512_or_si512(booked, want)));
            if (lanes != 0xFFFF) return cycles;
        }
        return k;
    }
#endif

    Slot tag_of(std::uint64_t lap) {
        std::uint64_t tag = lap - base_lap_ + 1;
        if (__builtin_expect(tag > max_tag, 0)) tag = rebase(lap);
        return static_cast<Slot>(tag);
    }
    // The tag of a run from cycle `first` to `last`: false if it leaves
    // first's lap or would need a rebase (the caller books one by one).
    bool run_tag(std::uint64_t first, std::uint64_t last, Slot& t) const {
        const std::uint64_t lap = first >> lap_shift_;
        const std::uint64_t tag = lap - base_lap_ + 1;
        if (tag > max_tag || (last >> lap_shift_) != lap) return false;
        t = static_cast<Slot>(tag);
        return true;
    }
    __attribute__((noinline)) std::uint64_t rebase(std::uint64_t lap) {
        if (lap < base_lap_) throw std::logic_error("slot_calendar: a booking further behind than its ring keeps");
        const std::uint64_t shift = lap - kept_laps - base_lap_;
        for (cell& c : ring_) c.tag = c.tag > shift ? static_cast<Slot>(c.tag - shift) : 0;
        base_lap_ += shift;
        return kept_laps + 1;
    }

    std::vector<cell> ring_;
    std::uint64_t mask_ = 0, base_lap_ = 0;
    unsigned resources_ = 0;
    std::uint16_t all_ = 0;
    unsigned lap_shift_ = 0;
};

class slot_calendar {
public:
    // `resources` single-ported resources; a ring of at least `window` cycles
    // each (rounded up to a power of two). A second call keeps the first set-up
    // (every instance of a model family calls it with the SoC's values).
    void init(unsigned resources, std::uint64_t window) {
        if (!empty()) return;
        // At most 2^22 slots in all: a huge quantum then forgets bookings
        // older than the ring, under-counting conflicts only.
        std::uint64_t size = 1024;
        while (size < window && size * resources < max_slots) size <<= 1;
        // No initiator books more than a few windows (quanta) behind another;
        // 16-bit slots keep 2^15 laps of the ring, which covers that by far
        // unless the ring was capped far below the window (a quantum of
        // milliseconds): then 32-bit slots (2^31 laps).
        wide_ = (window >> 5) > size;
        // 2 to 16 resources (the L1's banks): a tag and a mask per cycle
        // (mask_ring), the same 2^15 laps.
        masked_ = !wide_ && resources >= 2 && resources <= 16;
        ring_cycles_ = initial_cycles_ = size;
        window_ = window;
        resources_ = resources;
        if (wide_)
            wide_ring_.init(resources, size);
        else if (masked_)
            mask_ring_.init(resources, size, max_ring_cycles(size, resources));
        else
            narrow_ring_.init(resources, size);
    }
    bool empty() const { return narrow_ring_.empty() && wide_ring_.empty() && mask_ring_.empty(); }
    // Cycles the ring holds: bookings this many cycles apart share a cell,
    // and the later one drops the earlier (docs/memory-map.md).
    std::uint64_t ring_cycles() const { return ring_cycles_; }
    // The ring's cycles as init made it, and the window init was asked
    // for (the L1's: four quanta).
    std::uint64_t initial_cycles() const { return initial_cycles_; }
    std::uint64_t window() const { return window_; }
    // The longest ring grow_to makes from one of `size` cycles.
    static std::uint64_t max_ring_cycles(std::uint64_t size, unsigned resources) {
        while (2 * size * resources <= max_slots) size <<= 1;
        return size;
    }
    // Lengthens the ring to at least `cycles` (a power of two, at most
    // max_slots slots in all), keeping every booking: for an initiator that
    // books further ahead than the ring init made holds (an SA job books its
    // whole stream at its start). Returns the ring's cycles after.
    std::uint64_t grow_to(std::uint64_t cycles) {
        // A wide ring is one init capped already.
        if (empty() || wide_ || cycles <= ring_cycles_) return ring_cycles_;
        const std::uint64_t cap = max_ring_cycles(ring_cycles_, resources_);
        std::uint64_t size = ring_cycles_;
        while (size < cycles && size < cap) size <<= 1;
        if (size == ring_cycles_) return ring_cycles_;
        if (masked_)
            mask_ring_.grow(size);
        else
            narrow_ring_.grow(size);
        ring_cycles_ = size;
        return size;
    }

    // Books the first free cycle of `resource` at or after `cycle`; returns it.
    std::uint64_t reserve(unsigned resource, std::uint64_t cycle) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve(resource, cycle)
               : masked_ ? mask_ring_.reserve(resource, cycle)
               : narrow_ring_.reserve(resource, cycle);
    }

    // reserve(), its usual outcome inline: a cycle free in the masked ring
    // (the L1's banks), as most of the cores' L1 accesses find it. The
    // out-of-line call (its dispatch over the three rings, its lap loop) was
    // about a tenth of a DS-CNN training run's host time.
    __attribute__((always_inline)) std::uint64_t reserve_inline(unsigned resource, std::uint64_t cycle) {
        if (__builtin_expect(masked_ && !wide_, 1) && mask_ring_.book_if_free(resource, cycle)) return cycle;
        return reserve(resource, cycle);
    }

    // slot_ring::reserve_first_free (n >= 1). The masked ring (2 to 16
    // resources) has none of its own: n reserves.
    std::uint64_t reserve_first_free(unsigned resource, std::uint64_t cycle, std::uint64_t n) {
        if (__builtin_expect(wide_, 0)) return wide_ring_.reserve_first_free(resource, cycle, n);
        if (!masked_) return narrow_ring_.reserve_first_free(resource, cycle, n);
        for (; n; --n) cycle = mask_ring_.reserve(resource, cycle) + 1;
        return cycle;
    }

    // slot_ring::reserve_free_run.
    std::uint64_t reserve_free_run(std::uint64_t n, std::uint64_t per_cycle, std::uint64_t cycle0,
                                   unsigned first_resource, unsigned resource_mask, std::uint64_t first_lane = 0) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve_free_run(n, per_cycle, cycle0, first_resource, resource_mask, first_lane)
               : masked_ ? mask_ring_.reserve_free_run(n, per_cycle, cycle0, first_resource, resource_mask, first_lane)
               : narrow_ring_.reserve_free_run(n, per_cycle, cycle0, first_resource, resource_mask, first_lane);
    }

    // slot_ring::reserve_stride_run.
    std::uint64_t reserve_stride_run(std::uint64_t n, std::uint64_t cycle0, unsigned first_resource, unsigned step,
                                     unsigned resource_mask) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve_stride_run(n, cycle0, first_resource, step, resource_mask)
               : masked_ ? mask_ring_.reserve_stride_run(n, cycle0, first_resource, step, resource_mask)
               : narrow_ring_.reserve_stride_run(n, cycle0, first_resource, step, resource_mask);
    }

    // A run like reserve_free_run's, from `at`, for an initiator that
    // streams through the resources in time order and may meet its own
    // bookings again (the SA's port: rows of a tile's stream share cycles
    // and banks). own_next[r] is one past the cycle of its latest booking of
    // resource r (0: none), kept up to date here. A booking whose slot is
    // taken at a cycle before own_next[r] is taken by the initiator itself:
    // passed over, neither booked twice nor waited for. Stops at the first
    // booking whose slot someone else holds. Moves `at` past the bookings it
    // booked or passed over and returns how many; like reserve_free_run it
    // does none (returns 0) if the run leaves its first cycle's lap or would
    // need a rebase.
    std::uint64_t reserve_run_past_own(std::uint64_t n, std::uint64_t per_cycle, run_cursor& at,
                                       unsigned resource_mask, std::uint64_t* own_next) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve_run_past_own(n, per_cycle, at, resource_mask, own_next)
               : masked_ ? mask_ring_.reserve_run_past_own(n, per_cycle, at, resource_mask, own_next)
               : narrow_ring_.reserve_run_past_own(n, per_cycle, at, resource_mask, own_next);
    }

    // slot_ring::reserve_masks_past_own_if_free.
    bool reserve_masks_past_own_if_free(const std::uint64_t* cycles, std::uint16_t* masks, std::size_t n,
                                        std::uint64_t* own_next) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve_masks_past_own_if_free(cycles, masks, n, own_next)
               : masked_ ? mask_ring_.reserve_masks_past_own_if_free(cycles, masks, n, own_next)
               : narrow_ring_.reserve_masks_past_own_if_free(cycles, masks, n, own_next);
    }

    // slot_ring::reserve_block_if_free.
    bool reserve_block_if_free(std::uint64_t cycle0, std::uint64_t n) {
        return __builtin_expect(wide_, 0) ? wide_ring_.reserve_block_if_free(cycle0, n)
               : masked_ ? mask_ring_.reserve_block_if_free(cycle0, n)
               : narrow_ring_.reserve_block_if_free(cycle0, n);
    }

private:
    // At most 2^22 slots in all (init, grow_to).
    static constexpr std::uint64_t max_slots = std::uint64_t{1} << 22;
    std::uint64_t ring_cycles_ = 0, initial_cycles_ = 0, window_ = 0;
    unsigned resources_ = 0;
    slot_ring<std::uint16_t> narrow_ring_;
    slot_ring<std::uint32_t> wide_ring_;
    mask_ring<std::uint16_t> mask_ring_;
    bool wide_ = false, masked_ = false;
};

// The shared L1's bank calendar of one SoC (sim_context::shared): banks are
// word-interleaved, bank = (offset / width) % banks.
struct l1_bank_calendar {
    slot_calendar banks;
    std::uint64_t base = 0, size = 0;  // the L1's bus window
    unsigned bank_mask = 0, shift = 0;
    // DMA transfers with a side in L1 in flight (counted from the push). A
    // DMA channel books its L1 bursts only a burst ahead of SystemC time,
    // so while one is in flight the cores run short batches (core.cpp) and
    // book at most that far ahead themselves: the two then contend for
    // bank-cycles in about time order instead of the cores winning every
    // cycle they booked a quantum ahead.
    unsigned dma_streams = 0;
    // Harts whose waits for a bank or the L2 path are dense now (core.h:
    // contention modes). While there is one, every hart runs the short
    // batches: the hart that runs first, and so waits least, takes turns as
    // finely as the harts it makes wait.
    unsigned dense_harts = 0;
    // From the platform config (l1.*; a ring of four quanta of the cluster clock).
    void init(const cfg::config& c) {
        if (!banks.empty()) return;
        base = c.address("l1.base");
        size = c.size("l1.size");
        const auto n_banks = static_cast<unsigned>(c.count("l1.banks"));
        bank_mask = n_banks - 1;
        shift = static_cast<unsigned>(__builtin_ctzll(c.size("l1.bank_width")));
        const std::uint64_t period_ps = 1000000000000ull / c.frequency_hz("soc.cluster_clock");
        banks.init(n_banks, 4 * (c.time_ps("soc.quantum") / (period_ps ? period_ps : 1) + 1));
    }
    unsigned bank_of(std::uint64_t offset) const { return static_cast<unsigned>(offset >> shift) & bank_mask; }
};

// The cluster's shared path to L2 of one SoC (sim_context::shared): it
// carries at most cluster.l2_outstanding core requests at once, each for its
// round trip of `hold` cycles (the L2 latency and the hop), i.e. one request
// per hold / outstanding cycles. So it is one calendar of issue slots that
// long (rounded to whole cycles): a request books the first free slot at or
// after its issue cycle. Same exactness and error bound as the L1 banks,
// and as cheap (one load, compare and store per request).
// A DMA burst between L2 and L1 takes the path's whole width (l2.bandwidth
// bytes per cycle) for its beats: it books every issue slot of those cycles
// (reserve_burst), so cores' requests and DMA bursts wait for each other.
// The DMA's L2 <-> L3 transfers do not use the cluster's path.
struct l2_path_calendar {
    slot_calendar slots;
    unsigned outstanding = 0;
    std::uint64_t base = 0, size = 0;  // the L2's bus window
    std::uint64_t width = 0;           // bytes per cycle (l2.bandwidth)
    std::uint64_t round_trip = 0;      // cycles: l2.latency + the interconnect's hop
    // A burst's divisions (reserve_burst), by values fixed here.
    divisor width_div, burst_slot;
    // reserve's: the last hold asked for and its slot (slot_cycles).
    std::uint64_t request_hold_ = UINT64_MAX;
    divisor request_slot_;
    void init(const cfg::config& c) {
        if (!slots.empty()) return;
        base = c.address("l2.base");
        size = c.size("l2.size");
        const std::uint64_t period_ps = 1000000000000ull / c.frequency_hz("soc.cluster_clock");
        set_up(static_cast<unsigned>(c.count("cluster.l2_outstanding")), c.size("l2.bandwidth"),
               c.cycles("l2.latency") + c.cycles("interconnect.hop_latency"),
               4 * (c.time_ps("soc.quantum") / (period_ps ? period_ps : 1) + 1));
    }
    // init's values given directly (tests): a ring of at least `window` cycles.
    void set_up(unsigned outstanding_requests, std::uint64_t bytes_per_cycle, std::uint64_t round_trip_cycles,
                std::uint64_t window) {
        outstanding = outstanding_requests;
        width = std::max<std::uint64_t>(1, bytes_per_cycle);
        round_trip = round_trip_cycles;
        width_div = divisor(width);
        burst_slot = divisor(slot_cycles(round_trip));
        slots.init(1, window);
    }
    // Cycles between two requests' issue slots when each is held `hold` cycles.
    std::uint64_t slot_cycles(std::uint64_t hold) const {
        return std::max<std::uint64_t>(1, (hold + outstanding / 2) / outstanding);
    }
    // Books a request issued at `cycle` whose round trip is `hold` cycles;
    // returns the cycle it goes out.
    std::uint64_t reserve(std::uint64_t cycle, std::uint64_t hold) {
        // The cores' requests hold the path for one or two latencies (a
        // window's): the slot of the last one asked is kept as a divisor.
        if (hold != request_hold_) request_hold_ = hold, request_slot_ = divisor(slot_cycles(hold));
        return std::max(cycle, slots.reserve(0, request_slot_.div(cycle)) * request_slot_.value());
    }
    // Books a burst of `bytes` issued at `cycle`: ceil(bytes / width) cycles
    // of beats, i.e. that many cycles / slot_cycles(round_trip) issue slots
    // (256 B on gap9: 32 cycles, 16 slots), each the first free one after the
    // previous. Returns the cycle after its last slot: when its last beat
    // has crossed the path.
    std::uint64_t reserve_burst(std::uint64_t cycle, std::uint64_t bytes) {
        const std::uint64_t slot = burst_slot.value();
        const std::uint64_t beats = width_div.div_up(bytes);
        const std::uint64_t n = std::max<std::uint64_t>(1, burst_slot.div_up(beats));
        // Each slot the first free one after the previous.
        const std::uint64_t next = slots.reserve_first_free(0, burst_slot.div(cycle), n);
        return std::max(cycle + beats, next * slot);
    }
};

}  // namespace npu::base
