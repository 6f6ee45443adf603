// CV32E40P instruction timing (OpenHW CV32E40P user manual, "Pipeline
// Details": the cycle counts per instruction type and the hazards).
//
// Base cycles per instruction come from the cost_table (core.cpi_* keys) and
// are stored in each decoded slot; this file holds the rules that depend on
// more than the instruction's class:
//  - load-use: a load's result is written in WB, one cycle after EX, so the
//    instruction right after a load that reads the loaded register waits one
//    cycle. Checked by the load itself against the next slot (no test on any
//    other instruction).
//  - MULH/MULHSU/MULHU take 5 cycles (core.cpi_mulh), MUL 1.
//  - DIV/DIVU/REM/REMU take 3..35 cycles: core.cpi_div (3) plus the number of
//    leading zero bits of the divisor (its magnitude for the signed forms),
//    32 for a zero divisor.
//  - CSR access: 4 cycles for the CSRs the manual lists (mstatus, mepc, mtvec,
//    mcause, the counters and their controls, the debug CSRs), 1 otherwise.
//  - FENCE.I is a jump to the next instruction: core.cpi_jump.
//  - cv.elw: 4 cycles.
//  - FDIV/FSQRT issue in one cycle; the FPU is then busy for core.cpi_fdiv
//    cycles (19), and the next FPU instruction (or an fsw, which reads an FP
//    register) waits until it is free: the manual's 1..19.
//  - a TCDM (L1) access is a single-cycle access inside the EX and WB stages:
//    of the L1 window's latency (l1.latency + the interconnect hop) the core
//    pays only what exceeds tcdm_pipelined_cycles.
#pragma once

#include "isa.h"

#include <array>
#include <cstdint>

namespace npu::cpu::timing {

// The L1 latency the pipeline hides (l1.latency 1 + one hop on gap9).
inline constexpr std::uint32_t tcdm_pipelined_cycles = 2;
// Manual constants without a key of their own.
inline constexpr std::uint8_t csr_slow_cycles = 4;
inline constexpr std::uint8_t elw_cycles = 4;

// Registers an instruction reads, by slot field (per op).
enum source_bits : std::uint8_t {
    x_rs1 = 1u << 0,
    x_rs2 = 1u << 1,
    x_rs3 = 1u << 2,
    x_rd = 1u << 3,  // cv stores: the offset register is in rd
    f_rs1 = 1u << 4,
    f_rs2 = 1u << 5,
    f_rs3 = 1u << 6,
};

// Ops not listed read integer rs1 and rs2 (the conservative default, also
// for ops added later); undecoded slots and sentinels read nothing.
constexpr std::array<std::uint8_t, op_count> make_sources() {
    std::array<std::uint8_t, op_count> s{};
    for (auto& v : s) v = x_rs1 | x_rs2;
    s[op_decode] = s[op_block_end] = 0;
    s[op_lui] = s[op_auipc] = s[op_jal] = s[op_jal_far] = 0;
    s[op_fence] = s[op_fence_i] = s[op_ecall] = s[op_ebreak] = s[op_mret] = s[op_wfi] = s[op_illegal] = 0;
    s[op_jalr] = x_rs1;
    for (op o : {op_lb, op_lh, op_lw, op_lbu, op_lhu, op_addi, op_slti, op_sltiu, op_xori, op_ori, op_andi, op_slli,
                 op_srli, op_srai, op_lr, op_flw, op_cv_beqimm, op_cv_bneimm, op_cv_bimm_far})
        s[o] = x_rs1;
    s[op_csr] = x_rs1;  // the immediate forms read none: counted as a read (rare)
    s[op_fsw] = x_rs1 | f_rs2;
    for (op o : {op_fadd, op_fsub, op_fmul, op_fdiv, op_fsgnj, op_fsgnjn, op_fsgnjx, op_fmin, op_fmax, op_feq,
                 op_flt, op_fle})
        s[o] = f_rs1 | f_rs2;
    for (op o : {op_fmadd, op_fmsub, op_fnmsub, op_fnmadd}) s[o] = f_rs1 | f_rs2 | f_rs3;
    for (op o : {op_fsqrt, op_fcvt_w_s, op_fcvt_wu_s, op_fmv_x_w, op_fclass}) s[o] = f_rs1;
    for (op o : {op_fcvt_s_w, op_fcvt_s_wu, op_fmv_w_x}) s[o] = x_rs1;
    s[op_cv_load] = x_rs1 | x_rs2;  // rs2: the register offset/increment forms (imm form: a spurious match is rare)
    s[op_cv_store] = x_rs1 | x_rs2 | x_rd;
    s[op_cv_alu] = s[op_cv_mac] = x_rs1 | x_rs2 | x_rs3;
    return s;
}
inline constexpr std::array<std::uint8_t, op_count> sources = make_sources();

// 1 if `next` reads integer register r (r = x_sink never matches), else 0.
inline std::uint32_t reads_x(const insn& next, unsigned r) {
    const unsigned m = sources[next.op];
    return (((m & x_rs1) != 0) & (next.rs1 == r)) | (((m & x_rs2) != 0) & (next.rs2 == r)) |
           (((m & x_rs3) != 0) & (next.rs3 == r)) | (((m & x_rd) != 0) & (next.rd == r));
}
// 1 if `next` reads floating-point register r, else 0.
inline std::uint32_t reads_f(const insn& next, unsigned r) {
    const unsigned m = sources[next.op];
    return (((m & f_rs1) != 0) & (next.rs1 == r)) | (((m & f_rs2) != 0) & (next.rs2 == r)) |
           (((m & f_rs3) != 0) & (next.rs3 == r));
}

// Cycles of DIV/REM beyond core.cpi_div: the divisor's leading zero bits
// (32 for 0). `b` is the magnitude for the signed forms.
inline std::uint32_t div_extra(std::uint32_t b) { return b ? static_cast<std::uint32_t>(__builtin_clz(b)) : 32u; }
inline std::uint32_t magnitude(std::uint32_t b) { return static_cast<std::int32_t>(b) < 0 ? 0u - b : b; }

// The CSRs whose access takes csr_slow_cycles.
inline bool slow_csr(std::uint32_t csr) {
    switch (csr) {
    case 0x300:  // mstatus
    case 0x305:  // mtvec
    case 0x320:  // mcountinhibit
    case 0x341:  // mepc
    case 0x342:  // mcause
    case 0x7b0:  // dcsr
    case 0x7b1:  // dpc
    case 0x7b2:  // dscratch0
    case 0x7b3: return true;  // dscratch1
    default:
        // mcycle, minstret, mhpmcounter3..31 (and their high halves), mhpmevent3..31
        return (csr >= 0xb00 && csr <= 0xb1f) || (csr >= 0xb80 && csr <= 0xb9f) || (csr >= 0x323 && csr <= 0x33f);
    }
}

// The slot's base cost where it is not simply its class's core.cpi_*
// (applied to every decoded slot).
inline void apply_costs(insn& i, const cost_table& c) {
    switch (i.op) {
    case op_mulh:
    case op_mulhsu:
    case op_mulhu: i.cost = c.mulh; break;
    case op_csr:
        if (slow_csr(static_cast<std::uint32_t>(i.imm) & 0xfff)) i.cost = csr_slow_cycles;
        break;
    case op_fence_i: i.cost = c.cpi[cc_jump]; break;
    case op_fdiv:
    case op_fsqrt: i.cost = c.cpi[cc_fpu]; break;  // the latency is the FPU's busy time
    default: break;
    }
}

}  // namespace npu::cpu::timing
