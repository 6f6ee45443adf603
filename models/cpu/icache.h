// The cluster's shared instruction cache (PULP hier-icache / GAP9 cluster
// icache): one cache for all the harts of a cluster, caching code fetched
// from L2; code elsewhere (L1) is fetched uncached at no cost.
//
// Set-associative, `line_bytes` lines, round-robin replacement per set (the
// RTL's replacement is not modelled; round-robin keeps runs deterministic and
// makes a hit a pure lookup that changes no state). A miss costs
// `miss_cycles` (docs/cores.md, "Instruction fetch"). Concurrent misses of
// different harts are not serialised on the refill port: each pays its own
// miss cost.
//
// The interpreter looks a line up only when the PC enters a new line, not per
// instruction (interp.h, NPU_FETCH): a straight-line run of instructions is
// charged, line by line, when it ends (a taken branch or jump, a CSR access,
// or the end of the batch). SystemC-free, so the ISS unit tests use it as is.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace npu::cpu {

class icache {
public:
    struct params {
        std::uint32_t size = 0;        // bytes, ways * line_bytes * a power of two
        std::uint32_t line_bytes = 0;  // power of two, >= 4
        std::uint32_t ways = 0;
        std::uint32_t miss_cycles = 0;
        std::uint32_t cached_base = 0;  // the cached window (L2)
        std::uint64_t cached_size = 0;
    };

    bool configured() const { return !tags_.empty(); }

    void configure(const params& p) {
        if (p.line_bytes < 4 || (p.line_bytes & (p.line_bytes - 1)) || p.ways == 0 ||
            p.size % (p.ways * p.line_bytes) != 0)
            throw std::invalid_argument("icache: size must be ways x line_bytes x a power of two");
        const std::uint32_t sets = p.size / (p.ways * p.line_bytes);
        if (sets == 0 || (sets & (sets - 1))) throw std::invalid_argument("icache: the set count must be a power of two");
        p_ = p;
        line_shift_ = static_cast<unsigned>(__builtin_ctz(p.line_bytes));
        set_mask_ = sets - 1;
        tags_.assign(std::size_t(sets) * p.ways, invalid);
        next_.assign(sets, 0);
    }

    unsigned line_shift() const { return line_shift_; }
    std::uint32_t miss_cycles() const { return p_.miss_cycles; }
    bool cached(std::uint32_t addr) const { return addr - p_.cached_base < p_.cached_size; }

    // Looks up line number `line` (address >> line_shift()); on a miss it is
    // filled, replacing the set's next way in turn. True on a hit.
    bool access(std::uint32_t line) {
        std::uint32_t* set = &tags_[std::size_t(line & set_mask_) * p_.ways];
        for (std::uint32_t w = 0; w < p_.ways; ++w)
            if (set[w] == line) return true;
        std::uint32_t& victim = next_[line & set_mask_];
        set[victim] = line;
        victim = victim + 1 == p_.ways ? 0 : victim + 1;
        return false;
    }

    // Empties the cache (the cluster's icache flush; tests).
    void flush() {
        for (auto& t : tags_) t = invalid;
    }

private:
    // Line numbers are address >> line_shift (>= 2), so no line is all ones.
    static constexpr std::uint32_t invalid = ~0u;
    params p_;
    unsigned line_shift_ = 0;
    std::uint32_t set_mask_ = 0;
    std::vector<std::uint32_t> tags_;
    std::vector<std::uint32_t> next_;
};

// Per-hart fetch state and statistics (hart_state::fetch).
struct fetch_state {
    icache* cache = nullptr;  // null: instruction fetch is not charged
    unsigned shift = 0;       // cache->line_shift()
    std::uint32_t line = ~0u;  // the line the hart fetched from last (~0u: none)
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::uint64_t stall_cycles = 0;

    void attach(icache& c) {
        cache = &c;
        shift = c.line_shift();
    }
    // The bytes [from, last] lie in the line the hart is in: nothing to look
    // up (a loop inside one line). The interpreter's inline test.
    bool in_line(std::uint32_t from, std::uint32_t last) const {
        return ((from >> shift) == line) & ((last >> shift) == line);
    }
    // Charges the fetch of the bytes [from, last] executed in order: one
    // lookup per line entered. Returns the cycles the misses cost.
    __attribute__((noinline)) std::uint32_t run(std::uint32_t from, std::uint32_t last) {
        const unsigned s = shift;
        std::uint32_t cost = 0;
        for (std::uint32_t l = from >> s, e = last >> s; l <= e; ++l) {
            if (l == line) continue;
            line = l;
            if (!cache->cached(l << s)) continue;
            if (cache->access(l)) {
                ++hits;
            } else {
                ++misses;
                cost += cache->miss_cycles();
            }
        }
        stall_cycles += cost;
        return cost;
    }
};

}  // namespace npu::cpu
