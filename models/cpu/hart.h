// Architectural state of one RV32IMAF hart (machine + user mode) and the
// parts of its behaviour that are not per-instruction hot paths: CSRs, trap
// entry, mret, interrupts. No SystemC here: the interpreter (interp.h) and
// the unit tests use it directly.
#pragma once

#include "icache.h"
#include "isa.h"

#include <cstdint>
#include <string>

namespace npu::cpu {

enum class privilege : std::uint8_t { user = 0, machine = 3 };

// Exception causes (mcause without the interrupt bit).
enum cause : std::uint32_t {
    cause_misaligned_fetch = 0,
    cause_fetch_access = 1,
    cause_illegal = 2,
    cause_breakpoint = 3,
    cause_misaligned_load = 4,
    cause_load_access = 5,
    cause_misaligned_store = 6,
    cause_store_access = 7,
    cause_ecall_u = 8,
    cause_ecall_m = 11,
};
inline constexpr std::uint32_t interrupt_bit = 0x80000000u;
const char* cause_name(std::uint32_t mcause);

namespace mstatus_bits {
inline constexpr std::uint32_t mie = 1u << 3;
inline constexpr std::uint32_t mpie = 1u << 7;
inline constexpr std::uint32_t mpp = 3u << 11;
inline constexpr std::uint32_t fs = 3u << 13;
inline constexpr std::uint32_t fs_dirty = 3u << 13;
inline constexpr std::uint32_t mprv = 1u << 17;
inline constexpr std::uint32_t tw = 1u << 21;
inline constexpr std::uint32_t sd = 1u << 31;
}  // namespace mstatus_bits

// One LR/SC reservation per hart, shared by every hart of a SoC: a
// store by any hart to a reserved word (or anything inside the reserved
// word's 4 bytes) breaks the reservation. Holders are few, so the store-side
// check is a single test of `any` in the common case.
struct reservation_set {
    static constexpr unsigned max_harts = 32;
    std::uint32_t addr[max_harts] = {};
    std::uint32_t valid = 0;  // bit per hart
    void reserve(unsigned hart, std::uint32_t a) {
        addr[hart] = a & ~3u;
        valid |= 1u << hart;
    }
    // True if `hart` still holds `a`; the reservation is consumed either way.
    bool consume(unsigned hart, std::uint32_t a) {
        const bool ok = (valid >> hart & 1) && addr[hart] == (a & ~3u);
        valid &= ~(1u << hart);
        return ok;
    }
    void on_store(std::uint32_t a, unsigned size) {
        if (!valid) return;
        for (std::uint32_t v = valid; v; v &= v - 1) {
            const unsigned h = static_cast<unsigned>(__builtin_ctz(v));
            if (a < addr[h] + 4 && addr[h] < a + size) valid &= ~(1u << h);
        }
    }
};

struct hart_state {
    // x[32] is the sink for writes to x0, so x0 reads always see x[0] == 0.
    std::uint32_t x[33] = {};
    std::uint32_t f[32] = {};
    std::uint32_t pc = 0;
    privilege priv = privilege::machine;

    std::uint32_t hart_id = 0;
    std::uint32_t mstatus = 0;
    std::uint32_t mie = 0;
    std::uint32_t mip = 0;
    std::uint32_t mtvec = 0;
    std::uint32_t mepc = 0;
    std::uint32_t mcause = 0;
    std::uint32_t mtval = 0;
    std::uint32_t mscratch = 0;
    std::uint32_t mcounteren = 0;
    std::uint32_t fflags = 0;
    std::uint32_t frm = 0;

    std::uint64_t cycle = 0;    // mcycle: cycles this hart spent executing (incl. stalls)
    std::uint64_t instret = 0;  // minstret
    bool mret_pending = false;  // exec_mret ran; the core notes where it returned (core::handle_exception)
    // The interpreter returns at the first taken branch/jump at or after this cycle.
    std::uint64_t cycle_limit = 0;

    cost_table costs;
    std::uint32_t extensions = ext_all;  // isa_ext bits (core.isa_extensions)
    // Event counts the core turns into stall statistics (memory-side stalls
    // are counted by the memory policy).
    std::uint64_t div_ops = 0;
    std::uint64_t fdiv_ops = 0;
    // CV32E40P timing (timing.h): divider cycles beyond core.cpi_div, load-use
    // stalls, and waits for the FPU busy with FDIV/FSQRT until fpu_free
    // (a cycle count of this hart's `cycle`).
    std::uint64_t div_extra_cycles = 0;
    std::uint64_t load_use_stalls = 0;
    std::uint64_t fpu_wait_cycles = 0;
    std::uint64_t fpu_free = 0;
    std::uint64_t taken_branches = 0;
    // Instructions retired per cost class (cost_class), for the energy model.
    std::uint64_t class_insns[cc_count] = {};
    // The last taken branches and jumps, for fault reports: from << 32 | to,
    // the newest at (branch_count - 1) % branch_ring_size.
    static constexpr unsigned branch_ring_size = 16;
    std::uint64_t branch_ring[branch_ring_size] = {};
    std::uint64_t branch_count = 0;

    // Instruction fetch through the cluster's icache (icache.h); no cache: not charged.
    fetch_state fetch;

    reservation_set* reservations = nullptr;  // required: the harts of one SoC share one
    // `time` CSR source: simulated time in cycles; defaults to mcycle.
    std::uint64_t (*time_source)(void* ctx, const hart_state&) = nullptr;
    void* time_ctx = nullptr;

    // The pending synchronous exception when run() returns stop::exception.
    std::uint32_t exc_cause = 0;
    std::uint32_t exc_tval = 0;
    // For access faults coming from the bus: what was accessed.
    bool exc_from_bus = false;
    unsigned exc_size = 0;

    std::uint32_t read_mstatus() const {
        return (mstatus & mstatus_bits::fs) == mstatus_bits::fs_dirty ? mstatus | mstatus_bits::sd : mstatus;
    }
    std::uint64_t time() const { return time_source ? time_source(time_ctx, *this) : cycle; }
};

// misa of this implementation: RV32 I M A F U, plus C when present.
inline constexpr std::uint32_t misa_value = (1u << 30) | (1u << 0) | (1u << 5) | (1u << 8) | (1u << 12) | (1u << 20);
inline std::uint32_t misa_of(const hart_state& h) { return misa_value | ((h.extensions & ext_c) ? 1u << 2 : 0); }

// Executes the Zicsr instruction `i` (op_csr). Returns false for an illegal
// access (unknown CSR, read-only write, privilege, FS off). `needs_resync` is
// set when the write may enable an interrupt or changed the FP rounding mode.
bool exec_csr(hart_state& h, const insn& i, bool& needs_resync);

// Reads a CSR as the debugger / tests see it (no privilege check); false if
// not implemented.
bool peek_csr(const hart_state& h, unsigned csr, std::uint32_t& value);

// Trap entry at h.pc (the faulting instruction) with cause/tval.
void enter_trap(hart_state& h, std::uint32_t cause, std::uint32_t tval);
// mret; returns false (illegal) outside machine mode.
bool exec_mret(hart_state& h);
// Highest-priority enabled pending interrupt cause (with interrupt_bit), or 0.
std::uint32_t pending_interrupt(const hart_state& h);

// "illegal instruction at 0x1c000010 (mtval 0xffffffff)" style text for reports.
std::string describe_trap(const hart_state& h, std::uint32_t cause, std::uint32_t epc, std::uint32_t tval);

}  // namespace npu::cpu
