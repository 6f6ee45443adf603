// Decoded-instruction blocks of one hart.
//
// A block covers the part of a DMI code window that falls in one 1 MiB
// aligned chunk; its slot array is calloc'ed, so untouched code costs no
// host memory and every slot starts as op_decode (0). There is one slot per
// halfword (the C extension's 2-byte alignment): a 32-bit instruction uses
// the slot of its first halfword and the next one stays undecoded unless a
// jump lands there. Two extra slots past the end hold op_block_end: a 32-bit
// instruction in the last halfword steps over the first. Blocks are only dropped by flush():
// the interpreter calls it on FENCE.I, which is what RISC-V (Zifencei)
// requires before modified code is guaranteed to execute; stores into
// already-decoded code are NOT snooped (that would cost a check per store).
//
// The harts of a SoC that decode alike (the same core.* timing and ISA
// extensions: all of them with one config) share one cache (core.cpp): the
// workers run the same kernels, and each decoded them, and faulted in the
// host pages of its own slot arrays, for itself. A decoded slot depends on
// nothing but the code bytes, their address and that config. A FENCE.I on
// any hart then drops the blocks for all of them, which Zifencei allows (a
// hart that has not executed FENCE.I may see the new code or the old). A
// hart suspended inside run() (a register access that waits) still points
// into the blocks it was executing: dropped blocks are freed only once no
// hart is inside run() (enter / leave).
#pragma once

#include "isa.h"

#include "host/pages.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace npu::cpu {

class decode_cache {
public:
    static constexpr std::uint32_t chunk = 1u << 20;

    struct block {
        std::uint32_t start = 0;
        std::uint32_t len = 0;  // bytes, multiple of 2
        std::uint64_t avail = 0;  // bytes of the window from `start`: a 32-bit
                                  // instruction at the block's end may read past len
        const unsigned char* host = nullptr;  // host pointer of `start`
        insn* slots = nullptr;
        ~block() { std::free(slots); }
        bool contains(std::uint32_t pc) const { return pc - start < len; }
    };

    // The block holding pc, or null if none has been created yet.
    block* find(std::uint32_t pc) {
        if (last_ && last_->contains(pc)) return last_;
        for (auto& b : blocks_)
            if (b->contains(pc)) return last_ = b.get();
        return nullptr;
    }

    // Creates the block for pc inside the code window [win_start, win_start + win_len)
    // whose first byte is at host pointer `win_host`.
    block* create(std::uint32_t pc, std::uint64_t win_start, std::uint64_t win_len, const unsigned char* win_host) {
        const std::uint64_t c0 = pc & ~std::uint64_t(chunk - 1);
        const std::uint64_t s = win_start > c0 ? win_start : c0;
        const std::uint64_t e = (win_start + win_len < c0 + chunk) ? win_start + win_len : c0 + chunk;
        auto b = std::make_unique<block>();
        b->start = static_cast<std::uint32_t>(s);
        b->len = static_cast<std::uint32_t>((e - s) & ~std::uint64_t(1));
        b->avail = win_start + win_len - s;
        b->host = win_host + (s - win_start);
        const std::size_t n = b->len / 2 + 2;
        b->slots = static_cast<insn*>(std::calloc(n, sizeof(insn)));
        if (!b->slots) throw std::bad_alloc();
        populate_code(*b);
        b->slots[n - 2].op = op_block_end;
        b->slots[n - 1].op = op_block_end;
        blocks_.push_back(std::move(b));
        return last_ = blocks_.back().get();
    }

    void flush() {
        if (inside_)
            for (auto& b : blocks_) retired_.push_back(std::move(b));
        blocks_.clear();
        last_ = nullptr;
    }

    // Around every run() of a hart that uses this cache: blocks flushed
    // meanwhile are freed when the last hart inside has left.
    void enter() { ++inside_; }
    void leave() {
        if (--inside_ == 0) retired_.clear();
    }

    // The firmware's executable segments (sim_context::code), or null.
    void set_code(const std::vector<std::pair<std::uint64_t, std::uint64_t>>* code) { code_ = code; }

private:
    // Maps the host pages of b's slots that cover the firmware's code now,
    // in one call per segment: each was otherwise two page faults in the
    // middle of the run, the first execution of an instruction in it reading
    // the calloc'ed zeros (the kernel's zero page) and its decode writing
    // the slot (a copy of it). Best effort, no effect on the simulation.
    void populate_code(const block& b) const {
        if (!code_) return;
        for (const auto& [first, end] : *code_) {
            const std::uint64_t lo = std::max<std::uint64_t>(first, b.start);
            const std::uint64_t hi = std::min<std::uint64_t>(end, std::uint64_t{b.start} + b.len);
            if (lo >= hi) continue;
            const insn* from = b.slots + (lo - b.start) / 2;
            host::populate_pages(from, static_cast<std::size_t>(b.slots + (hi - b.start + 1) / 2 - from) * sizeof(insn));
        }
    }

    const std::vector<std::pair<std::uint64_t, std::uint64_t>>* code_ = nullptr;
    std::vector<std::unique_ptr<block>> blocks_;
    std::vector<std::unique_ptr<block>> retired_;  // flushed while a hart was inside run()
    block* last_ = nullptr;
    unsigned inside_ = 0;
};

}  // namespace npu::cpu
