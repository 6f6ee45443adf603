// The RV32IMAFC interpreter loop, parameterised by a memory policy so the
// same engine runs under SystemC (core.cpp: DMI fast path + TLM slow path)
// and in SystemC-free unit tests (a flat array).
//
// A memory policy `Mem` provides (all called on this hart's behalf):
//   bool code_window(uint32_t pc, uint64_t& start, uint64_t& len, const unsigned char*& host);
//       host memory holding pc (for decoding); false = fetch access fault
//   template <class T> bool load(uint32_t addr, T& value, uint64_t& cycles, uint32_t pc);
//   template <class T> bool store(uint32_t addr, T value, uint64_t& cycles, uint32_t pc);
//       false = bus error; `cycles` gets the access latency added
//   bool split_misaligned() const;
//   bool trace(uint32_t pc, const insn&, const hart_state&, uint64_t cycles);   (only for run<Mem, true>)
//       `cycles`: the hart's cycle count as the instruction starts;
//       true = stop before this instruction (stop::debug)
// Loads and stores are inline templates, so the fast path of the policy is
// compiled into the dispatch loop: no virtual call per access.
//
// run() executes until the first taken branch/jump at or after
// h.cycle_limit, or until an event the caller must handle (see `stop`).
// The Exact and Trace instantiations also stop before the first instruction
// that would start at or after `exact_limit` (stop::watchdog): a test per
// instruction the normal loop does not pay, so the core runs them only for
// the stretch that ends at the watchdog (soc.max_cycles).
// Cost accounting: each slot's base cost is charged when it is dispatched;
// taken branches add cost_table::branch_taken_extra; memory latency comes
// from the policy.
#pragma once

#include "cv_ops.h"
#include "decode_cache.h"
#include "fpu.h"
#include "hart.h"
#include "isa.h"
#include "timing.h"

#include <climits>
#include <cstring>

namespace npu::cpu {

enum class stop {
    limit,      // cycle limit reached; h.pc is the next instruction
    exception,  // h.pc = faulting instruction, h.exc_cause/exc_tval set, nothing committed
    wfi,        // WFI executed; h.pc is the next instruction
    resync,     // a CSR write / mret may have changed interrupt state: check and re-enter
    debug,      // trace() asked to stop (a debugger): h.pc is the next instruction, not executed
    watchdog,   // exact_limit reached (Exact/Trace only); h.pc is the next instruction, not executed
};

namespace detail {

template <class Mem>
bool load_split(Mem& mem, std::uint32_t a, unsigned size, std::uint32_t& v, std::uint64_t& cyc, std::uint32_t pc) {
    v = 0;
    for (unsigned k = 0; k < size; ++k) {
        std::uint8_t b;
        if (!mem.template load<std::uint8_t>(a + k, b, cyc, pc)) return false;
        v |= static_cast<std::uint32_t>(b) << (8 * k);
    }
    ++cyc;  // the split costs one extra cycle (core.misaligned = split)
    return true;
}

// The bits of the instruction at p (16-bit ones in the low half). A 32-bit
// instruction in the last halfword of the block's window takes its upper half
// from the window holding p + 2; false if there is none (a fetch fault there).
template <class Mem>
bool fetch_insn(Mem& mem, const decode_cache::block& b, std::uint32_t p, std::uint32_t& raw) {
    const std::uint32_t off = p - b.start;
    std::uint16_t lo, hi;
    std::memcpy(&lo, b.host + off, 2);
    raw = lo;
    if (insn_bytes(lo) == 2) return true;
    if (off + 4 <= b.avail) {
        std::memcpy(&hi, b.host + off + 2, 2);
    } else {
        std::uint64_t ws, wl;
        const unsigned char* host;
        if (!mem.code_window(p + 2, ws, wl, host)) return false;
        std::memcpy(&hi, host + (p + 2 - ws), 2);
    }
    raw |= static_cast<std::uint32_t>(hi) << 16;
    return true;
}

// CORE-V loads/stores of a size known only at run time (slot rm): 0 done,
// 1 misaligned (trap), 2 bus error.
template <class T, class Mem>
int cv_load_as(Mem& mem, std::uint32_t a, std::uint32_t& v, std::uint64_t& cyc, std::uint32_t pc);
template <class Mem>
int cv_load(Mem& mem, std::uint32_t a, unsigned kind, std::uint32_t& v, std::uint64_t& cyc, std::uint32_t pc) {
    switch (kind) {
    case cv_lb: return cv_load_as<std::int8_t>(mem, a, v, cyc, pc);
    case cv_lh: return cv_load_as<std::int16_t>(mem, a, v, cyc, pc);
    case cv_lbu: return cv_load_as<std::uint8_t>(mem, a, v, cyc, pc);
    case cv_lhu: return cv_load_as<std::uint16_t>(mem, a, v, cyc, pc);
    default: return cv_load_as<std::uint32_t>(mem, a, v, cyc, pc);
    }
}
template <class Mem>
int cv_store(Mem& mem, std::uint32_t a, unsigned size, std::uint32_t v, std::uint64_t& cyc, std::uint32_t pc);

// Decodes the slot after a load ahead of its execution, so the load can see
// whether it reads the loaded register (timing.h, load-use). A slot that
// cannot be fetched stays undecoded: its execution reports the fault.
template <class Mem>
__attribute__((noinline)) void decode_ahead(Mem& mem, const decode_cache::block& b, const insn* slot,
                                            const hart_state& h) {
    const std::uint32_t p = b.start + static_cast<std::uint32_t>(slot - b.slots) * 2u;
    std::uint32_t raw;
    if (fetch_insn(mem, b, p, raw)) *const_cast<insn*>(slot) = decode(raw, p, b.start, b.len, h.costs, h.extensions);
}

template <class Mem>
bool store_split(Mem& mem, std::uint32_t a, unsigned size, std::uint32_t v, std::uint64_t& cyc, std::uint32_t pc) {
    for (unsigned k = 0; k < size; ++k)
        if (!mem.template store<std::uint8_t>(a + k, static_cast<std::uint8_t>(v >> (8 * k)), cyc, pc)) return false;
    ++cyc;
    return true;
}

template <class T, class Mem>
int cv_load_as(Mem& mem, std::uint32_t a, std::uint32_t& v, std::uint64_t& cyc, std::uint32_t pc) {
    if (a & (sizeof(T) - 1)) {
        if (!mem.split_misaligned()) return 1;
        if (!load_split(mem, a, sizeof(T), v, cyc, pc)) return 2;
        v = static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<T>(v)));
        return 0;
    }
    T t;
    if (!mem.template load<T>(a, t, cyc, pc)) return 2;
    v = static_cast<std::uint32_t>(static_cast<std::int32_t>(t));
    return 0;
}

template <class Mem>
int cv_store(Mem& mem, std::uint32_t a, unsigned size, std::uint32_t v, std::uint64_t& cyc, std::uint32_t pc) {
    if (a & (size - 1)) {
        if (!mem.split_misaligned()) return 1;
        return store_split(mem, a, size, v, cyc, pc) ? 0 : 2;
    }
    bool ok;
    switch (size) {
    case 1: ok = mem.template store<std::uint8_t>(a, static_cast<std::uint8_t>(v), cyc, pc); break;
    case 2: ok = mem.template store<std::uint16_t>(a, static_cast<std::uint16_t>(v), cyc, pc); break;
    default: ok = mem.template store<std::uint32_t>(a, v, cyc, pc); break;
    }
    return ok ? 0 : 2;
}

}  // namespace detail

// Trace = true calls mem.trace() before every instruction, which may stop
// the run there; it is a separate instantiation so the normal loop carries
// no test for it. Exact = true only adds the exact_limit test.
template <class Mem, bool Trace = false, bool Exact = false>
stop run(hart_state& h, Mem& mem, decode_cache& dc, std::uint64_t exact_limit = UINT64_MAX) {
    // Must list the labels in enum op order.
    static const void* const labels[op_count] = {
        &&L_decode, &&L_block_end, &&L_lui,      &&L_auipc,     &&L_jal,       &&L_jal_far,    &&L_jalr,  &&L_beq,
        &&L_bne,    &&L_blt,       &&L_bge,      &&L_bltu,      &&L_bgeu,      &&L_branch_far, &&L_lb,    &&L_lh,
        &&L_lw,     &&L_lbu,       &&L_lhu,      &&L_sb,        &&L_sh,        &&L_sw,         &&L_addi,  &&L_slti,
        &&L_sltiu,  &&L_xori,      &&L_ori,      &&L_andi,      &&L_slli,      &&L_srli,       &&L_srai,  &&L_add,
        &&L_sub,    &&L_sll,       &&L_slt,      &&L_sltu,      &&L_xor,       &&L_srl,        &&L_sra,   &&L_or,
        &&L_and,    &&L_fence,     &&L_fence_i,  &&L_ecall,     &&L_ebreak,    &&L_mret,       &&L_wfi,   &&L_csr,
        &&L_mul,    &&L_mulh,      &&L_mulhsu,   &&L_mulhu,     &&L_div,       &&L_divu,       &&L_rem,   &&L_remu,
        &&L_lr,     &&L_sc,        &&L_amoswap,  &&L_amoadd,    &&L_amoxor,    &&L_amoand,     &&L_amoor, &&L_amomin,
        &&L_amomax, &&L_amominu,   &&L_amomaxu,  &&L_flw,       &&L_fsw,       &&L_fmadd,      &&L_fmsub, &&L_fnmsub,
        &&L_fnmadd, &&L_fadd,      &&L_fsub,     &&L_fmul,      &&L_fdiv,      &&L_fsqrt,      &&L_fsgnj, &&L_fsgnjn,
        &&L_fsgnjx, &&L_fmin,      &&L_fmax,     &&L_fcvt_w_s,  &&L_fcvt_wu_s, &&L_fmv_x_w,    &&L_feq,   &&L_flt,
        &&L_fle,    &&L_fclass,    &&L_fcvt_s_w, &&L_fcvt_s_wu, &&L_fmv_w_x,   &&L_cv_load,    &&L_cv_store,
        &&L_cv_alu, &&L_cv_mac,    &&L_cv_beqimm, &&L_cv_bneimm, &&L_cv_bimm_far, &&L_cv_simd,     &&L_cv_bitmanip,
        &&L_illegal,
    };

    std::uint32_t* const x = h.x;
    std::uint32_t* const f = h.f;
    reservation_set& rs = *h.reservations;  // the SoC's (every hart belongs to one)
    const std::uint32_t taken_extra = h.costs.branch_taken_extra;
    // IALIGN 16 with C (only odd targets trap), else 32.
    const std::uint32_t ialign_mask = (h.extensions & ext_c) ? 1 : 3;
    // Kept in a register: never pass it by reference to a function that is
    // not inlined (hand it a copy), or it lives in memory and every
    // instruction's cost becomes a store and reload.
    std::uint64_t cyc = h.cycle;
    std::uint64_t n = h.instret;
    std::uint64_t taken = 0;
    std::uint64_t* const ring = h.branch_ring;
    std::uint64_t nb = h.branch_count;
    decode_cache::block* blk = nullptr;
    const insn* ip = nullptr;
    stop result;
    // Where the straight-line run of fetched instructions began (NPU_FETCH).
    const bool fetch_on = h.fetch.cache != nullptr;
    std::uint32_t fetch_from = h.pc;

// Instruction fetch is charged where a straight-line run ends (a taken
// transfer, a trap, the end of the batch: NPU_FETCH), in every variant: a
// per-instruction charge in Trace and Exact moved their loads and stores,
// and the batch ends, to other cycles than the normal loop's, so that
// tracing a run (--itrace, a debugger) changed its cycles under contention.
// The instruction cache's lookups then also happen in the same order
// relative to other harts'. A trace's start cycle of an instruction
// therefore excludes the misses of the run it is in; they show on the
// instruction after the run (docs/debugging.md).
#define NPU_DISPATCH()                                                \
    do {                                                              \
        if constexpr (Trace || Exact)                                 \
            if (cyc >= exact_limit && !mem.stop_requested()) {        \
                h.pc = NPU_PC(ip);                                    \
                result = stop::watchdog;                              \
                goto out;                                             \
            }                                                         \
        if constexpr (Trace)                                          \
            if (ip->op > op_block_end && mem.trace(NPU_PC(ip), *ip, h, cyc)) { \
                h.pc = NPU_PC(ip);                                    \
                result = stop::debug;                                 \
                goto out;                                             \
            }                                                         \
        cyc += ip->cost;                                              \
        ++n;                                                          \
        ++h.class_insns[ip->cls];                                     \
        goto* labels[ip->op];                                         \
    } while (0)
#define NPU_NEXT()      \
    do {                \
        ip += ip->len;  \
        NPU_DISPATCH(); \
    } while (0)
#define NPU_PC(p) (blk->start + static_cast<std::uint32_t>((p) - blk->slots) * 2u)
// Synchronous exception at the current slot: it does not retire.
#define NPU_RAISE(c, tval)      \
    do {                        \
        h.exc_cause = (c);      \
        h.exc_tval = (tval);    \
        h.exc_from_bus = false; \
        goto raise;             \
    } while (0)
#define NPU_BUS_FAULT(c, addr, size) \
    do {                             \
        h.exc_cause = (c);           \
        h.exc_tval = (addr);         \
        h.exc_from_bus = true;       \
        h.exc_size = (size);         \
        goto raise;                  \
    } while (0)
// After a taken in-block transfer (ip already at the target).
#define NPU_TAKEN()                                      \
    do {                                                 \
        if (__builtin_expect(cyc >= h.cycle_limit, 0)) { \
            h.pc = NPU_PC(ip);                           \
            result = stop::limit;                        \
            goto out;                                    \
        }                                                \
        NPU_DISPATCH();                                  \
    } while (0)
// After a transfer to h.pc outside the current block.
#define NPU_FAR()                                        \
    do {                                                 \
        if (__builtin_expect(cyc >= h.cycle_limit, 0)) { \
            result = stop::limit;                        \
            goto out;                                    \
        }                                                \
        goto resolve;                                    \
    } while (0)
// Instruction fetch (icache.h): charges the straight-line run from
// fetch_from to the byte `last`, which ends it, and starts the next at `next`.
#define NPU_FETCH(last, next)                                                      \
    do {                                                                           \
        if (fetch_on && !h.fetch.in_line(fetch_from, (last)))                      \
            cyc += h.fetch.run(fetch_from, (last));                                \
        fetch_from = (next);                                                       \
    } while (0)
// Records a taken transfer (ip) in the hart's branch ring (one store) and
// ends the fetch run there.
#define NPU_NOTE(from, to)                                                                   \
    do {                                                                                     \
        NPU_FETCH((from) + 2u * ip->len - 1u, (to));                                         \
        ring[nb++ & (hart_state::branch_ring_size - 1)] = std::uint64_t(from) << 32 | (to); \
    } while (0)
#define NPU_BRANCH(cond)                                                                 \
    do {                                                                                 \
        if (cond) {                                                                      \
            cyc += taken_extra;                                                          \
            ++taken;                                                                     \
            NPU_NOTE(NPU_PC(ip), NPU_PC(ip) + static_cast<std::uint32_t>(ip->imm) * 2u); \
            ip += ip->imm;                                                               \
            NPU_TAKEN();                                                                 \
        }                                                                                \
        NPU_NEXT();                                                                      \
    } while (0)
#define NPU_LOAD(T, EXT)                                                          \
    do {                                                                          \
        const std::uint32_t a = x[ip->rs1] + static_cast<std::uint32_t>(ip->imm); \
        std::uint32_t v;                                                          \
        if (__builtin_expect(a & (sizeof(T) - 1), 0)) {                           \
            if (!mem.split_misaligned()) NPU_RAISE(cause_misaligned_load, a);     \
            if (!detail::load_split(mem, a, sizeof(T), v, cyc, ip->aux))          \
                NPU_BUS_FAULT(cause_load_access, a, sizeof(T));                   \
            v = static_cast<std::uint32_t>(EXT(static_cast<T>(v)));               \
        } else {                                                                  \
            T t;                                                                  \
            if (__builtin_expect(!mem.template load<T>(a, t, cyc, ip->aux), 0))   \
                NPU_BUS_FAULT(cause_load_access, a, sizeof(T));                   \
            v = static_cast<std::uint32_t>(EXT(t));                               \
        }                                                                         \
        x[ip->rd] = v;                                                            \
        NPU_LOAD_USE(reads_x);                                                    \
        NPU_NEXT();                                                               \
    } while (0)
// The load-use stall (timing.h): one cycle when the next instruction reads
// the register just loaded; `READS` is timing::reads_x or reads_f.
#define NPU_LOAD_USE(READS)                                                                            \
    do {                                                                                               \
        const insn* nx_ = ip + ip->len;                                                                \
        if (__builtin_expect(nx_->op == op_decode, 0)) detail::decode_ahead(mem, *blk, nx_, h);        \
        const std::uint32_t stall_ = timing::READS(*nx_, ip->rd);                                      \
        cyc += stall_;                                                                                 \
        h.load_use_stalls += stall_;                                                                   \
    } while (0)
#define NPU_STORE(T, VAL)                                                                             \
    do {                                                                                              \
        const std::uint32_t a = x[ip->rs1] + static_cast<std::uint32_t>(ip->imm);                     \
        const std::uint32_t v = (VAL);                                                                \
        if (__builtin_expect(a & (sizeof(T) - 1), 0)) {                                               \
            if (!mem.split_misaligned()) NPU_RAISE(cause_misaligned_store, a);                        \
            if (!detail::store_split(mem, a, sizeof(T), v, cyc, ip->aux))                             \
                NPU_BUS_FAULT(cause_store_access, a, sizeof(T));                                      \
        } else if (__builtin_expect(!mem.template store<T>(a, static_cast<T>(v), cyc, ip->aux), 0)) { \
            NPU_BUS_FAULT(cause_store_access, a, sizeof(T));                                          \
        }                                                                                             \
        if (__builtin_expect(rs.valid != 0, 0)) rs.on_store(a, sizeof(T));                            \
        NPU_NEXT();                                                                                   \
    } while (0)
#define NPU_AMO(EXPR)                                                                                         \
    do {                                                                                                      \
        const std::uint32_t a = x[ip->rs1];                                                                   \
        if (a & 3) NPU_RAISE(cause_misaligned_store, a);                                                      \
        std::uint32_t old;                                                                                    \
        if (!mem.template load<std::uint32_t>(a, old, cyc, ip->aux)) NPU_BUS_FAULT(cause_store_access, a, 4); \
        const std::uint32_t src = x[ip->rs2];                                                                 \
        const std::uint32_t nv = (EXPR);                                                                      \
        if (!mem.template store<std::uint32_t>(a, nv, cyc, ip->aux)) NPU_BUS_FAULT(cause_store_access, a, 4); \
        rs.on_store(a, 4);                                                                                    \
        x[ip->rd] = old;                                                                                      \
        NPU_NEXT();                                                                                           \
    } while (0)
// The divider's cycles beyond core.cpi_div (timing.h): the divisor's leading zeros.
#define NPU_DIV_TIME(divisor)                                         \
    do {                                                              \
        const std::uint32_t extra_ = timing::div_extra(divisor);      \
        cyc += extra_;                                                \
        h.div_extra_cycles += extra_;                                 \
        ++h.div_ops;                                                  \
    } while (0)
#define NPU_FP_ON() \
    if (__builtin_expect(!(h.mstatus & mstatus_bits::fs), 0)) goto illegal
#define NPU_FP_RM(var)             \
    unsigned var = ip->rm;         \
    if (var == 7) {                \
        var = h.frm;               \
        if (var > 4) goto illegal; \
    }
// An FPU instruction (or fsw) starts no earlier than the FPU is free of an
// FDIV/FSQRT (timing.h); ip->cost is already in cyc.
#define NPU_FPU_WAIT()                                                                        \
    do {                                                                                      \
        const std::uint64_t start_ = cyc - ip->cost;                                          \
        const std::uint64_t wait_ = h.fpu_free > start_ ? h.fpu_free - start_ : 0;           \
        cyc += wait_;                                                                         \
        h.fpu_wait_cycles += wait_;                                                           \
    } while (0)
#define NPU_FP_DONE(fl)                      \
    do {                                     \
        NPU_FPU_WAIT();                      \
        h.fflags |= (fl);                    \
        h.mstatus |= mstatus_bits::fs_dirty; \
        NPU_NEXT();                          \
    } while (0)
// FDIV/FSQRT: the FPU is busy for cost_table::cpi[cc_fdiv] cycles from its issue.
#define NPU_FP_DIV_DONE(fl)                                   \
    do {                                                      \
        NPU_FPU_WAIT();                                       \
        h.fpu_free = cyc - ip->cost + h.costs.cpi[cc_fdiv];   \
        h.fflags |= (fl);                                     \
        h.mstatus |= mstatus_bits::fs_dirty;                  \
        NPU_NEXT();                                           \
    } while (0)

resolve:
    if (__builtin_expect(h.pc & ialign_mask, 0)) {
        // Only reachable through mepc/mtvec values; jumps check their targets.
        result = stop::exception;
        h.exc_cause = cause_misaligned_fetch;
        h.exc_tval = h.pc;
        h.exc_from_bus = false;
        goto out;
    }
    blk = dc.find(h.pc);
    if (!blk) {
        std::uint64_t ws, wl;
        const unsigned char* host;
        if (!mem.code_window(h.pc, ws, wl, host)) {
            h.exc_cause = cause_fetch_access;
            h.exc_tval = h.pc;
            h.exc_from_bus = true;
            h.exc_size = 4;
            result = stop::exception;
            goto out;
        }
        blk = dc.create(h.pc, ws, wl, host);
    }
    ip = blk->slots + (h.pc - blk->start) / 2;
    NPU_DISPATCH();

L_decode: {
    --n;  // the undecoded slot is not an instruction
    --h.class_insns[ip->cls];
    const std::uint32_t p = NPU_PC(ip);
    std::uint32_t raw;
    if (!detail::fetch_insn(mem, *blk, p, raw)) {
        // The upper half of a 32-bit instruction lies where nothing executes.
        h.exc_cause = cause_fetch_access;
        h.exc_tval = p + 2;
        h.exc_from_bus = true;
        h.exc_size = 2;
        h.pc = p;
        result = stop::exception;
        goto out;
    }
    *const_cast<insn*>(ip) = decode(raw, p, blk->start, blk->len, h.costs, h.extensions);
    NPU_DISPATCH();
}
L_block_end:
    --n;
    --h.class_insns[ip->cls];
    h.pc = NPU_PC(ip);
    goto resolve;

L_lui:
L_auipc:
    x[ip->rd] = ip->aux;
    NPU_NEXT();
L_jal:
    x[ip->rd] = ip->aux;
    NPU_NOTE(NPU_PC(ip), NPU_PC(ip) + static_cast<std::uint32_t>(ip->imm) * 2u);
    ip += ip->imm;
    NPU_TAKEN();
L_jal_far: {
    const std::uint32_t t = static_cast<std::uint32_t>(ip->imm);
    if (t & ialign_mask) NPU_RAISE(cause_misaligned_fetch, t);
    x[ip->rd] = ip->aux;
    NPU_NOTE(NPU_PC(ip), t);
    h.pc = t;
    NPU_FAR();
}
L_jalr: {
    const std::uint32_t t = (x[ip->rs1] + static_cast<std::uint32_t>(ip->imm)) & ~1u;
    if (t & ialign_mask) NPU_RAISE(cause_misaligned_fetch, t);
    x[ip->rd] = ip->aux;
    NPU_NOTE(NPU_PC(ip), t);
    const std::uint32_t off = t - blk->start;
    if (off < blk->len) {
        ip = blk->slots + off / 2;
        NPU_TAKEN();
    }
    h.pc = t;
    NPU_FAR();
}
L_beq:
    NPU_BRANCH(x[ip->rs1] == x[ip->rs2]);
L_bne:
    NPU_BRANCH(x[ip->rs1] != x[ip->rs2]);
L_blt:
    NPU_BRANCH(static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]));
L_bge:
    NPU_BRANCH(static_cast<std::int32_t>(x[ip->rs1]) >= static_cast<std::int32_t>(x[ip->rs2]));
L_bltu:
    NPU_BRANCH(x[ip->rs1] < x[ip->rs2]);
L_bgeu:
    NPU_BRANCH(x[ip->rs1] >= x[ip->rs2]);
L_branch_far: {
    const std::uint32_t a = x[ip->rs1], b = x[ip->rs2];
    bool c;
    switch (ip->rs3) {
    case 0: c = a == b; break;
    case 1: c = a != b; break;
    case 4: c = static_cast<std::int32_t>(a) < static_cast<std::int32_t>(b); break;
    case 5: c = static_cast<std::int32_t>(a) >= static_cast<std::int32_t>(b); break;
    case 6: c = a < b; break;
    default: c = a >= b; break;
    }
    if (!c) NPU_NEXT();
    const std::uint32_t t = static_cast<std::uint32_t>(ip->imm);
    if (t & ialign_mask) NPU_RAISE(cause_misaligned_fetch, t);
    cyc += taken_extra;
    ++taken;
    NPU_NOTE(NPU_PC(ip), t);
    h.pc = t;
    NPU_FAR();
}

L_lb:
    NPU_LOAD(std::int8_t, static_cast<std::int32_t>);
L_lh:
    NPU_LOAD(std::int16_t, static_cast<std::int32_t>);
L_lw:
    NPU_LOAD(std::uint32_t, static_cast<std::uint32_t>);
L_lbu:
    NPU_LOAD(std::uint8_t, static_cast<std::uint32_t>);
L_lhu:
    NPU_LOAD(std::uint16_t, static_cast<std::uint32_t>);
L_sb:
    NPU_STORE(std::uint8_t, x[ip->rs2]);
L_sh:
    NPU_STORE(std::uint16_t, x[ip->rs2]);
L_sw:
    NPU_STORE(std::uint32_t, x[ip->rs2]);

L_addi:
    x[ip->rd] = x[ip->rs1] + static_cast<std::uint32_t>(ip->imm);
    NPU_NEXT();
L_slti:
    x[ip->rd] = static_cast<std::int32_t>(x[ip->rs1]) < ip->imm;
    NPU_NEXT();
L_sltiu:
    x[ip->rd] = x[ip->rs1] < static_cast<std::uint32_t>(ip->imm);
    NPU_NEXT();
L_xori:
    x[ip->rd] = x[ip->rs1] ^ static_cast<std::uint32_t>(ip->imm);
    NPU_NEXT();
L_ori:
    x[ip->rd] = x[ip->rs1] | static_cast<std::uint32_t>(ip->imm);
    NPU_NEXT();
L_andi:
    x[ip->rd] = x[ip->rs1] & static_cast<std::uint32_t>(ip->imm);
    NPU_NEXT();
L_slli:
    x[ip->rd] = x[ip->rs1] << ip->imm;
    NPU_NEXT();
L_srli:
    x[ip->rd] = x[ip->rs1] >> ip->imm;
    NPU_NEXT();
L_srai:
    x[ip->rd] = static_cast<std::uint32_t>(static_cast<std::int32_t>(x[ip->rs1]) >> ip->imm);
    NPU_NEXT();
L_add:
    x[ip->rd] = x[ip->rs1] + x[ip->rs2];
    NPU_NEXT();
L_sub:
    x[ip->rd] = x[ip->rs1] - x[ip->rs2];
    NPU_NEXT();
L_sll:
    x[ip->rd] = x[ip->rs1] << (x[ip->rs2] & 31);
    NPU_NEXT();
L_slt:
    x[ip->rd] = static_cast<std::int32_t>(x[ip->rs1]) < static_cast<std::int32_t>(x[ip->rs2]);
    NPU_NEXT();
L_sltu:
    x[ip->rd] = x[ip->rs1] < x[ip->rs2];
    NPU_NEXT();
L_xor:
    x[ip->rd] = x[ip->rs1] ^ x[ip->rs2];
    NPU_NEXT();
L_srl:
    x[ip->rd] = x[ip->rs1] >> (x[ip->rs2] & 31);
    NPU_NEXT();
L_sra:
    x[ip->rd] = static_cast<std::uint32_t>(static_cast<std::int32_t>(x[ip->rs1]) >> (x[ip->rs2] & 31));
    NPU_NEXT();
L_or:
    x[ip->rd] = x[ip->rs1] | x[ip->rs2];
    NPU_NEXT();
L_and:
    x[ip->rd] = x[ip->rs1] & x[ip->rs2];
    NPU_NEXT();

L_fence:
    NPU_NEXT();
L_fence_i:
    h.pc = NPU_PC(ip) + 2u * ip->len;
    dc.flush();
    blk = nullptr;
    goto resolve;
L_ecall:
    NPU_RAISE(h.priv == privilege::user ? cause_ecall_u : cause_ecall_m, 0);
L_ebreak:
    NPU_RAISE(cause_breakpoint, NPU_PC(ip));
L_mret:
    if (h.priv != privilege::machine) goto illegal;
    NPU_FETCH(NPU_PC(ip) + 2u * ip->len - 1u, h.mepc);
    exec_mret(h);
    result = stop::resync;
    goto out;
L_wfi:
    // Like Spike: WFI is M-mode only here (no S-mode, TW irrelevant).
    if (h.priv != privilege::machine) goto illegal;
    h.pc = NPU_PC(ip) + 2u * ip->len;
    result = stop::wfi;
    goto out;
L_csr: {
    // exec_csr sees the counters as retired before this instruction, its
    // own fetch included.
    NPU_FETCH(NPU_PC(ip) + 2u * ip->len - 1u, NPU_PC(ip) + 2u * ip->len);
    h.cycle = cyc;
    h.instret = n - 1;
    bool resync = false;
    const bool ok = exec_csr(h, *ip, resync);
    cyc = h.cycle;
    n = h.instret + 1;
    if (!ok) goto illegal;
    if (resync) {
        h.pc = NPU_PC(ip) + 2u * ip->len;
        result = stop::resync;
        goto out;
    }
    NPU_NEXT();
}

L_mul:
    x[ip->rd] = x[ip->rs1] * x[ip->rs2];
    NPU_NEXT();
L_mulh:
    x[ip->rd] = static_cast<std::uint32_t>((static_cast<std::int64_t>(static_cast<std::int32_t>(x[ip->rs1])) *
                                            static_cast<std::int64_t>(static_cast<std::int32_t>(x[ip->rs2]))) >>
                                           32);
    NPU_NEXT();
L_mulhsu:
    x[ip->rd] = static_cast<std::uint32_t>(
        (static_cast<std::int64_t>(static_cast<std::int32_t>(x[ip->rs1])) * static_cast<std::int64_t>(x[ip->rs2])) >>
        32);
    NPU_NEXT();
L_mulhu:
    x[ip->rd] = static_cast<std::uint32_t>((static_cast<std::uint64_t>(x[ip->rs1]) * x[ip->rs2]) >> 32);
    NPU_NEXT();
L_div: {
    const std::int32_t a = static_cast<std::int32_t>(x[ip->rs1]), b = static_cast<std::int32_t>(x[ip->rs2]);
    NPU_DIV_TIME(timing::magnitude(x[ip->rs2]));
    x[ip->rd] = b == 0                      ? 0xffffffffu
                : (a == INT_MIN && b == -1) ? static_cast<std::uint32_t>(a)
                                            : static_cast<std::uint32_t>(a / b);
    NPU_NEXT();
}
L_divu: {
    const std::uint32_t a = x[ip->rs1], b = x[ip->rs2];
    NPU_DIV_TIME(b);
    x[ip->rd] = b == 0 ? 0xffffffffu : a / b;
    NPU_NEXT();
}
L_rem: {
    const std::int32_t a = static_cast<std::int32_t>(x[ip->rs1]), b = static_cast<std::int32_t>(x[ip->rs2]);
    NPU_DIV_TIME(timing::magnitude(x[ip->rs2]));
    x[ip->rd] = b == 0                      ? static_cast<std::uint32_t>(a)
                : (a == INT_MIN && b == -1) ? 0u
                                            : static_cast<std::uint32_t>(a % b);
    NPU_NEXT();
}
L_remu: {
    const std::uint32_t a = x[ip->rs1], b = x[ip->rs2];
    NPU_DIV_TIME(b);
    x[ip->rd] = b == 0 ? a : a % b;
    NPU_NEXT();
}

L_lr: {
    const std::uint32_t a = x[ip->rs1];
    if (a & 3) NPU_RAISE(cause_misaligned_load, a);
    std::uint32_t v;
    if (!mem.template load<std::uint32_t>(a, v, cyc, ip->aux)) NPU_BUS_FAULT(cause_load_access, a, 4);
    rs.reserve(h.hart_id, a);
    x[ip->rd] = v;
    NPU_NEXT();
}
L_sc: {
    const std::uint32_t a = x[ip->rs1];
    if (a & 3) NPU_RAISE(cause_misaligned_store, a);
    if (!rs.consume(h.hart_id, a)) {
        x[ip->rd] = 1;
        NPU_NEXT();
    }
    if (!mem.template store<std::uint32_t>(a, x[ip->rs2], cyc, ip->aux)) NPU_BUS_FAULT(cause_store_access, a, 4);
    rs.on_store(a, 4);
    x[ip->rd] = 0;
    NPU_NEXT();
}
L_amoswap:
    NPU_AMO(src);
L_amoadd:
    NPU_AMO(old + src);
L_amoxor:
    NPU_AMO(old ^ src);
L_amoand:
    NPU_AMO(old & src);
L_amoor:
    NPU_AMO(old | src);
L_amomin:
    NPU_AMO(static_cast<std::int32_t>(old) < static_cast<std::int32_t>(src) ? old : src);
L_amomax:
    NPU_AMO(static_cast<std::int32_t>(old) > static_cast<std::int32_t>(src) ? old : src);
L_amominu:
    NPU_AMO(old < src ? old : src);
L_amomaxu:
    NPU_AMO(old > src ? old : src);

L_flw: {
    NPU_FP_ON();
    const std::uint32_t a = x[ip->rs1] + static_cast<std::uint32_t>(ip->imm);
    std::uint32_t v;
    if (__builtin_expect(a & 3, 0)) {
        if (!mem.split_misaligned()) NPU_RAISE(cause_misaligned_load, a);
        if (!detail::load_split(mem, a, 4, v, cyc, ip->aux)) NPU_BUS_FAULT(cause_load_access, a, 4);
    } else if (!mem.template load<std::uint32_t>(a, v, cyc, ip->aux)) {
        NPU_BUS_FAULT(cause_load_access, a, 4);
    }
    f[ip->rd] = v;
    h.mstatus |= mstatus_bits::fs_dirty;
    NPU_LOAD_USE(reads_f);
    NPU_NEXT();
}
L_fsw:
    NPU_FP_ON();
    NPU_FPU_WAIT();
    NPU_STORE(std::uint32_t, f[ip->rs2]);
L_fmadd: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::fma(f[ip->rs1], f[ip->rs2], f[ip->rs3], rm, fl);
    NPU_FP_DONE(fl);
}
L_fmsub: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::fma(f[ip->rs1], f[ip->rs2], f[ip->rs3] ^ 0x80000000u, rm, fl);
    NPU_FP_DONE(fl);
}
L_fnmsub: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::fma(f[ip->rs1] ^ 0x80000000u, f[ip->rs2], f[ip->rs3], rm, fl);
    NPU_FP_DONE(fl);
}
L_fnmadd: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::fma(f[ip->rs1] ^ 0x80000000u, f[ip->rs2], f[ip->rs3] ^ 0x80000000u, rm, fl);
    NPU_FP_DONE(fl);
}
L_fadd: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::add(f[ip->rs1], f[ip->rs2], rm, fl);
    NPU_FP_DONE(fl);
}
L_fsub: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::sub(f[ip->rs1], f[ip->rs2], rm, fl);
    NPU_FP_DONE(fl);
}
L_fmul: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::mul(f[ip->rs1], f[ip->rs2], rm, fl);
    NPU_FP_DONE(fl);
}
L_fdiv: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    ++h.fdiv_ops;
    f[ip->rd] = fpu::div(f[ip->rs1], f[ip->rs2], rm, fl);
    NPU_FP_DIV_DONE(fl);
}
L_fsqrt: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    ++h.fdiv_ops;
    f[ip->rd] = fpu::sqrt(f[ip->rs1], rm, fl);
    NPU_FP_DIV_DONE(fl);
}
L_fsgnj:
    NPU_FP_ON();
    f[ip->rd] = (f[ip->rs1] & 0x7fffffffu) | (f[ip->rs2] & 0x80000000u);
    NPU_FP_DONE(0);
L_fsgnjn:
    NPU_FP_ON();
    f[ip->rd] = (f[ip->rs1] & 0x7fffffffu) | (~f[ip->rs2] & 0x80000000u);
    NPU_FP_DONE(0);
L_fsgnjx:
    NPU_FP_ON();
    f[ip->rd] = f[ip->rs1] ^ (f[ip->rs2] & 0x80000000u);
    NPU_FP_DONE(0);
L_fmin: {
    NPU_FP_ON();
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::min(f[ip->rs1], f[ip->rs2], fl);
    NPU_FP_DONE(fl);
}
L_fmax: {
    NPU_FP_ON();
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::max(f[ip->rs1], f[ip->rs2], fl);
    NPU_FP_DONE(fl);
}
L_fcvt_w_s: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    x[ip->rd] = fpu::cvt_w_s(f[ip->rs1], rm, fl);
    NPU_FP_DONE(fl);
}
L_fcvt_wu_s: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    x[ip->rd] = fpu::cvt_wu_s(f[ip->rs1], rm, fl);
    NPU_FP_DONE(fl);
}
L_fmv_x_w:
    NPU_FP_ON();
    x[ip->rd] = f[ip->rs1];
    NPU_FP_DONE(0);
L_feq: {
    NPU_FP_ON();
    std::uint32_t fl = 0;
    x[ip->rd] = fpu::eq(f[ip->rs1], f[ip->rs2], fl);
    NPU_FP_DONE(fl);
}
L_flt: {
    NPU_FP_ON();
    std::uint32_t fl = 0;
    x[ip->rd] = fpu::lt(f[ip->rs1], f[ip->rs2], fl);
    NPU_FP_DONE(fl);
}
L_fle: {
    NPU_FP_ON();
    std::uint32_t fl = 0;
    x[ip->rd] = fpu::le(f[ip->rs1], f[ip->rs2], fl);
    NPU_FP_DONE(fl);
}
L_fclass:
    NPU_FP_ON();
    x[ip->rd] = fpu::classify(f[ip->rs1]);
    NPU_FP_DONE(0);
L_fcvt_s_w: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::cvt_s_w(x[ip->rs1], rm, fl);
    NPU_FP_DONE(fl);
}
L_fcvt_s_wu: {
    NPU_FP_ON();
    NPU_FP_RM(rm);
    std::uint32_t fl = 0;
    f[ip->rd] = fpu::cvt_s_wu(x[ip->rs1], rm, fl);
    NPU_FP_DONE(fl);
}
L_fmv_w_x:
    NPU_FP_ON();
    f[ip->rd] = x[ip->rs1];
    NPU_FP_DONE(0);

// CORE-V. Post-increment forms write the incremented base after the access
// (a load into rd = rs1 keeps the loaded value); x0 as a base stays 0.
L_cv_load: {
    const std::uint32_t base = x[ip->rs1];
    const std::uint32_t off = ip->rs3 == cv_post_imm ? static_cast<std::uint32_t>(ip->imm) : x[ip->rs2];
    const std::uint32_t a = ip->rs3 == cv_reg_reg ? base + off : base;
    std::uint32_t v;
    std::uint64_t c = cyc;  // a copy: see cyc above
    const int r = detail::cv_load(mem, a, ip->rm, v, c, ip->aux);
    cyc = c;
    if (r == 1) NPU_RAISE(cause_misaligned_load, a);
    if (r == 2) NPU_BUS_FAULT(cause_load_access, a, 1u << (ip->rm & 3));
    if (ip->rs3 != cv_reg_reg) {
        x[ip->rs1] = base + off;
        x[0] = 0;
    }
    x[ip->rd] = v;
    NPU_LOAD_USE(reads_x);
    NPU_NEXT();
}
L_cv_store: {
    const std::uint32_t base = x[ip->rs1];
    const std::uint32_t off = ip->rs3 == cv_post_imm ? static_cast<std::uint32_t>(ip->imm) : x[ip->rd];
    const std::uint32_t a = ip->rs3 == cv_reg_reg ? base + off : base;
    std::uint64_t c = cyc;  // a copy: see cyc above
    const int r = detail::cv_store(mem, a, ip->rm, x[ip->rs2], c, ip->aux);
    cyc = c;
    if (r == 1) NPU_RAISE(cause_misaligned_store, a);
    if (r == 2) NPU_BUS_FAULT(cause_store_access, a, ip->rm);
    if (__builtin_expect(rs.valid != 0, 0)) rs.on_store(a, ip->rm);
    if (ip->rs3 != cv_reg_reg) {
        x[ip->rs1] = base + off;
        x[0] = 0;
    }
    NPU_NEXT();
}
L_cv_alu:
    x[ip->rd] = cv_alu_op(ip->rm, x[ip->rs1], x[ip->rs2], x[ip->rs3], static_cast<std::uint32_t>(ip->imm));
    NPU_NEXT();
L_cv_mac:
    x[ip->rd] = cv_mac_op(ip->rm, x[ip->rs1], x[ip->rs2], x[ip->rs3], static_cast<std::uint32_t>(ip->imm));
    NPU_NEXT();
#define NPU_IMM5(i) static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>((i)->rs2) << 27) >> 27)
L_cv_beqimm:
    NPU_BRANCH(x[ip->rs1] == NPU_IMM5(ip));
L_cv_bneimm:
    NPU_BRANCH(x[ip->rs1] != NPU_IMM5(ip));
L_cv_bimm_far: {
    if ((x[ip->rs1] == NPU_IMM5(ip)) == (ip->rs3 != 0)) NPU_NEXT();
    const std::uint32_t t = static_cast<std::uint32_t>(ip->imm);
    if (t & ialign_mask) NPU_RAISE(cause_misaligned_fetch, t);
    cyc += taken_extra;
    ++taken;
    NPU_NOTE(NPU_PC(ip), t);
    h.pc = t;
    NPU_FAR();
}
#undef NPU_IMM5
L_cv_simd:
    x[ip->rd] = cv_simd_op(ip->rm, x[ip->rs1], x[ip->rs2], x[ip->rs3], static_cast<std::uint32_t>(ip->imm));
    NPU_NEXT();
L_cv_bitmanip:
    x[ip->rd] = cv_bit_op(ip->rm, x[ip->rs1], x[ip->rs2], x[ip->rs3], static_cast<std::uint32_t>(ip->imm));
    NPU_NEXT();

L_illegal:
illegal: {
    // mtval = the instruction bits (16 for a 16-bit one), re-read because
    // slots keep other data in aux; decoding already fetched them once.
    const std::uint32_t p = NPU_PC(ip);
    std::uint32_t raw = 0;
    detail::fetch_insn(mem, *blk, p, raw);
    h.exc_cause = cause_illegal;
    h.exc_tval = raw;
    h.exc_from_bus = false;
}
raise:
    --n;  // the faulting instruction does not retire
    --h.class_insns[ip->cls];
    h.pc = NPU_PC(ip);
    NPU_FETCH(h.pc + 2u * ip->len - 1u, h.pc);  // the faulting instruction was fetched
    result = stop::exception;
out:
    if (fetch_on && fetch_from < h.pc) cyc += h.fetch.run(fetch_from, h.pc - 1u);
    h.cycle = cyc;
    h.instret = n;
    h.taken_branches += taken;
    h.branch_count = nb;
    x[0] = 0;
    return result;

#undef NPU_DISPATCH
#undef NPU_NEXT
#undef NPU_PC
#undef NPU_RAISE
#undef NPU_BUS_FAULT
#undef NPU_TAKEN
#undef NPU_FAR
#undef NPU_BRANCH
#undef NPU_NOTE
#undef NPU_FETCH
#undef NPU_LOAD
#undef NPU_STORE
#undef NPU_AMO
#undef NPU_FP_ON
#undef NPU_FP_RM
#undef NPU_FP_DONE
#undef NPU_FP_DIV_DONE
#undef NPU_FPU_WAIT
#undef NPU_LOAD_USE
#undef NPU_DIV_TIME
}

}  // namespace npu::cpu
