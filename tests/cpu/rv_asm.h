// Tiny RV32IMAF encoder for the ISS tests: each function returns one
// instruction word, so a test program is a vector of calls.
#pragma once

#include <cstdint>
#include <vector>

namespace npu::test::rv {

using u32 = std::uint32_t;

inline u32 r_type(u32 f7, u32 rs2, u32 rs1, u32 f3, u32 rd, u32 opc) {
    return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
inline u32 i_type(std::int32_t imm, u32 rs1, u32 f3, u32 rd, u32 opc) {
    return (static_cast<u32>(imm) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
inline u32 s_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3, u32 opc) {
    const u32 v = static_cast<u32>(imm);
    return ((v >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((v & 31) << 7) | opc;
}
inline u32 b_type(std::int32_t imm, u32 rs2, u32 rs1, u32 f3) {
    const u32 v = static_cast<u32>(imm);
    return (((v >> 12) & 1) << 31) | (((v >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
           (((v >> 1) & 0xf) << 8) | (((v >> 11) & 1) << 7) | 0x63;
}
inline u32 j_type(std::int32_t imm, u32 rd) {
    const u32 v = static_cast<u32>(imm);
    return (((v >> 20) & 1) << 31) | (((v >> 1) & 0x3ff) << 21) | (((v >> 11) & 1) << 20) | (v & 0xff000) | (rd << 7) |
           0x6f;
}

// RV32I
inline u32 lui(u32 rd, u32 imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
inline u32 auipc(u32 rd, u32 imm20) { return (imm20 << 12) | (rd << 7) | 0x17; }
inline u32 jal(u32 rd, std::int32_t off) { return j_type(off, rd); }
inline u32 jalr(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 0, rd, 0x67); }
inline u32 beq(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 0); }
inline u32 bne(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 1); }
inline u32 blt(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 4); }
inline u32 bge(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 5); }
inline u32 bltu(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 6); }
inline u32 bgeu(u32 a, u32 b, std::int32_t off) { return b_type(off, b, a, 7); }
inline u32 lb(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 0, rd, 0x03); }
inline u32 lh(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 1, rd, 0x03); }
inline u32 lw(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 2, rd, 0x03); }
inline u32 lbu(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 4, rd, 0x03); }
inline u32 lhu(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 5, rd, 0x03); }
inline u32 sb(u32 rs2, u32 rs1, std::int32_t imm) { return s_type(imm, rs2, rs1, 0, 0x23); }
inline u32 sh(u32 rs2, u32 rs1, std::int32_t imm) { return s_type(imm, rs2, rs1, 1, 0x23); }
inline u32 sw(u32 rs2, u32 rs1, std::int32_t imm) { return s_type(imm, rs2, rs1, 2, 0x23); }
inline u32 addi(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
inline u32 slti(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 2, rd, 0x13); }
inline u32 sltiu(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 3, rd, 0x13); }
inline u32 xori(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 4, rd, 0x13); }
inline u32 ori(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 6, rd, 0x13); }
inline u32 andi(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 7, rd, 0x13); }
inline u32 slli(u32 rd, u32 rs1, u32 sh) { return r_type(0, sh, rs1, 1, rd, 0x13); }
inline u32 srli(u32 rd, u32 rs1, u32 sh) { return r_type(0, sh, rs1, 5, rd, 0x13); }
inline u32 srai(u32 rd, u32 rs1, u32 sh) { return r_type(0x20, sh, rs1, 5, rd, 0x13); }
inline u32 add(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 0, rd, 0x33); }
inline u32 sub(u32 rd, u32 a, u32 b) { return r_type(0x20, b, a, 0, rd, 0x33); }
inline u32 sll(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 1, rd, 0x33); }
inline u32 slt(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 2, rd, 0x33); }
inline u32 sltu(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 3, rd, 0x33); }
inline u32 xor_(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 4, rd, 0x33); }
inline u32 srl(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 5, rd, 0x33); }
inline u32 sra(u32 rd, u32 a, u32 b) { return r_type(0x20, b, a, 5, rd, 0x33); }
inline u32 or_(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 6, rd, 0x33); }
inline u32 and_(u32 rd, u32 a, u32 b) { return r_type(0, b, a, 7, rd, 0x33); }
inline u32 fence() { return 0x0ff0000f; }
inline u32 fence_i() { return 0x0000100f; }
inline u32 ecall() { return 0x00000073; }
inline u32 ebreak() { return 0x00100073; }
inline u32 mret() { return 0x30200073; }
inline u32 wfi() { return 0x10500073; }
inline u32 nop() { return addi(0, 0, 0); }
// Zicsr
inline u32 csrrw(u32 rd, u32 csr, u32 rs1) { return i_type(static_cast<std::int32_t>(csr), rs1, 1, rd, 0x73); }
inline u32 csrrs(u32 rd, u32 csr, u32 rs1) { return i_type(static_cast<std::int32_t>(csr), rs1, 2, rd, 0x73); }
inline u32 csrrc(u32 rd, u32 csr, u32 rs1) { return i_type(static_cast<std::int32_t>(csr), rs1, 3, rd, 0x73); }
inline u32 csrrwi(u32 rd, u32 csr, u32 uimm) { return i_type(static_cast<std::int32_t>(csr), uimm, 5, rd, 0x73); }
inline u32 csrrsi(u32 rd, u32 csr, u32 uimm) { return i_type(static_cast<std::int32_t>(csr), uimm, 6, rd, 0x73); }
inline u32 csrrci(u32 rd, u32 csr, u32 uimm) { return i_type(static_cast<std::int32_t>(csr), uimm, 7, rd, 0x73); }
inline u32 csrr(u32 rd, u32 csr) { return csrrs(rd, csr, 0); }
inline u32 csrw(u32 csr, u32 rs1) { return csrrw(0, csr, rs1); }
// M
inline u32 mul(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 0, rd, 0x33); }
inline u32 mulh(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 1, rd, 0x33); }
inline u32 mulhsu(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 2, rd, 0x33); }
inline u32 mulhu(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 3, rd, 0x33); }
inline u32 div(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 4, rd, 0x33); }
inline u32 divu(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 5, rd, 0x33); }
inline u32 rem(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 6, rd, 0x33); }
inline u32 remu(u32 rd, u32 a, u32 b) { return r_type(1, b, a, 7, rd, 0x33); }
// A (aq/rl clear)
inline u32 amo(u32 f5, u32 rd, u32 addr, u32 src) { return r_type(f5 << 2, src, addr, 2, rd, 0x2f); }
inline u32 lr_w(u32 rd, u32 addr) { return amo(0x02, rd, addr, 0); }
inline u32 sc_w(u32 rd, u32 addr, u32 src) { return amo(0x03, rd, addr, src); }
inline u32 amoswap(u32 rd, u32 addr, u32 src) { return amo(0x01, rd, addr, src); }
inline u32 amoadd(u32 rd, u32 addr, u32 src) { return amo(0x00, rd, addr, src); }
inline u32 amoxor(u32 rd, u32 addr, u32 src) { return amo(0x04, rd, addr, src); }
inline u32 amoand(u32 rd, u32 addr, u32 src) { return amo(0x0c, rd, addr, src); }
inline u32 amoor(u32 rd, u32 addr, u32 src) { return amo(0x08, rd, addr, src); }
inline u32 amomin(u32 rd, u32 addr, u32 src) { return amo(0x10, rd, addr, src); }
inline u32 amomax(u32 rd, u32 addr, u32 src) { return amo(0x14, rd, addr, src); }
inline u32 amominu(u32 rd, u32 addr, u32 src) { return amo(0x18, rd, addr, src); }
inline u32 amomaxu(u32 rd, u32 addr, u32 src) { return amo(0x1c, rd, addr, src); }
// F (rm 7 = dynamic)
enum : u32 { rne = 0, rtz = 1, rdn = 2, rup = 3, rmm = 4, dyn = 7 };
inline u32 flw(u32 rd, u32 rs1, std::int32_t imm) { return i_type(imm, rs1, 2, rd, 0x07); }
inline u32 fsw(u32 rs2, u32 rs1, std::int32_t imm) { return s_type(imm, rs2, rs1, 2, 0x27); }
inline u32 fmadd(u32 rd, u32 a, u32 b, u32 c, u32 rm = dyn) { return (c << 27) | r_type(0, b, a, rm, rd, 0x43); }
inline u32 fmsub(u32 rd, u32 a, u32 b, u32 c, u32 rm = dyn) { return (c << 27) | r_type(0, b, a, rm, rd, 0x47); }
inline u32 fnmsub(u32 rd, u32 a, u32 b, u32 c, u32 rm = dyn) { return (c << 27) | r_type(0, b, a, rm, rd, 0x4b); }
inline u32 fnmadd(u32 rd, u32 a, u32 b, u32 c, u32 rm = dyn) { return (c << 27) | r_type(0, b, a, rm, rd, 0x4f); }
inline u32 fadd(u32 rd, u32 a, u32 b, u32 rm = dyn) { return r_type(0x00, b, a, rm, rd, 0x53); }
inline u32 fsub(u32 rd, u32 a, u32 b, u32 rm = dyn) { return r_type(0x04, b, a, rm, rd, 0x53); }
inline u32 fmul(u32 rd, u32 a, u32 b, u32 rm = dyn) { return r_type(0x08, b, a, rm, rd, 0x53); }
inline u32 fdiv(u32 rd, u32 a, u32 b, u32 rm = dyn) { return r_type(0x0c, b, a, rm, rd, 0x53); }
inline u32 fsqrt(u32 rd, u32 a, u32 rm = dyn) { return r_type(0x2c, 0, a, rm, rd, 0x53); }
inline u32 fsgnj(u32 rd, u32 a, u32 b) { return r_type(0x10, b, a, 0, rd, 0x53); }
inline u32 fsgnjn(u32 rd, u32 a, u32 b) { return r_type(0x10, b, a, 1, rd, 0x53); }
inline u32 fsgnjx(u32 rd, u32 a, u32 b) { return r_type(0x10, b, a, 2, rd, 0x53); }
inline u32 fmin(u32 rd, u32 a, u32 b) { return r_type(0x14, b, a, 0, rd, 0x53); }
inline u32 fmax(u32 rd, u32 a, u32 b) { return r_type(0x14, b, a, 1, rd, 0x53); }
inline u32 fcvt_w_s(u32 rd, u32 a, u32 rm = dyn) { return r_type(0x60, 0, a, rm, rd, 0x53); }
inline u32 fcvt_wu_s(u32 rd, u32 a, u32 rm = dyn) { return r_type(0x60, 1, a, rm, rd, 0x53); }
inline u32 fcvt_s_w(u32 rd, u32 a, u32 rm = dyn) { return r_type(0x68, 0, a, rm, rd, 0x53); }
inline u32 fcvt_s_wu(u32 rd, u32 a, u32 rm = dyn) { return r_type(0x68, 1, a, rm, rd, 0x53); }
inline u32 fmv_x_w(u32 rd, u32 a) { return r_type(0x70, 0, a, 0, rd, 0x53); }
inline u32 fclass(u32 rd, u32 a) { return r_type(0x70, 0, a, 1, rd, 0x53); }
inline u32 fmv_w_x(u32 rd, u32 a) { return r_type(0x78, 0, a, 0, rd, 0x53); }
inline u32 feq(u32 rd, u32 a, u32 b) { return r_type(0x50, b, a, 2, rd, 0x53); }
inline u32 flt(u32 rd, u32 a, u32 b) { return r_type(0x50, b, a, 1, rd, 0x53); }
inline u32 fle(u32 rd, u32 a, u32 b) { return r_type(0x50, b, a, 0, rd, 0x53); }

// rd = v (lui + addi, with the carry of a negative low part folded in).
inline void li(std::vector<u32>& p, u32 rd, u32 v) {
    const u32 lo = v & 0xfff;
    const u32 hi = (v + 0x800) >> 12;
    p.push_back(lui(rd, hi & 0xfffff));
    p.push_back(addi(rd, rd, static_cast<std::int32_t>(lo << 20) >> 20));
}

// CSR numbers used by the tests.
enum csr : u32 {
    fflags = 0x001,
    frm = 0x002,
    fcsr = 0x003,
    cycle = 0xc00,
    utime = 0xc01,
    instret = 0xc02,
    cycleh = 0xc80,
    mstatus = 0x300,
    misa = 0x301,
    mie = 0x304,
    mtvec = 0x305,
    mcounteren = 0x306,
    mscratch = 0x340,
    mepc = 0x341,
    mcause = 0x342,
    mtval = 0x343,
    mip = 0x344,
    mcycle = 0xb00,
    minstret = 0xb02,
    mvendorid = 0xf11,
    mhartid = 0xf14,
};

}  // namespace npu::test::rv
