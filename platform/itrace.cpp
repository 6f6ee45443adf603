#include "itrace.h"

#include <fmt/core.h>

#include <cstring>

namespace npu::platform {

namespace {

using namespace npu::cpu;

const char* const xnames[33] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                                "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "zero"};

enum class dest { none, x, f };

// Which register file the instruction writes (the decoder's rd means
// nothing for stores, branches and system instructions).
dest dest_of(std::uint8_t op) {
    switch (op) {
    case op_beq:
    case op_bne:
    case op_blt:
    case op_bge:
    case op_bltu:
    case op_bgeu:
    case op_branch_far:
    case op_sb:
    case op_sh:
    case op_sw:
    case op_fsw:
    case op_fence:
    case op_fence_i:
    case op_ecall:
    case op_ebreak:
    case op_mret:
    case op_wfi: return dest::none;
    case op_flw:
    case op_fmadd:
    case op_fmsub:
    case op_fnmsub:
    case op_fnmadd:
    case op_fadd:
    case op_fsub:
    case op_fmul:
    case op_fdiv:
    case op_fsqrt:
    case op_fsgnj:
    case op_fsgnjn:
    case op_fsgnjx:
    case op_fmin:
    case op_fmax:
    case op_fcvt_s_w:
    case op_fcvt_s_wu:
    case op_fmv_w_x: return dest::f;
    default: return dest::x;
    }
}

bool is_load(std::uint8_t op) { return (op >= op_lb && op <= op_lhu) || op == op_flw || op == op_lr; }
bool is_store(std::uint8_t op) { return (op >= op_sb && op <= op_sw) || op == op_fsw || op == op_sc; }
bool is_amo(std::uint8_t op) { return op >= op_amoswap && op <= op_amomaxu; }

}  // namespace

std::string itrace::parse_harts(const std::string& spec, unsigned n, std::vector<bool>& harts) {
    harts.assign(n, spec.empty());
    if (spec.empty()) return {};
    // A decimal number, whole: no sign, no wrap (sscanf's %u took
    // 4294967304 as hart 8 and -1 as 4294967295).
    // (A number of more than 9 digits is past any hart: taken as the most.)
    auto number = [](const std::string& t, std::uint64_t& v) {
        if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos) return false;
        v = t.size() > 9 ? UINT64_MAX : std::stoull(t);
        return true;
    };
    std::size_t pos = 0;
    while (true) {
        std::size_t end = spec.find(',', pos);
        if (end == std::string::npos) end = spec.size();
        const std::string item = spec.substr(pos, end - pos);
        const std::size_t dash = item.find('-');
        std::uint64_t a = 0, b = 0;
        if (!number(item.substr(0, dash), a) ||
            (dash != std::string::npos ? !number(item.substr(dash + 1), b) : (b = a, false)) || b < a)
            return fmt::format("'{}' is not a hart number or range", item);
        if (b >= n)
            return fmt::format("hart {} does not exist (harts 0-{})",
                               dash != std::string::npos ? item.substr(dash + 1) : item, n - 1);
        for (std::uint64_t h = a; h <= b; ++h) harts[h] = true;
        if (end == spec.size()) return {};
        pos = end + 1;
    }
}

itrace::itrace(soc& s, std::FILE* out, std::vector<bool> harts, bool from_pc_set, std::uint32_t from_pc,
               std::uint64_t from_cycle)
    : soc_(s),
      out_(out),
      harts_(std::move(harts)),
      waiting_pc_(from_pc_set),
      from_pc_(from_pc),
      from_cycle_(from_cycle),
      pending_(s.cores().size()) {
    std::setvbuf(out_, nullptr, _IOFBF, 1 << 20);
    for (const auto& c : s.cores())
        if (harts_[c->hart_id()]) c->attach_observer(this);
}

itrace::~itrace() { close(); }

std::string itrace::close() {
    if (!out_) return {};
    for (const auto& c : soc_.cores()) {
        after(*c, false);
        c->attach_observer(nullptr);
    }
    if (std::fflush(out_) != 0 && !write_errno_) write_errno_ = errno ? errno : EIO;
    if (std::fclose(out_) != 0 && !write_errno_) write_errno_ = errno ? errno : EIO;
    out_ = nullptr;
    return write_errno_ ? std::strerror(write_errno_) : std::string();
}

const itrace::code_text& itrace::text(std::uint32_t pc) {
    auto it = code_.find(pc);
    if (it != code_.end()) return it->second;
    code_text t;
    if (const elf_image* img = soc_.image()) t.sym = img->symbolize(pc);
    std::uint32_t raw = 0;
    t.dis = soc_.debug_read(pc, &raw, 4) == 4 ? dis_.text(raw, pc) : "<unreadable>";
    return code_.emplace(pc, std::move(t)).first->second;
}

void itrace::before(cpu::core& c, std::uint32_t pc, const cpu::insn& i, std::uint64_t cycle) {
    pending& p = pending_[c.hart_id()];
    if (p.valid) emit(c, p, false);
    p.valid = false;
    if (!started_) {
        if (waiting_pc_ ? pc != from_pc_ : cycle < from_cycle_) return;
        started_ = true;
    }
    const cpu::hart_state& h = c.state();
    p.valid = true;
    p.pc = pc;
    p.i = i;
    p.cycle = cycle;
    if (is_load(i.op) || is_store(i.op) || is_amo(i.op)) {
        const bool reserved = is_amo(i.op) || i.op == op_lr || i.op == op_sc;
        p.addr = h.x[i.rs1] + (reserved ? 0u : static_cast<std::uint32_t>(i.imm));
        p.store = i.op == op_fsw ? h.f[i.rs2] : h.x[i.rs2];
        if (i.op == op_sb) p.store &= 0xff;
        if (i.op == op_sh) p.store &= 0xffff;
    }
}

void itrace::after(cpu::core& c, bool trapped) {
    pending& p = pending_[c.hart_id()];
    if (!p.valid) return;
    emit(c, p, trapped && p.pc == c.state().pc);
    p.valid = false;
}

void itrace::emit(const cpu::core& c, const pending& p, bool trapped) {
    const cpu::hart_state& h = c.state();
    const code_text& t = text(p.pc);
    std::string fx;
    if (trapped) {
        fx = "trapped";
    } else {
        switch (dest_of(p.i.op)) {
        case dest::x:
            if (p.i.rd != 0 && p.i.rd != x_sink) fx = fmt::format("{} = {:#010x}", xnames[p.i.rd], h.x[p.i.rd]);
            break;
        case dest::f: {
            float v;
            std::memcpy(&v, &h.f[p.i.rd], 4);
            fx = fmt::format("f{} = {:#010x} ({:g})", p.i.rd, h.f[p.i.rd], v);
            break;
        }
        case dest::none: break;
        }
        if (is_load(p.i.op) || is_amo(p.i.op))
            fx += fmt::format("{}mem[{:#010x}] -> {:#x}", fx.empty() ? "" : "  ", p.addr,
                              p.i.op == op_flw ? h.f[p.i.rd] : h.x[p.i.rd]);
        if (is_store(p.i.op))
            fx += fmt::format("{}mem[{:#010x}] <- {:#x}", fx.empty() ? "" : "  ", p.addr, p.store);
    }
    if (write_errno_) return;
    // Formatted, then written: a failed write (a full disk) is recorded for
    // close() to report, not thrown out of the hart's thread.
    const std::string line = fmt::format("{:>10} h{} {:#010x} {:<32} {:<32} {}\n", p.cycle, c.hart_id(), p.pc,
                                         t.sym.empty() ? "" : "<" + t.sym + ">", t.dis, fx);
    if (std::fwrite(line.data(), 1, line.size(), out_) != line.size()) {
        write_errno_ = errno ? errno : EIO;
        return;
    }
    ++lines_;
}

}  // namespace npu::platform
