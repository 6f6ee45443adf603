// CSRs, traps and interrupts of the RV32 machine/user hart.
#include "hart.h"

#include <fmt/core.h>

namespace npu::cpu {

namespace {

enum csr_num : unsigned {
    csr_fflags = 0x001,
    csr_frm = 0x002,
    csr_fcsr = 0x003,
    csr_cycle = 0xc00,
    csr_time = 0xc01,
    csr_instret = 0xc02,
    csr_cycleh = 0xc80,
    csr_timeh = 0xc81,
    csr_instreth = 0xc82,
    csr_mstatus = 0x300,
    csr_misa = 0x301,
    csr_mie = 0x304,
    csr_mtvec = 0x305,
    csr_mcounteren = 0x306,
    csr_mstatush = 0x310,
    csr_mscratch = 0x340,
    csr_mepc = 0x341,
    csr_mcause = 0x342,
    csr_mtval = 0x343,
    csr_mip = 0x344,
    csr_mcycle = 0xb00,
    csr_minstret = 0xb02,
    csr_mcycleh = 0xb80,
    csr_minstreth = 0xb82,
    csr_mvendorid = 0xf11,
    csr_marchid = 0xf12,
    csr_mimpid = 0xf13,
    csr_mhartid = 0xf14,
    csr_mconfigptr = 0xf15,
};

// Writable bits of mie: the three standard machine interrupts and the 16
// platform-defined local interrupts.
constexpr std::uint32_t mie_mask = 0xffff0888u;
constexpr std::uint32_t mstatus_mask = mstatus_bits::mie | mstatus_bits::mpie | mstatus_bits::mpp | mstatus_bits::fs |
                                       mstatus_bits::mprv | mstatus_bits::tw;

bool fs_off(const hart_state& h) { return (h.mstatus & mstatus_bits::fs) == 0; }

}  // namespace

bool peek_csr(const hart_state& h, unsigned csr, std::uint32_t& v) {
    switch (csr) {
    case csr_fflags: v = h.fflags; return true;
    case csr_frm: v = h.frm; return true;
    case csr_fcsr: v = (h.frm << 5) | h.fflags; return true;
    case csr_cycle:
    case csr_mcycle: v = static_cast<std::uint32_t>(h.cycle); return true;
    case csr_cycleh:
    case csr_mcycleh: v = static_cast<std::uint32_t>(h.cycle >> 32); return true;
    case csr_instret:
    case csr_minstret: v = static_cast<std::uint32_t>(h.instret); return true;
    case csr_instreth:
    case csr_minstreth: v = static_cast<std::uint32_t>(h.instret >> 32); return true;
    case csr_time: v = static_cast<std::uint32_t>(h.time()); return true;
    case csr_timeh: v = static_cast<std::uint32_t>(h.time() >> 32); return true;
    case csr_mstatus: v = h.read_mstatus(); return true;
    case csr_mstatush: v = 0; return true;
    case csr_misa: v = misa_of(h); return true;
    case csr_mie: v = h.mie; return true;
    case csr_mip: v = h.mip; return true;
    case csr_mtvec: v = h.mtvec; return true;
    case csr_mcounteren: v = h.mcounteren; return true;
    case csr_mscratch: v = h.mscratch; return true;
    case csr_mepc: v = h.mepc; return true;
    case csr_mcause: v = h.mcause; return true;
    case csr_mtval: v = h.mtval; return true;
    case csr_mvendorid:
    case csr_marchid:
    case csr_mimpid:
    case csr_mconfigptr: v = 0; return true;
    case csr_mhartid: v = h.hart_id; return true;
    default: return false;
    }
}

bool exec_csr(hart_state& h, const insn& i, bool& needs_resync) {
    const unsigned csr = static_cast<unsigned>(i.imm) & 0xfff;
    const unsigned f3 = i.rs3;
    // csrrw always writes; csrrs/csrrc write only when the mask is not x0/0.
    const bool write = (f3 & 3) == 1 || i.rs1 != 0;
    // CSR address bits [9:8]: lowest privilege allowed; [11:10] == 3: read-only.
    if (static_cast<unsigned>(h.priv) < ((csr >> 8) & 3)) return false;
    if (write && (csr >> 10) == 3) return false;
    const bool is_fp = csr == csr_fflags || csr == csr_frm || csr == csr_fcsr;
    if (is_fp && fs_off(h)) return false;
    // User access to the counters is gated by mcounteren (CY, TM, IR).
    if (h.priv == privilege::user && (csr & 0xf7f) >= 0xc00 && (csr & 0xf7f) <= 0xc02 &&
        !(h.mcounteren >> (csr & 3) & 1))
        return false;

    std::uint32_t old;
    if (!peek_csr(h, csr, old)) return false;
    const std::uint32_t src = (f3 & 4) ? i.rs1 : h.x[i.rs1];
    std::uint32_t nv = old;
    switch (f3 & 3) {
    case 1: nv = src; break;
    case 2: nv = old | src; break;
    case 3: nv = old & ~src; break;
    }
    if (write) {
        switch (csr) {
        case csr_fflags: h.fflags = nv & 0x1f; break;
        case csr_frm: h.frm = nv & 7; break;
        case csr_fcsr:
            h.fflags = nv & 0x1f;
            h.frm = (nv >> 5) & 7;
            break;
        case csr_mstatus: {
            std::uint32_t m = (h.mstatus & ~mstatus_mask) | (nv & mstatus_mask);
            // MPP is WARL: only M (3) and U (0) exist.
            if ((m & mstatus_bits::mpp) != mstatus_bits::mpp) m &= ~mstatus_bits::mpp;
            h.mstatus = m;
            needs_resync = true;
            break;
        }
        case csr_mstatush:
        case csr_misa: break;  // WARL, nothing writable
        case csr_mie:
            h.mie = nv & mie_mask;
            needs_resync = true;
            break;
        case csr_mip: break;  // the pending bits of an M-only hart are driven by their sources
        case csr_mtvec: h.mtvec = nv & ~2u; break;  // modes 2/3 reserved: keep direct/vectored
        case csr_mcounteren: h.mcounteren = nv & 7; break;
        case csr_mscratch: h.mscratch = nv; break;
        case csr_mepc: h.mepc = nv & ((h.extensions & ext_c) ? ~1u : ~3u); break;  // IALIGN
        case csr_mcause: h.mcause = nv; break;
        case csr_mtval: h.mtval = nv; break;
        case csr_mcycle: h.cycle = (h.cycle & ~0xffffffffull) | nv; break;
        case csr_mcycleh: h.cycle = (h.cycle & 0xffffffffull) | (std::uint64_t(nv) << 32); break;
        // The csr instruction itself retires after this write: compensate so
        // minstret reads back the written value.
        case csr_minstret: h.instret = ((h.instret & ~0xffffffffull) | nv) - 1; break;
        case csr_minstreth: h.instret = ((h.instret & 0xffffffffull) | (std::uint64_t(nv) << 32)) - 1; break;
        default: return false;  // read-only user counters are caught above
        }
        if (is_fp) h.mstatus |= mstatus_bits::fs_dirty;
    }
    h.x[i.rd] = old;
    h.x[0] = 0;
    return true;
}

void enter_trap(hart_state& h, std::uint32_t cause, std::uint32_t tval) {
    h.mepc = h.pc;
    h.mcause = cause;
    h.mtval = tval;
    std::uint32_t m = h.mstatus;
    m = (m & ~mstatus_bits::mpie) | ((m & mstatus_bits::mie) ? mstatus_bits::mpie : 0);
    m &= ~mstatus_bits::mie;
    m = (m & ~mstatus_bits::mpp) | (static_cast<std::uint32_t>(h.priv) << 11);
    h.mstatus = m;
    h.priv = privilege::machine;
    const std::uint32_t base = h.mtvec & ~3u;
    h.pc = ((h.mtvec & 1) && (cause & interrupt_bit)) ? base + 4 * (cause & ~interrupt_bit) : base;
}

bool exec_mret(hart_state& h) {
    if (h.priv != privilege::machine) return false;
    std::uint32_t m = h.mstatus;
    h.priv = (m & mstatus_bits::mpp) == mstatus_bits::mpp ? privilege::machine : privilege::user;
    m = (m & ~mstatus_bits::mie) | ((m & mstatus_bits::mpie) ? mstatus_bits::mie : 0);
    m |= mstatus_bits::mpie;
    m &= ~mstatus_bits::mpp;  // least-privileged supported mode: U
    if (h.priv != privilege::machine) m &= ~mstatus_bits::mprv;
    h.mstatus = m;
    h.pc = h.mepc;
    h.mret_pending = true;
    return true;
}

std::uint32_t pending_interrupt(const hart_state& h) {
    const std::uint32_t p = h.mip & h.mie;
    if (!p) return 0;
    if (h.priv == privilege::machine && !(h.mstatus & mstatus_bits::mie)) return 0;
    // Standard priority MEI > MSI > MTI, then platform interrupts highest first.
    if (p & (1u << 11)) return interrupt_bit | 11;
    if (p & (1u << 3)) return interrupt_bit | 3;
    if (p & (1u << 7)) return interrupt_bit | 7;
    return interrupt_bit | static_cast<std::uint32_t>(31 - __builtin_clz(p));
}

const char* cause_name(std::uint32_t c) {
    if (c & interrupt_bit) {
        switch (c & ~interrupt_bit) {
        case 3: return "machine software interrupt";
        case 7: return "machine timer interrupt";
        case 11: return "machine external interrupt";
        default: return "platform interrupt";
        }
    }
    switch (c) {
    case cause_misaligned_fetch: return "instruction address misaligned";
    case cause_fetch_access: return "instruction access fault";
    case cause_illegal: return "illegal instruction";
    case cause_breakpoint: return "breakpoint";
    case cause_misaligned_load: return "load address misaligned";
    case cause_load_access: return "load access fault";
    case cause_misaligned_store: return "store/AMO address misaligned";
    case cause_store_access: return "store/AMO access fault";
    case cause_ecall_u: return "environment call from U-mode";
    case cause_ecall_m: return "environment call from M-mode";
    default: return "unknown exception";
    }
}

std::string describe_trap(const hart_state& h, std::uint32_t cause, std::uint32_t epc, std::uint32_t tval) {
    return fmt::format("hart {}: {} (mcause {:#x}) at pc {:#010x} in {}-mode, mtval {:#010x}", h.hart_id,
                       cause_name(cause), cause, epc, h.priv == privilege::machine ? "M" : "U", tval);
}

}  // namespace npu::cpu
