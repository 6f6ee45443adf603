// CORE-V (CV32E40Pv2) integer extensions the ISS implements, as clang-19
// knows them: xcvmem, xcvalu, xcvmac, xcvbi, xcvelw, xcvbitmanip, xcvsimd. The sub-operation
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

// xcvbitmanip (slot rm). The immediate forms carry imm = Is3 << 5 | Is2, the
// register forms take the same ten bits from rs2[9:0]: a field of Is3 + 1
// bits at bit Is2, cut at bit 31.
enum cv_bit_fn : std::uint8_t {
    cv_extract,
    cv_extractu,
    cv_insert,
    cv_bclr,
    cv_bset,
    cv_bitrev,  // imm = radix code (Is3, 0..3) << 5 | Is2
    cv_extractr,
    cv_extractur,
    cv_insertr,
    cv_bclrr,
    cv_bsetr,
    cv_ror,
    cv_ff1,
    cv_fl1,
    cv_clb,
    cv_cnt,
};

// xcvsimd (slot rm = cv_simd_fn << 1 | 1 for 8-bit lanes (.b), 0 for 16-bit
// lanes (.h)). Lane i of a word: bits [16i+15:16i] (.h) or [8i+7:8i] (.b).
enum cv_simd_fn : std::uint8_t {
    cv_v_add,
    cv_v_sub,
    cv_v_avg,
    cv_v_avgu,
    cv_v_min,
    cv_v_minu,
    cv_v_max,
    cv_v_maxu,
    cv_v_srl,
    cv_v_sra,
    cv_v_sll,
    cv_v_or,
    cv_v_xor,
    cv_v_and,
    cv_v_abs,
    cv_v_dotup,
    cv_v_dotusp,
    cv_v_dotsp,
    cv_v_sdotup,  // the sdot* forms add rD
    cv_v_sdotusp,
    cv_v_sdotsp,
    cv_v_cmpeq,
    cv_v_cmpne,
    cv_v_cmpgt,
    cv_v_cmpge,
    cv_v_cmplt,
    cv_v_cmple,
    cv_v_cmpgtu,
    cv_v_cmpgeu,
    cv_v_cmpltu,
    cv_v_cmpleu,
    cv_v_extract,  // lane imm6 of rs1
    cv_v_extractu,
    cv_v_insert,  // rs1's lane 0 into lane imm6 of rD
    cv_v_shuffle,   // .sci.b: shuffleI<k>, k in cv_simd_extra
    cv_v_shuffle2,  // lanes from rs1 or rD
    cv_v_pack,      // rs1[15:0], rs2[15:0]
    cv_v_pack_h,    // rs1[31:16], rs2[31:16]
    cv_v_packhi,    // rs1[7:0], rs2[7:0] into rD[31:16]
    cv_v_packlo,    // ... into rD[15:0]
    // complex numbers, 16-bit lanes {re, im}; cv_simd_extra = the division shift
    cv_v_cplxmul_r,
    cv_v_cplxmul_i,
    cv_v_cplxconj,
    cv_v_subrotmj,
    cv_v_add_div,
    cv_v_sub_div,
};

// The slot immediate of an xcvsimd instruction: imm6 in bits 5:0, how the
// second operand is formed in bits 9:8, and in bits 13:12 the k of
// cv.shuffleI<k>.sci.b or the right shift of the complex-number forms
// (.div2/.div4/.div8).
enum cv_simd_mode : std::uint32_t {
    cv_vv = 0,   // lane by lane with rs2
    cv_sc = 1,   // rs2's lane 0 in every lane
    cv_sci = 2,  // imm6 in every lane (sign- or zero-extended per operation)
};
constexpr std::uint32_t cv_simd_imm(std::uint32_t imm6, cv_simd_mode mode, std::uint32_t extra = 0) {
    return imm6 | mode << 8 | extra << 12;
}

// rD of an xcvalu instruction: a = rs1, b = rs2, d = rD before, imm = Is2/Is3.
std::uint32_t cv_alu_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);
// rD of an xcvmac instruction.
std::uint32_t cv_mac_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);
// rD of an xcvbitmanip instruction.
std::uint32_t cv_bit_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);
// rD of an xcvsimd instruction: fn = the slot's rm, imm = cv_simd_imm(...).
std::uint32_t cv_simd_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm);

}  // namespace npu::cpu
