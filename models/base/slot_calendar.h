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
// active (nothing else books its cycles). The ring is laid out cycle-major
// (the resources of one cycle side by side) with 32-bit slots, so an
// initiator walking forward in time streams through it a cache line at a
// time, and the whole ring (16 banks x 16Ki cycles: 1 MiB) stays in a host
// core's L2: with one 64-bit slot per cycle, resource-major, every booking
// missed the cache (half of the ISS's time in a load-heavy program).
//
// A slot holds the ring lap of its booking (cycle / ring size), counted from
// base_lap_, plus one (0: never booked), which matches the same cycles as
// holding the cycle itself. Before a lap stops fitting in 32 bits the laps
// are rebased (rebase()): a booking 2^31 laps (at least 2^41 cycles) older
// than the newest is forgotten, as one older than the ring is, which no
// initiator can reach any more (each books at or after SystemC's current
// time, and none is that far ahead of it).
#pragma once

#include "config/config.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace npu::base {

class slot_calendar {
public:
    // `resources` single-ported resources; a ring of at least `window` cycles
    // each (rounded up to a power of two). A second call keeps the first set-up
    // (every instance of a model family calls it with the SoC's values).
    void init(unsigned resources, std::uint64_t window) {
        if (!ring_.empty()) return;
        // At most 2^22 slots (16 MiB) in all: a huge quantum then forgets
        // bookings older than the ring, under-counting conflicts only.
        std::uint64_t size = 1024;
        while (size < window && size * resources < (std::uint64_t{1} << 22)) size <<= 1;
        mask_ = size - 1;
        lap_shift_ = static_cast<unsigned>(__builtin_ctzll(size));
        resources_ = resources;
        ring_.assign(std::size_t(resources) * size, 0);
    }
    bool empty() const { return ring_.empty(); }

    // Books the first free cycle of `resource` at or after `cycle`; returns it.
    std::uint64_t reserve(unsigned resource, std::uint64_t cycle) {
        std::uint16_t* const row = ring_.data() + std::size_t(resource) * (mask_ + 1);
        for (;; ++cycle) {
            std::uint64_t tag = (cycle >> lap_shift_) - base_lap_ + 1;
            if (__builtin_expect(tag > max_tag, 0)) tag = rebase(cycle >> lap_shift_);
            std::uint16_t& slot = row[cycle & mask_];
            if (slot != tag) {
                slot = static_cast<std::uint16_t>(tag);
                return cycle;
            }
        }
    }

private:
    static constexpr std::uint64_t max_tag = 0xffffu;
    static constexpr std::uint64_t kept_laps = std::uint64_t{1} << 15;

    // Moves base_lap_ so that `lap` gets tag kept_laps + 1 (returned),
    // forgetting the bookings more than kept_laps laps before it.
    __attribute__((noinline)) std::uint64_t rebase(std::uint64_t lap) {
        if (lap < base_lap_) throw std::logic_error("slot_calendar: a booking more than 2^31 laps in the past");
        const std::uint64_t shift = lap - kept_laps - base_lap_;
        for (std::uint16_t& slot : ring_) slot = slot > shift ? static_cast<std::uint16_t>(slot - shift) : 0;
        base_lap_ += shift;
        return kept_laps + 1;
    }

    std::vector<std::uint16_t> ring_;
    std::uint64_t mask_ = 0, base_lap_ = 0;
    unsigned lap_shift_ = 0, resources_ = 0;
};

// The shared L1's bank calendar of one SoC (sim_context::shared): banks are
// word-interleaved, bank = (offset / width) % banks.
struct l1_bank_calendar {
    slot_calendar banks;
    std::uint64_t base = 0, size = 0;  // the L1's bus window
    unsigned bank_mask = 0, shift = 0;
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
struct l2_path_calendar {
    slot_calendar slots;
    unsigned outstanding = 0;
    std::uint64_t base = 0, size = 0;  // the L2's bus window
    void init(const cfg::config& c) {
        if (!slots.empty()) return;
        base = c.address("l2.base");
        size = c.size("l2.size");
        outstanding = static_cast<unsigned>(c.count("cluster.l2_outstanding"));
        const std::uint64_t period_ps = 1000000000000ull / c.frequency_hz("soc.cluster_clock");
        slots.init(1, 4 * (c.time_ps("soc.quantum") / (period_ps ? period_ps : 1) + 1));
    }
    // Books a request issued at `cycle` whose round trip is `hold` cycles;
    // returns the cycle it goes out.
    std::uint64_t reserve(std::uint64_t cycle, std::uint64_t hold) {
        const std::uint64_t slot = std::max<std::uint64_t>(1, (hold + outstanding / 2) / outstanding);
        return std::max(cycle, slots.reserve(0, cycle / slot) * slot);
    }
};

}  // namespace npu::base
