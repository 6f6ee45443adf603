// The pre-decoded instruction form of the RV32IMAF interpreter.
//
// Every instruction (32-bit, or 16-bit from the C extension) is decoded once,
// the first time its address is executed, into an `insn` slot of a decoded
// block (see decode_cache.h); a block has one slot per halfword. The
// interpreter dispatches on `op` with computed goto; operands are already
// extracted, immediates sign-extended, x0 destinations redirected to a sink
// register, and PC-relative values that only depend on the slot's address
// (auipc results, link addresses, in-block branch distances) precomputed.
#pragma once

#include <cstdint>

namespace npu::cpu {

// Slot opcodes. op_decode must be 0: a freshly calloc'ed block is "all
// undecoded" without touching its memory.
enum op : std::uint8_t {
    op_decode = 0,  // slot not decoded yet
    op_block_end,   // sentinel after the last slot of a block: re-resolve the PC
    // RV32I
    op_lui,
    op_auipc,
    op_jal,
    op_jal_far,
    op_jalr,
    op_beq,
    op_bne,
    op_blt,
    op_bge,
    op_bltu,
    op_bgeu,
    op_branch_far,
    op_lb,
    op_lh,
    op_lw,
    op_lbu,
    op_lhu,
    op_sb,
    op_sh,
    op_sw,
    op_addi,
    op_slti,
    op_sltiu,
    op_xori,
    op_ori,
    op_andi,
    op_slli,
    op_srli,
    op_srai,
    op_add,
    op_sub,
    op_sll,
    op_slt,
    op_sltu,
    op_xor,
    op_srl,
    op_sra,
    op_or,
    op_and,
    op_fence,
    op_fence_i,
    op_ecall,
    op_ebreak,
    op_mret,
    op_wfi,
    op_csr,
    // M
    op_mul,
    op_mulh,
    op_mulhsu,
    op_mulhu,
    op_div,
    op_divu,
    op_rem,
    op_remu,
    // A
    op_lr,
    op_sc,
    op_amoswap,
    op_amoadd,
    op_amoxor,
    op_amoand,
    op_amoor,
    op_amomin,
    op_amomax,
    op_amominu,
    op_amomaxu,
    // F
    op_flw,
    op_fsw,
    op_fmadd,
    op_fmsub,
    op_fnmsub,
    op_fnmadd,
    op_fadd,
    op_fsub,
    op_fmul,
    op_fdiv,
    op_fsqrt,
    op_fsgnj,
    op_fsgnjn,
    op_fsgnjx,
    op_fmin,
    op_fmax,
    op_fcvt_w_s,
    op_fcvt_wu_s,
    op_fmv_x_w,
    op_feq,
    op_flt,
    op_fle,
    op_fclass,
    op_fcvt_s_w,
    op_fcvt_s_wu,
    op_fmv_w_x,
    // CORE-V (decode_xcv.cpp); sub-operations in `rm` keep the op space small
    op_cv_load,      // xcvmem loads: rm = cv_mem_kind, rs3 = cv_mem_mode
    op_cv_store,     // xcvmem stores: rm = size in bytes, rs3 = cv_mem_mode, rd = offset register
    op_cv_alu,       // xcvalu: rm = cv_alu_fn, rs3 = rD as a source
    op_cv_mac,       // xcvmac: rm = cv_mac_fn, rs3 = rD as a source
    op_cv_beqimm,    // xcvbi, in-block: rs2 = the 5-bit immediate
    op_cv_bneimm,
    op_cv_bimm_far,  // xcvbi, target outside the block: rs3 = 0 (eq) / 1 (ne)
    op_cv_simd,      // xcvsimd: rm = cv_simd_fn << 1 | .b, imm = cv_simd_imm, rs3 = rD as a source
    op_cv_bitmanip,  // xcvbitmanip: rm = cv_bit_fn, imm = Is3 << 5 | Is2, rs3 = rD as a source
    op_illegal,
    op_count
};

// Cost classes: each maps to one core.cpi_* key.
enum cost_class : std::uint8_t {
    cc_alu,
    cc_mul,
    cc_div,
    cc_branch,
    cc_jump,
    cc_load,
    cc_store,
    cc_fpu,
    cc_fdiv,
    cc_amo,
    cc_count
};

// Cycles per cost class plus the extra cycles of a taken branch, CV32E40P's
// (timing.h has the rules beyond one cost per class). cpi[cc_div] is the
// divider's minimum, cpi[cc_fdiv] the FPU's busy time after FDIV/FSQRT.
struct cost_table {
    std::uint8_t cpi[cc_count] = {1, 1, 3, 1, 2, 1, 1, 1, 19, 2};
    std::uint8_t mulh = 5;                 // MULH/MULHSU/MULHU (cpi[cc_mul]: MUL)
    std::uint32_t branch_taken_extra = 2;  // cpi_branch_taken - cpi_branch

    // Tables that decode alike (harts may share decoded blocks, core.cpp).
    friend bool operator==(const cost_table& a, const cost_table& b) {
        for (unsigned c = 0; c < cc_count; ++c)
            if (a.cpi[c] != b.cpi[c]) return false;
        return a.mulh == b.mulh && a.branch_taken_extra == b.branch_taken_extra;
    }
    friend bool operator!=(const cost_table& a, const cost_table& b) { return !(a == b); }
};

// Index of the integer register that absorbs writes to x0.
inline constexpr unsigned x_sink = 32;

struct insn {
    std::uint8_t op;    // enum op
    std::uint8_t rd;    // integer rd (x0 -> x_sink) or float rd
    std::uint8_t rs1;
    std::uint8_t rs2;
    std::uint8_t rs3;   // fused multiply-add third operand; CSR: funct3
    std::uint8_t rm;    // F rounding-mode field (7 = dynamic)
    std::uint8_t cost;  // base cycles (cost_table at decode time)
    // Two fields in one byte, so the slot stays 16 bytes: the slots (halfwords)
    // to the next instruction (2, or 1 for a 16-bit one) and the cost_class,
    // which the per-class instruction counters (energy) index.
    std::uint8_t len : 2;
    std::uint8_t cls : 6;
    std::int32_t imm;   // immediate; in-block branch/jal: distance in slots; CSR: number
    std::uint32_t aux;  // loads/stores/AMO: the slot's PC; jal/jalr: link value; lui/auipc:
                        // result; everything else: the raw instruction bits (for mtval)
};
static_assert(sizeof(insn) == 16, "decoded slots are 16 bytes: 4 per cache line");

// Optional ISA extensions (core.isa_extensions): bit set = present. Without
// C, 16-bit encodings are illegal and jump targets must be 4-byte aligned.
enum isa_ext : std::uint32_t {
    ext_c = 1u << 0,
    ext_xcvmem = 1u << 1,
    ext_xcvmac = 1u << 2,
    ext_xcvalu = 1u << 3,
    ext_xcvbi = 1u << 4,
    ext_xcvelw = 1u << 5,
    ext_xcvsimd = 1u << 6,
    ext_xcvbitmanip = 1u << 7,
    ext_all = ext_c | ext_xcvmem | ext_xcvmac | ext_xcvalu | ext_xcvbi | ext_xcvelw | ext_xcvsimd | ext_xcvbitmanip,
};

// Decodes the instruction `raw` found at `pc` (a 16-bit one in the low half,
// the upper half then ignored). The block [block_start, block_start + block_len)
// is the decoded block holding the slot: branches and jal whose target lies
// inside it get a slot distance, others become the *_far forms. `ext`: the
// isa_ext bits of the hart.
insn decode(std::uint32_t raw, std::uint32_t pc, std::uint32_t block_start, std::uint32_t block_len,
            const cost_table& costs, std::uint32_t ext);

// The CORE-V instructions (custom-0/1/2/3 opcodes) of the extensions in `ext`
// into `out`; false: not one of them (illegal). ialign_mask: 1 with C, else 3.
bool decode_xcv(std::uint32_t raw, std::uint32_t pc, std::uint32_t block_start, std::uint32_t block_len,
                const cost_table& costs, std::uint32_t ext, std::uint32_t ialign_mask, insn& out);

// The 32-bit instruction a 16-bit RVC one (RV32C + Zcf) stands for, or 0 if
// `c` is reserved or illegal on RV32IMAFC (0 is no valid 32-bit encoding).
std::uint32_t expand_rvc(std::uint16_t c);

// Length in bytes of the instruction whose low halfword is `lo`.
inline unsigned insn_bytes(std::uint32_t lo) { return (lo & 3) == 3 ? 4 : 2; }

// Mnemonic of an opcode (disassembly-free tracing and tests).
const char* op_name(std::uint8_t o);

}  // namespace npu::cpu
