// npusim --itrace FILE: one line per executed instruction (docs/debugging.md):
//
//   <cycle> h<hart> <pc> <symbol+offset> <disassembly> [<reg> = <value>] [mem[<addr>] <- / -> <data>]
//
// `cycle` is the global cluster cycle the instruction starts at (simulated
// time plus the hart's local offset). Selected harts only (--itrace-harts),
// from a cycle or from the first time a selected hart reaches a symbol
// (--itrace-from). Off by default: without --itrace no hart runs the checked
// interpreter this hangs off.
#pragma once

#include "disasm.h"
#include "soc.h"

#include "cpu/core.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace npu::platform {

class itrace : public cpu::insn_observer {
public:
    // Parses "8,0-3" into a hart mask for `n_harts` harts; "" (all) on success,
    // else the problem.
    static std::string parse_harts(const std::string& spec, unsigned n_harts, std::vector<bool>& harts);

    // Writes to `out` (owned, closed by the destructor). `from_pc`: start when
    // a selected hart first reaches it (unless `from_cycle` is used: start at
    // that cycle).
    itrace(soc& s, std::FILE* out, std::vector<bool> harts, bool from_pc_set, std::uint32_t from_pc,
           std::uint64_t from_cycle);
    ~itrace() override;
    // Ends the trace (the harts' last instructions written) and closes the
    // file: "" or why writing it failed (a write error stops the trace
    // instead of the run: the simulation goes on, the report says so).
    std::string close();
    itrace(const itrace&) = delete;
    itrace& operator=(const itrace&) = delete;

    std::uint64_t lines() const { return lines_; }

    void before(cpu::core& c, std::uint32_t pc, const cpu::insn& i, std::uint64_t cycle) override;
    void after(cpu::core& c, bool trapped) override;

private:
    struct pending {
        bool valid = false;
        std::uint32_t pc = 0;
        cpu::insn i{};
        std::uint64_t cycle = 0;
        std::uint32_t addr = 0;   // memory operand
        std::uint32_t store = 0;  // store data
    };
    struct code_text {
        std::string sym, dis;
    };
    soc& soc_;
    std::FILE* out_;
    int write_errno_ = 0;  // the first failed write's errno; nothing is written after it
    std::vector<bool> harts_;
    bool waiting_pc_;
    std::uint32_t from_pc_;
    std::uint64_t from_cycle_;
    bool started_ = false;
    std::vector<pending> pending_;
    std::unordered_map<std::uint32_t, code_text> code_;
    disassembler dis_;
    std::uint64_t lines_ = 0;

    void emit(const cpu::core& c, const pending& p, bool trapped);
    const code_text& text(std::uint32_t pc);
};

}  // namespace npu::platform
