// RV32IMAFC + Zicsr + Zifencei decoder: raw bits -> pre-decoded slot
// (16-bit instructions are expanded by decode_rvc.cpp, then decoded here).
#include "isa.h"
#include "timing.h"

namespace npu::cpu {

namespace {

std::int32_t imm_i(std::uint32_t r) { return static_cast<std::int32_t>(r) >> 20; }
std::int32_t imm_s(std::uint32_t r) {
    // * 32, not << 5: shifting a negative value left is undefined in C++17 (UBSan).
    return (static_cast<std::int32_t>(r) >> 25) * 32 | static_cast<std::int32_t>((r >> 7) & 0x1f);
}
std::int32_t imm_b(std::uint32_t r) {
    std::uint32_t v = ((r >> 31) << 12) | (((r >> 25) & 0x3f) << 5) | (((r >> 8) & 0xf) << 1) | (((r >> 7) & 1) << 11);
    return static_cast<std::int32_t>(v << 19) >> 19;
}
std::int32_t imm_j(std::uint32_t r) {
    std::uint32_t v = ((r >> 31) << 20) | (((r >> 21) & 0x3ff) << 1) | (((r >> 20) & 1) << 11) | (r & 0xff000);
    return static_cast<std::int32_t>(v << 11) >> 11;
}

struct builder {
    insn i{};
    const cost_table& costs;
    builder(std::uint32_t raw, const cost_table& c) : costs(c) {
        i.len = 2;
        i.rd = (raw >> 7) & 31;
        i.rs1 = (raw >> 15) & 31;
        i.rs2 = (raw >> 20) & 31;
        i.rs3 = (raw >> 27) & 31;
        i.rm = (raw >> 12) & 7;
        i.aux = raw;
    }
    insn& set(op o, cost_class c) {
        i.op = o;
        i.cost = costs.cpi[c];
        i.cls = c;
        return i;
    }
    // The op writes an integer register: x0 writes go to the sink.
    insn& xset(op o, cost_class c) {
        if (i.rd == 0) i.rd = x_sink;
        return set(o, c);
    }
    insn& illegal() {
        i.rd = i.rs1 = i.rs2 = i.rs3 = 0;
        return set(op_illegal, cc_alu);
    }
};

bool valid_static_rm(std::uint32_t rm) { return rm != 5 && rm != 6; }

}  // namespace

namespace {

// `raw`: a 32-bit encoding, found at pc or standing for the 16-bit one there
// (ilen 2: links are pc + 2). ialign_mask: 1 with C, else 3.
insn decode32(std::uint32_t raw, std::uint32_t pc, std::uint32_t block_start, std::uint32_t block_len,
              const cost_table& costs, std::uint32_t ext, std::uint32_t ialign_mask, std::uint32_t ilen) {
    builder b(raw, costs);
    const std::uint32_t f3 = (raw >> 12) & 7;
    const std::uint32_t f7 = raw >> 25;
    // A misaligned target stays a far jump, whose run-time check traps.
    auto in_block = [&](std::uint32_t target) {
        return (target & ialign_mask) == 0 && target - block_start < block_len;
    };
    switch (raw & 0x7f) {
    case 0x37:  // LUI
        b.i.aux = raw & 0xfffff000u;
        return b.xset(op_lui, cc_alu);
    case 0x17:  // AUIPC: the result only depends on the slot's address
        b.i.aux = pc + (raw & 0xfffff000u);
        return b.xset(op_auipc, cc_alu);
    case 0x6f: {  // JAL
        const std::uint32_t target = pc + static_cast<std::uint32_t>(imm_j(raw));
        b.i.aux = pc + ilen;
        if (in_block(target)) {
            b.i.imm = static_cast<std::int32_t>(target - pc) / 2;
            return b.xset(op_jal, cc_jump);
        }
        b.i.imm = static_cast<std::int32_t>(target);
        return b.xset(op_jal_far, cc_jump);
    }
    case 0x67:  // JALR
        if (f3 != 0) return b.illegal();
        b.i.imm = imm_i(raw);
        b.i.aux = pc + ilen;
        return b.xset(op_jalr, cc_jump);
    case 0x63: {  // BRANCH
        static const op ops[8] = {op_beq, op_bne, op_illegal, op_illegal, op_blt, op_bge, op_bltu, op_bgeu};
        if (ops[f3] == op_illegal) return b.illegal();
        const std::uint32_t target = pc + static_cast<std::uint32_t>(imm_b(raw));
        if (in_block(target)) {
            b.i.imm = static_cast<std::int32_t>(target - pc) / 2;
            return b.set(ops[f3], cc_branch);
        }
        b.i.imm = static_cast<std::int32_t>(target);
        b.i.rs3 = static_cast<std::uint8_t>(f3);
        return b.set(op_branch_far, cc_branch);
    }
    case 0x03: {  // LOAD
        static const op ops[8] = {op_lb, op_lh, op_lw, op_illegal, op_lbu, op_lhu, op_illegal, op_illegal};
        if (ops[f3] == op_illegal) return b.illegal();
        b.i.imm = imm_i(raw);
        b.i.aux = pc;
        return b.xset(ops[f3], cc_load);
    }
    case 0x23: {  // STORE
        static const op ops[8] = {op_sb, op_sh, op_sw, op_illegal, op_illegal, op_illegal, op_illegal, op_illegal};
        if (ops[f3] == op_illegal) return b.illegal();
        b.i.imm = imm_s(raw);
        b.i.aux = pc;
        b.i.rd = 0;
        return b.set(ops[f3], cc_store);
    }
    case 0x13: {  // OP-IMM
        b.i.imm = imm_i(raw);
        switch (f3) {
        case 0: return b.xset(op_addi, cc_alu);
        case 2: return b.xset(op_slti, cc_alu);
        case 3: return b.xset(op_sltiu, cc_alu);
        case 4: return b.xset(op_xori, cc_alu);
        case 6: return b.xset(op_ori, cc_alu);
        case 7: return b.xset(op_andi, cc_alu);
        case 1:
            if (f7 != 0) return b.illegal();  // RV32: shamt[5] must be 0
            b.i.imm = b.i.rs2;
            return b.xset(op_slli, cc_alu);
        default:  // 5
            b.i.imm = b.i.rs2;
            if (f7 == 0) return b.xset(op_srli, cc_alu);
            if (f7 == 0x20) return b.xset(op_srai, cc_alu);
            return b.illegal();
        }
    }
    case 0x33: {  // OP
        if (f7 == 0) {
            static const op ops[8] = {op_add, op_sll, op_slt, op_sltu, op_xor, op_srl, op_or, op_and};
            return b.xset(ops[f3], cc_alu);
        }
        if (f7 == 0x20) {
            if (f3 == 0) return b.xset(op_sub, cc_alu);
            if (f3 == 5) return b.xset(op_sra, cc_alu);
            return b.illegal();
        }
        if (f7 == 1) {
            static const op ops[8] = {op_mul, op_mulh, op_mulhsu, op_mulhu, op_div, op_divu, op_rem, op_remu};
            return b.xset(ops[f3], f3 < 4 ? cc_mul : cc_div);
        }
        return b.illegal();
    }
    case 0x0f:  // MISC-MEM
        if (f3 == 0) return b.set(op_fence, cc_alu);  // reserved fm/pred/succ values execute as fence
        if (f3 == 1) return b.set(op_fence_i, cc_alu);
        return b.illegal();
    case 0x73:  // SYSTEM
        if (f3 == 0) {
            switch (raw) {
            case 0x00000073: return b.set(op_ecall, cc_alu);
            case 0x00100073: return b.set(op_ebreak, cc_alu);
            case 0x30200073: return b.set(op_mret, cc_alu);
            case 0x10500073: return b.set(op_wfi, cc_alu);
            default: return b.illegal();
            }
        }
        if (f3 == 4) return b.illegal();
        b.i.imm = static_cast<std::int32_t>(raw >> 20);
        b.i.rs3 = static_cast<std::uint8_t>(f3);
        return b.xset(op_csr, cc_alu);
    case 0x2f: {  // AMO
        if (f3 != 2) return b.illegal();
        b.i.aux = pc;
        switch (raw >> 27) {
        case 0x02:
            if (b.i.rs2 != 0) return b.illegal();
            return b.xset(op_lr, cc_amo);
        case 0x03: return b.xset(op_sc, cc_amo);
        case 0x01: return b.xset(op_amoswap, cc_amo);
        case 0x00: return b.xset(op_amoadd, cc_amo);
        case 0x04: return b.xset(op_amoxor, cc_amo);
        case 0x0c: return b.xset(op_amoand, cc_amo);
        case 0x08: return b.xset(op_amoor, cc_amo);
        case 0x10: return b.xset(op_amomin, cc_amo);
        case 0x14: return b.xset(op_amomax, cc_amo);
        case 0x18: return b.xset(op_amominu, cc_amo);
        case 0x1c: return b.xset(op_amomaxu, cc_amo);
        default: return b.illegal();
        }
    }
    case 0x07:  // LOAD-FP
        if (f3 != 2) return b.illegal();
        b.i.imm = imm_i(raw);
        b.i.aux = pc;
        return b.set(op_flw, cc_load);
    case 0x27:  // STORE-FP
        if (f3 != 2) return b.illegal();
        b.i.imm = imm_s(raw);
        b.i.aux = pc;
        return b.set(op_fsw, cc_store);
    case 0x43:
    case 0x47:
    case 0x4b:
    case 0x4f: {  // fused multiply-add, single only
        if (((raw >> 25) & 3) != 0 || !valid_static_rm(f3)) return b.illegal();
        static const op ops[4] = {op_fmadd, op_fmsub, op_fnmsub, op_fnmadd};
        return b.set(ops[((raw & 0x7f) - 0x43) >> 2], cc_fpu);
    }
    case 0x53: {  // OP-FP
        const std::uint32_t rs2 = b.i.rs2;
        switch (f7) {
        case 0x00:
        case 0x04:
        case 0x08:
        case 0x0c: {
            if (!valid_static_rm(f3)) return b.illegal();
            static const op ops[4] = {op_fadd, op_fsub, op_fmul, op_fdiv};
            return b.set(ops[f7 >> 2], f7 == 0x0c ? cc_fdiv : cc_fpu);
        }
        case 0x2c:
            if (rs2 != 0 || !valid_static_rm(f3)) return b.illegal();
            return b.set(op_fsqrt, cc_fdiv);
        case 0x10:
            if (f3 == 0) return b.set(op_fsgnj, cc_fpu);
            if (f3 == 1) return b.set(op_fsgnjn, cc_fpu);
            if (f3 == 2) return b.set(op_fsgnjx, cc_fpu);
            return b.illegal();
        case 0x14:
            if (f3 == 0) return b.set(op_fmin, cc_fpu);
            if (f3 == 1) return b.set(op_fmax, cc_fpu);
            return b.illegal();
        case 0x60:
            if (!valid_static_rm(f3)) return b.illegal();
            if (rs2 == 0) return b.xset(op_fcvt_w_s, cc_fpu);
            if (rs2 == 1) return b.xset(op_fcvt_wu_s, cc_fpu);
            return b.illegal();
        case 0x68:
            if (!valid_static_rm(f3)) return b.illegal();
            if (rs2 == 0) return b.set(op_fcvt_s_w, cc_fpu);
            if (rs2 == 1) return b.set(op_fcvt_s_wu, cc_fpu);
            return b.illegal();
        case 0x70:
            if (rs2 != 0) return b.illegal();
            if (f3 == 0) return b.xset(op_fmv_x_w, cc_fpu);
            if (f3 == 1) return b.xset(op_fclass, cc_fpu);
            return b.illegal();
        case 0x50:
            if (f3 == 0) return b.xset(op_fle, cc_fpu);
            if (f3 == 1) return b.xset(op_flt, cc_fpu);
            if (f3 == 2) return b.xset(op_feq, cc_fpu);
            return b.illegal();
        case 0x78:
            if (rs2 != 0 || f3 != 0) return b.illegal();
            return b.set(op_fmv_w_x, cc_fpu);
        default: return b.illegal();
        }
    }
    case 0x0b:
    case 0x2b:
    case 0x5b:
    case 0x7b: {  // custom-0/1/2/3: CORE-V
        insn i;
        if (decode_xcv(raw, pc, block_start, block_len, costs, ext, ialign_mask, i)) return i;
        return b.illegal();
    }
    default: return b.illegal();
    }
}

}  // namespace

insn decode(std::uint32_t raw, std::uint32_t pc, std::uint32_t block_start, std::uint32_t block_len,
            const cost_table& costs, std::uint32_t ext) {
    const std::uint32_t ialign_mask = (ext & ext_c) ? 1 : 3;
    if (insn_bytes(raw) == 4) {
        insn i = decode32(raw, pc, block_start, block_len, costs, ext, ialign_mask, 4);
        timing::apply_costs(i, costs);
        return i;
    }
    const std::uint32_t expanded = (ext & ext_c) ? expand_rvc(static_cast<std::uint16_t>(raw)) : 0;
    insn i = expanded ? decode32(expanded, pc, block_start, block_len, costs, ext, ialign_mask, 2)
                      : builder(0, costs).illegal();
    i.len = 1;
    timing::apply_costs(i, costs);
    return i;
}

const char* op_name(std::uint8_t o) {
    static const char* const names[op_count] = {
        "<decode>", "<block_end>", "lui",       "auipc",     "jal",       "jal",      "jalr",    "beq",
        "bne",      "blt",         "bge",       "bltu",      "bgeu",      "branch",   "lb",      "lh",
        "lw",       "lbu",         "lhu",       "sb",        "sh",        "sw",       "addi",    "slti",
        "sltiu",    "xori",        "ori",       "andi",      "slli",      "srli",     "srai",    "add",
        "sub",      "sll",         "slt",       "sltu",      "xor",       "srl",      "sra",     "or",
        "and",      "fence",       "fence.i",   "ecall",     "ebreak",    "mret",     "wfi",     "csr",
        "mul",      "mulh",        "mulhsu",    "mulhu",     "div",       "divu",     "rem",     "remu",
        "lr.w",     "sc.w",        "amoswap.w", "amoadd.w",  "amoxor.w",  "amoand.w", "amoor.w", "amomin.w",
        "amomax.w", "amominu.w",   "amomaxu.w", "flw",       "fsw",       "fmadd.s",  "fmsub.s", "fnmsub.s",
        "fnmadd.s", "fadd.s",      "fsub.s",    "fmul.s",    "fdiv.s",    "fsqrt.s",  "fsgnj.s", "fsgnjn.s",
        "fsgnjx.s", "fmin.s",      "fmax.s",    "fcvt.w.s",  "fcvt.wu.s", "fmv.x.w",  "feq.s",   "flt.s",
        "fle.s",    "fclass.s",    "fcvt.s.w",  "fcvt.s.wu", "fmv.w.x",   "cv.load",  "cv.store", "cv.alu",
        "cv.mac",   "cv.beqimm",   "cv.bneimm", "cv.bimm",   "cv.simd",  "cv.bitmanip", "illegal"};
    return o < op_count ? names[o] : "?";
}

}  // namespace npu::cpu
