// CORE-V (CV32E40Pv2) integer extensions the ISS implements, as clang-19
// knows them: xcvmem, xcvalu, xcvmac, xcvbi, xcvelw. The sub-operation
// codes live in a slot's `rm` byte (one interpreter op per group); the
// arithmetic follows the CV32E40P user manual's "CORE-V ISA extensions"
// tables (docs/source/instruction_set_extensions.rst of openhwgroup/cv32e40p),
// 32-bit wrap-around everywhere, shifts after the (wrapping) sum.
#pragma once

#include <cstdint>

namespace npu::cpu {

// xcvmem addressing (slot rs3).
enum cv_mem_mode : std::uint8_t {
    cv_post_imm,  // access at rs1, then rs1 += imm
    cv_post_reg,  // access at rs1, then rs1 += rs2 (loads) / rs3 (stores)
    cv_reg_reg,   // access at rs1 + rs2 (loads) / rs1 + rs3 (stores)
};

// xcvmem load kinds (slot rm): the funct3 of the matching RV32I load.
enum cv_mem_kind : std::uint8_t { cv_lb = 0, cv_lh = 1, cv_lw = 2, cv_lbu = 4, cv_lhu = 5 };

enum cv_alu_fn : std::uint8_t {
    cv_abs,
    cv_slet,
    cv_sletu,
    cv_min,
    cv_minu,
    cv_max,
    cv_maxu,
    cv_exths,
    cv_exthz,
    cv_extbs,
    cv_extbz,
    cv_clip,    // imm = Is2
    cv_clipu,   // imm = Is2
    cv_clipr,
    cv_clipur,
    // (rs1 +/- rs2 [+ 2^(Is3-1)]) >>[>] Is3, imm = Is3; bit 0: unsigned
    // (logical shift), bit 1: rounding, bit 2: subtract
    cv_addn,
    cv_addun,
    cv_addrn,
    cv_addurn,
    cv_subn,
    cv_subun,
    cv_subrn,
    cv_suburn,
    // the same on (rD +/- rs1), shift amount rs2[4:0]
    cv_addnr,
    cv_addunr,
    cv_addrnr,
    cv_addurnr,
    cv_subnr,
    cv_subunr,
    cv_subrnr,
    cv_suburnr,
};

enum cv_mac_fn : std::uint8_t {
    cv_mac,
    cv_msu,
    // 16 x 16 multiply [+ rD] [+ 2^(Is3-1)] >>[>] Is3, imm = Is3;
    // bit 0: high halves, bit 1: rounding, bit 2: unsigned, bit 3: accumulate
    cv_mulsn,
    cv_mulhhsn,
    cv_mulsrn,
    cv_mulhhsrn,
    cv_mulun,
    cv_mulhhun,
    cv_mulurn,
    cv_mulhhurn,
    cv_macsn,
    cv_machhsn,
    cv_macsrn,
    cv_machhsrn,
    cv_macun,
    cv_machhun,
    cv_macurn,
    cv_machhurn,
};

// rD of an xcvalu instruction: a = rs1, b = rs2, d = rD before, imm = Is2/Is3.
std::uint32_t cv_alu_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);
// rD of an xcvmac instruction.
std::uint32_t cv_mac_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);

}  // namespace npu::cpu
