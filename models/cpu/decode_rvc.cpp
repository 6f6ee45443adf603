// RV32C (+ Zcf: c.flw/c.fsw/c.flwsp/c.fswsp, F being present) expansion:
// every 16-bit instruction is the 32-bit one it stands for (RISC-V
// unprivileged spec, chapter "C" Standard Extension, tables 26.4-26.6), so
// the decoder and the interpreter need no second set of operations. HINTs
// (rd = x0 forms, shift by 0) expand to the no-op they are; reserved and
// RV64/D-only encodings expand to 0, which decodes as illegal.
#include "isa.h"

namespace npu::cpu {

namespace {

using u32 = std::uint32_t;

u32 bits(u32 v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
// Sign-extends the low `n` bits of v.
std::int32_t sext(u32 v, unsigned n) { return static_cast<std::int32_t>(v << (32 - n)) >> (32 - n); }

u32 r_type(u32 f7, u32 rs2, u32 rs1, u32 f3, u32 rd, u32 opc) {
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
u32 i_type(std::int32_t imm, u32 rs1, u32 f3, u32 rd, u32 opc) {
    return (static_cast<u32>(imm) & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
u32 s_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3, u32 opc) {
    const u32 v = static_cast<u32>(imm);
    return bits(v, 11, 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | bits(v, 4, 0) << 7 | opc;
}
u32 b_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3) {
    const u32 v = static_cast<u32>(imm);
    return bits(v, 12, 12) << 31 | bits(v, 10, 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | bits(v, 4, 1) << 8 |
           bits(v, 11, 11) << 7 | 0x63;
}
u32 j_type(std::int32_t imm, u32 rd) {
    const u32 v = static_cast<u32>(imm);
    return bits(v, 20, 20) << 31 | bits(v, 10, 1) << 21 | bits(v, 11, 11) << 20 | bits(v, 19, 12) << 12 | rd << 7 |
           0x6f;
}

constexpr u32 opc_load = 0x03, opc_load_fp = 0x07, opc_imm = 0x13, opc_store = 0x23, opc_store_fp = 0x27, opc_reg = 0x33,
              opc_lui = 0x37, opc_jalr = 0x67;

}  // namespace

std::uint32_t expand_rvc(std::uint16_t c) {
    const u32 f3 = bits(c, 15, 13);
    const u32 rd = bits(c, 11, 7);    // rd/rs1 of CI/CR forms
    const u32 rs2 = bits(c, 6, 2);    // rs2 of CR/CSS forms
    const u32 rdp = 8 + bits(c, 4, 2);   // rd' / rs2'
    const u32 rs1p = 8 + bits(c, 9, 7);  // rs1' / rd'
    // CL/CS word offset: uimm[5:3] = c[12:10], uimm[2] = c[6], uimm[6] = c[5].
    const std::int32_t lw_off = static_cast<std::int32_t>(bits(c, 12, 10) << 3 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 6);
    // CI immediate: imm[5] = c[12], imm[4:0] = c[6:2].
    const std::int32_t ci_imm = sext(bits(c, 12, 12) << 5 | bits(c, 6, 2), 6);
    switch (bits(c, 1, 0)) {
    case 0:  // quadrant 0
        switch (f3) {
        case 0: {  // c.addi4spn: nzuimm[5:4|9:6|2|3] = c[12:5]
            const u32 imm = bits(c, 12, 11) << 4 | bits(c, 10, 7) << 6 | bits(c, 6, 6) << 2 | bits(c, 5, 5) << 3;
            if (imm == 0) return 0;  // includes the all-zero halfword: illegal by definition
            return i_type(static_cast<std::int32_t>(imm), 2, 0, rdp, opc_imm);
        }
        case 2: return i_type(lw_off, rs1p, 2, rdp, opc_load);       // c.lw
        case 3: return i_type(lw_off, rs1p, 2, rdp, opc_load_fp);    // c.flw
        case 6: return s_type(lw_off, rdp, rs1p, 2, opc_store);      // c.sw
        case 7: return s_type(lw_off, rdp, rs1p, 2, opc_store_fp);   // c.fsw
        default: return 0;  // c.fld/c.fsd (no D), reserved
        }
    case 1:  // quadrant 1
        switch (f3) {
        case 0: return i_type(ci_imm, rd, 0, rd, opc_imm);  // c.addi (c.nop, HINTs)
        case 1:                                             // c.jal
        case 5: {                                           // c.j: imm[11|4|9:8|10|6|7|3:1|5] = c[12:2]
            const u32 imm = bits(c, 12, 12) << 11 | bits(c, 11, 11) << 4 | bits(c, 10, 9) << 8 |
                            bits(c, 8, 8) << 10 | bits(c, 7, 7) << 6 | bits(c, 6, 6) << 7 | bits(c, 5, 3) << 1 |
                            bits(c, 2, 2) << 5;
            return j_type(sext(imm, 12), f3 == 1 ? 1 : 0);
        }
        case 2: return i_type(ci_imm, 0, 0, rd, opc_imm);  // c.li
        case 3:
            if (rd == 2) {  // c.addi16sp: nzimm[9] = c[12], nzimm[4|6|8:7|5] = c[6:2]
                const u32 imm = bits(c, 12, 12) << 9 | bits(c, 6, 6) << 4 | bits(c, 5, 5) << 6 | bits(c, 4, 3) << 7 |
                                bits(c, 2, 2) << 5;
                if (imm == 0) return 0;
                return i_type(sext(imm, 10), 2, 0, 2, opc_imm);
            }
            // c.lui: nzimm[17] = c[12], nzimm[16:12] = c[6:2]
            if (ci_imm == 0) return 0;
            return (static_cast<u32>(ci_imm) & 0xfffff) << 12 | rd << 7 | opc_lui;
        case 4:
            switch (bits(c, 11, 10)) {
            case 0:  // c.srli: shamt[5] = c[12] must be 0 on RV32
                if (bits(c, 12, 12)) return 0;
                return r_type(0, rs2, rs1p, 5, rs1p, opc_imm);
            case 1:  // c.srai
                if (bits(c, 12, 12)) return 0;
                return r_type(0x20, rs2, rs1p, 5, rs1p, opc_imm);
            case 2: return i_type(ci_imm, rs1p, 7, rs1p, opc_imm);  // c.andi
            default:
                if (bits(c, 12, 12)) return 0;  // c.subw/c.addw (RV64), reserved
                switch (bits(c, 6, 5)) {
                case 0: return r_type(0x20, rdp, rs1p, 0, rs1p, opc_reg);  // c.sub
                case 1: return r_type(0, rdp, rs1p, 4, rs1p, opc_reg);     // c.xor
                case 2: return r_type(0, rdp, rs1p, 6, rs1p, opc_reg);     // c.or
                default: return r_type(0, rdp, rs1p, 7, rs1p, opc_reg);    // c.and
                }
            }
        default: {  // 6: c.beqz, 7: c.bnez: offset[8|4:3] = c[12:10], offset[7:6|2:1|5] = c[6:2]
            const u32 imm = bits(c, 12, 12) << 8 | bits(c, 11, 10) << 3 | bits(c, 6, 5) << 6 | bits(c, 4, 3) << 1 |
                            bits(c, 2, 2) << 5;
            return b_type(sext(imm, 9), 0, rs1p, f3 == 6 ? 0 : 1);
        }
        }
    case 2:  // quadrant 2
        switch (f3) {
        case 0:  // c.slli
            if (bits(c, 12, 12)) return 0;
            return r_type(0, rs2, rd, 1, rd, opc_imm);
        case 2:    // c.lwsp: uimm[5] = c[12], uimm[4:2] = c[6:4], uimm[7:6] = c[3:2]
        case 3: {  // c.flwsp
            const u32 imm = bits(c, 12, 12) << 5 | bits(c, 6, 4) << 2 | bits(c, 3, 2) << 6;
            if (f3 == 2 && rd == 0) return 0;
            return i_type(static_cast<std::int32_t>(imm), 2, 2, rd, f3 == 2 ? opc_load : opc_load_fp);
        }
        case 4:
            if (!bits(c, 12, 12)) {
                if (rs2 == 0) return rd == 0 ? 0 : i_type(0, rd, 0, 0, opc_jalr);  // c.jr
                return r_type(0, rs2, 0, 0, rd, opc_reg);                           // c.mv
            }
            if (rs2 == 0) return rd == 0 ? 0x00100073u : i_type(0, rd, 0, 1, opc_jalr);  // c.ebreak, c.jalr
            return r_type(0, rs2, rd, 0, rd, opc_reg);                                     // c.add
        case 6:    // c.swsp: uimm[5:2] = c[12:9], uimm[7:6] = c[8:7]
        case 7: {  // c.fswsp
            const u32 imm = bits(c, 12, 9) << 2 | bits(c, 8, 7) << 6;
            return s_type(static_cast<std::int32_t>(imm), rs2, 2, 2, f3 == 6 ? opc_store : opc_store_fp);
        }
        default: return 0;  // c.fldsp/c.fsdsp (no D)
        }
    default: return 0;  // 32-bit encodings are not expanded
    }
}

}  // namespace npu::cpu
