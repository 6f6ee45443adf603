// Decoder of the CORE-V extensions in custom-0 (0x0b), custom-1 (0x2b) and
// custom-2 (0x5b), with the encodings of LLVM 19 (llvm-mc -mattr=+xcv...,
// the CV32E40Pv2 ones). Each instruction is decoded only when its extension
// is in the hart's isa_ext bits; anything else is illegal.
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
    default: return false;
    }
}

}  // namespace npu::cpu
