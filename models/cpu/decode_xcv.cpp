// Decoder of the CORE-V extensions in custom-0 (0x0b), custom-1 (0x2b),
// custom-2 (0x5b) and custom-3 (0x7b), with the encodings of LLVM 19
// (llvm-mc -mattr=+xcv..., the CV32E40Pv2 ones). Each instruction is decoded
// only when its extension is in the hart's isa_ext bits; anything else is
// illegal. Where the manual marks bits as unused and zero and the CV32E40Pv2
// RTL decoder (cv32e40p_decoder.sv) rejects them, so does this decoder, while
// LLVM's disassembler accepts them (tests/cpu/xcv_llvm_test.cpp counts them).
#include "cv_ops.h"
#include "isa.h"
#include "timing.h"

namespace npu::cpu {

namespace {

struct slot {
    insn i{};
    const cost_table& costs;
    slot(std::uint32_t raw, const cost_table& c) : costs(c) {
        i.len = 2;
        i.rd = (raw >> 7) & 31;
        i.rs1 = (raw >> 15) & 31;
        i.rs2 = (raw >> 20) & 31;
        i.aux = raw;
    }
    bool set(op o, cost_class c, std::uint8_t sub, insn& out) {
        i.op = o;
        i.cost = costs.cpi[c];
        i.cls = c;
        i.rm = sub;
        out = i;
        return true;
    }
    // Writes rd: x0 goes to the sink; rs3 keeps rd as a source (x0 reads 0).
    bool xset(op o, cost_class c, std::uint8_t sub, insn& out) {
        i.rs3 = i.rd;
        if (i.rd == 0) i.rd = x_sink;
        return set(o, c, sub, out);
    }
};

// xcvsimd (custom-3): funct5 [31:27], F [26], Imm6[0] / bit 25, rs2 or
// Imm6[5:1] [24:20], funct3 [14:12] = {mode, .b} with mode 0 (vector), 2
// (.sc) and 3 (.sci) for the lane-wise groups.
bool decode_simd(std::uint32_t raw, slot& s, insn& out) {
    const std::uint32_t f5 = raw >> 27, F = (raw >> 26) & 1, b25 = (raw >> 25) & 1, f3 = (raw >> 12) & 7;
    const std::uint32_t imm6 = ((raw >> 20) & 31) << 1 | b25;
    const std::uint32_t bytes = f3 & 1, mode = f3 >> 1;
    auto set = [&](cv_simd_fn fn, cost_class c, std::uint32_t imm) {
        s.i.imm = static_cast<std::int32_t>(imm);
        return s.xset(op_cv_simd, c, static_cast<std::uint8_t>(fn << 1 | bytes), out);
    };
    // The lane-wise groups: vector, .sc and .sci forms of .h and .b; bit 25 is
    // 0 outside .sci.
    auto lanewise = [&](cv_simd_fn fn, cost_class c, std::uint32_t imm_limit) {
        if (mode == 1 || (mode != 3 && b25)) return false;
        if (mode == 3 && imm6 >= imm_limit) return false;
        return set(fn, c, cv_simd_imm(imm6, mode == 3 ? cv_sci : mode == 2 ? cv_sc : cv_vv));
    };
    if (F) {
        if (f5 <= 9) return lanewise(static_cast<cv_simd_fn>(cv_v_cmpeq + f5), cc_alu, 64);
        // Complex numbers (.h only): funct3 = {division shift, 0}.
        const std::uint32_t shift = f3 >> 1;
        if (f3 & 1) return false;
        switch (f5) {
        case 10: return set(b25 ? cv_v_cplxmul_i : cv_v_cplxmul_r, cc_mul, cv_simd_imm(0, cv_vv, shift));
        case 11:
            if (f3 != 0 || ((raw >> 20) & 63) != 0) return false;
            return set(cv_v_cplxconj, cc_alu, cv_simd_imm(0, cv_vv));
        case 12:
            if (b25) return false;
            return set(cv_v_subrotmj, cc_alu, cv_simd_imm(0, cv_vv, shift));
        case 13:
        case 14:
            if (b25 || shift == 0) return false;
            return set(f5 == 13 ? cv_v_add_div : cv_v_sub_div, cc_alu, cv_simd_imm(0, cv_vv, shift));
        default: return false;
        }
    }
    static const std::int8_t alu_fn[22] = {cv_v_add,   cv_v_sub,    cv_v_avg,     cv_v_avgu,  cv_v_min,   cv_v_minu,
                                           cv_v_max,   cv_v_maxu,   cv_v_srl,     cv_v_sra,   cv_v_sll,   cv_v_or,
                                           cv_v_xor,   cv_v_and,    -1,           -1,         cv_v_dotup, cv_v_dotusp,
                                           cv_v_dotsp, cv_v_sdotup, cv_v_sdotusp, cv_v_sdotsp};
    if (f5 < 22 && alu_fn[f5] >= 0) {
        const bool shift = f5 >= 8 && f5 <= 10;  // .sci shift amounts are limited to the lane width
        return lanewise(static_cast<cv_simd_fn>(alu_fn[f5]), f5 >= 16 ? cc_mul : cc_alu, shift ? (bytes ? 8 : 16) : 64);
    }
    switch (f5) {
    case 14:  // cv.abs.h/.b rD, rs1
        if (mode != 0 || ((raw >> 20) & 63) != 0) return false;
        return set(cv_v_abs, cc_alu, cv_simd_imm(0, cv_vv));
    case 23: {  // cv.extract/extractu/insert{.h,.b} rD, rs1, Imm6 (a lane number)
        if (f3 >= 6 || imm6 >= (bytes ? 4u : 2u)) return false;
        static const cv_simd_fn fn[3] = {cv_v_extract, cv_v_extractu, cv_v_insert};
        return set(fn[f3 >> 1], cc_alu, cv_simd_imm(imm6, cv_sci));
    }
    case 24:  // cv.shuffle.h/.b, cv.shuffle.sci.h, cv.shuffleI0.sci.b
    case 25:  // cv.shuffleI1.sci.b ...
    case 26:
    case 27:
        if (f5 != 24 && f3 != 7) return false;
        if (f3 == 0 || f3 == 1) return b25 ? false : set(cv_v_shuffle, cc_alu, cv_simd_imm(0, cv_vv));
        if (f3 == 6 && imm6 < 4) return set(cv_v_shuffle, cc_alu, cv_simd_imm(imm6, cv_sci));
        if (f3 == 7) return set(cv_v_shuffle, cc_alu, cv_simd_imm(imm6, cv_sci, f5 - 24));
        return false;
    case 28:  // cv.shuffle2.h/.b
        if (mode != 0 || b25) return false;
        return set(cv_v_shuffle2, cc_alu, cv_simd_imm(0, cv_vv));
    case 30:  // cv.pack, cv.pack.h
        if (f3 != 0) return false;
        return set(b25 ? cv_v_pack_h : cv_v_pack, cc_alu, cv_simd_imm(0, cv_vv));
    case 31:  // cv.packlo.b, cv.packhi.b
        if (f3 != 1) return false;
        return set(b25 ? cv_v_packhi : cv_v_packlo, cc_alu, cv_simd_imm(0, cv_vv));
    default: return false;
    }
}

// xcvbitmanip with immediates (custom-2, funct3 0/1): f2 [31:30], Is3
// [29:25], Is2 [24:20].
bool decode_bitmanip_imm(std::uint32_t raw, slot& s, insn& out) {
    const std::uint32_t f3 = (raw >> 12) & 7, f2 = raw >> 30, is3 = (raw >> 25) & 31, is2 = (raw >> 20) & 31;
    static const std::int8_t fn[2][4] = {{cv_extract, cv_extractu, cv_insert, -1}, {cv_bclr, cv_bset, -1, cv_bitrev}};
    const std::int8_t f = fn[f3][f2];
    if (f < 0 || (f == cv_bitrev && is3 > 3)) return false;  // bitrev: Is3 is two bits, 29:27 zero
    s.i.imm = static_cast<std::int32_t>(is3 << 5 | is2);
    return s.xset(op_cv_bitmanip, cc_alu, static_cast<std::uint8_t>(f), out);
}

// xcvbitmanip with registers (custom-1, funct3 3, funct7 0x18..0x27).
bool decode_bitmanip_reg(std::uint32_t f7, slot& s, insn& out) {
    static const std::int8_t fn[16] = {cv_extractr, cv_extractur, cv_insertr, -1,     cv_bclrr, cv_bsetr, -1, -1,
                                       cv_ror,      cv_ff1,       cv_fl1,     cv_clb, cv_cnt,   -1,       -1, -1};
    const std::int8_t f = fn[f7 - 0x18];
    if (f < 0 || (f >= cv_ff1 && s.i.rs2 != 0)) return false;  // ff1/fl1/clb/cnt: rs2 = 0
    return s.xset(op_cv_bitmanip, cc_alu, static_cast<std::uint8_t>(f), out);
}

}  // namespace

bool decode_xcv(std::uint32_t raw, std::uint32_t pc, std::uint32_t block_start, std::uint32_t block_len,
                const cost_table& costs, std::uint32_t ext, std::uint32_t ialign_mask, insn& out) {
    slot s(raw, costs);
    const std::uint32_t f3 = (raw >> 12) & 7, f7 = raw >> 25, f2 = raw >> 30, is3 = (raw >> 25) & 31;
    const std::int32_t imm_i = static_cast<std::int32_t>(raw) >> 20;
    const std::int32_t imm_s = (static_cast<std::int32_t>(raw) >> 25) * 32 | static_cast<std::int32_t>((raw >> 7) & 31);
    switch (raw & 0x7f) {
    case 0x0b:  // custom-0
        switch (f3) {
        case 3:  // cv.elw rd, imm(rs1): a load word that may sleep on the event unit (its blocking registers)
            if (!(ext & ext_xcvelw)) return false;
            s.i.imm = imm_i;
            s.i.aux = pc;
            s.i.rs3 = 0;
            if (s.i.rd == 0) s.i.rd = x_sink;
            s.set(op_lw, cc_load, 0, out);
            out.cost = timing::elw_cycles;
            return true;
        case 6:
        case 7: {  // cv.beqimm / cv.bneimm rs1, imm5, offset
            if (!(ext & ext_xcvbi)) return false;
            const std::uint32_t v =
                ((raw >> 31) << 12) | (((raw >> 25) & 0x3f) << 5) | (((raw >> 8) & 0xf) << 1) | (((raw >> 7) & 1) << 11);
            const std::uint32_t target = pc + static_cast<std::uint32_t>(static_cast<std::int32_t>(v << 19) >> 19);
            s.i.rd = 0;
            if ((target & ialign_mask) == 0 && target - block_start < block_len) {
                s.i.imm = static_cast<std::int32_t>(target - pc) / 2;
                return s.set(f3 == 6 ? op_cv_beqimm : op_cv_bneimm, cc_branch, 0, out);
            }
            s.i.imm = static_cast<std::int32_t>(target);
            s.i.rs3 = static_cast<std::uint8_t>(f3 - 6);
            return s.set(op_cv_bimm_far, cc_branch, 0, out);
        }
        default:  // post-increment loads with an immediate: funct3 of lb/lh/lw/lbu/lhu
            if (!(ext & ext_xcvmem)) return false;
            s.i.imm = imm_i;
            s.i.aux = pc;
            s.i.rs3 = cv_post_imm;
            if (s.i.rd == 0) s.i.rd = x_sink;
            return s.set(op_cv_load, cc_load, static_cast<std::uint8_t>(f3), out);
        }
    case 0x2b:  // custom-1
        if (f3 < 3) {  // post-increment stores with an immediate: cv.sb/sh/sw rs2, (rs1), imm
            if (!(ext & ext_xcvmem)) return false;
            s.i.imm = imm_s;
            s.i.aux = pc;
            s.i.rd = 0;
            s.i.rs3 = cv_post_imm;
            return s.set(op_cv_store, cc_store, static_cast<std::uint8_t>(1u << f3), out);
        }
        if (f3 != 3) return false;
        if (f7 < 0x10) {  // register loads: f7 = {unsigned, reg-reg, size[1:0]}
            const std::uint32_t size = f7 & 3, uns = (f7 >> 3) & 1;
            if (!(ext & ext_xcvmem) || size == 3 || (uns && size == 2)) return false;
            s.i.aux = pc;
            s.i.rs3 = (f7 & 4) ? cv_reg_reg : cv_post_reg;
            if (s.i.rd == 0) s.i.rd = x_sink;
            return s.set(op_cv_load, cc_load, static_cast<std::uint8_t>(size | uns << 2), out);
        }
        if (f7 < 0x18) {  // register stores: f7 = 0x10 | {reg-reg, size[1:0]}; rd field = rs3
            const std::uint32_t size = f7 & 3;
            if (!(ext & ext_xcvmem) || size == 3) return false;
            s.i.aux = pc;
            s.i.rs3 = (f7 & 4) ? cv_reg_reg : cv_post_reg;
            return s.set(op_cv_store, cc_store, static_cast<std::uint8_t>(1u << size), out);
        }
        if (f7 >= 0x18 && f7 <= 0x27) {
            if (!(ext & ext_xcvbitmanip)) return false;
            return decode_bitmanip_reg(f7, s, out);
        }
        if (f7 >= 0x28 && f7 <= 0x47) {
            if (!(ext & ext_xcvalu)) return false;
            static const std::int8_t fn[0x20] = {
                cv_abs,   cv_slet,   cv_sletu,  cv_min,     cv_minu,  cv_max,    cv_maxu,   -1,
                cv_exths, cv_exthz,  cv_extbs,  cv_extbz,   -1,       -1,        -1,        -1,
                cv_clip,  cv_clipu,  cv_clipr,  cv_clipur,  -1,       -1,        -1,        -1,
                cv_addnr, cv_addunr, cv_addrnr, cv_addurnr, cv_subnr, cv_subunr, cv_subrnr, cv_suburnr};
            const std::int8_t f = fn[f7 - 0x28];
            if (f < 0) return false;
            // One-operand forms have rs2 = 0; clip/clipu carry Is2 there.
            const bool unary = f == cv_abs || (f >= cv_exths && f <= cv_extbz);
            if (unary && s.i.rs2 != 0) return false;
            s.i.imm = static_cast<std::int32_t>(s.i.rs2);
            return s.xset(op_cv_alu, cc_alu, static_cast<std::uint8_t>(f), out);
        }
        if (f7 == 0x48 || f7 == 0x49) {
            if (!(ext & ext_xcvmac)) return false;
            return s.xset(op_cv_mac, cc_mul, f7 == 0x48 ? cv_mac : cv_msu, out);
        }
        return false;
    case 0x5b:  // custom-2
        s.i.imm = static_cast<std::int32_t>(is3);
        switch (f3) {
        case 0:  // cv.extract / extractu / insert rD, rs1, Is3, Is2
        case 1:  // cv.bclr / bset / bitrev
            if (!(ext & ext_xcvbitmanip)) return false;
            return decode_bitmanip_imm(raw, s, out);
        case 2:  // cv.addN / adduN / addRN / adduRN: f2 = {round, unsigned}
        case 3:  // cv.subN ...
            if (!(ext & ext_xcvalu)) return false;
            return s.xset(op_cv_alu, cc_alu, static_cast<std::uint8_t>(cv_addn + (f3 == 3 ? 4 : 0) + f2), out);
        case 4:  // cv.mulsN / mulhhsN / mulsRN / mulhhsRN: f2 = {round, high halves}
        case 5:  // unsigned
        case 6:  // cv.macsN ...
        case 7:  // cv.macuN ...
            if (!(ext & ext_xcvmac)) return false;
            return s.xset(op_cv_mac, cc_mul,
                          static_cast<std::uint8_t>(cv_mulsn + ((f3 & 1) ? 4 : 0) + ((f3 & 2) ? 8 : 0) + f2), out);
        default: return false;
        }
    case 0x7b:  // custom-3
        if (!(ext & ext_xcvsimd)) return false;
        return decode_simd(raw, s, out);
    default: return false;
    }
}

}  // namespace npu::cpu
