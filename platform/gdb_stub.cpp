// GDB remote serial protocol stub (see gdb_stub.h and docs/debugging.md).
#include "gdb_stub.h"

#include "base/sim_services.h"
#include "cpu/hart.h"

#include <fmt/core.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace npu::platform {

namespace {

// GDB's signal numbers (gdb/signals.def), not the host's.
constexpr int sig_int = 2, sig_ill = 4, sig_trap = 5, sig_abrt = 6, sig_bus = 10, sig_segv = 11;

// GDB's RISC-V register numbers: x0..x31, pc, f0..f31, then CSR n at 65 + n.
constexpr unsigned reg_pc = 32, reg_f0 = 33, reg_csr0 = 65;

// The CSRs the target description lists (fflags, frm and fcsr are in the FPU feature).
struct csr_desc {
    unsigned num;
    const char* name;
};
constexpr csr_desc csrs[] = {
    {0x300, "mstatus"}, {0x301, "misa"},     {0x304, "mie"},     {0x305, "mtvec"},   {0x306, "mcounteren"},
    {0x340, "mscratch"}, {0x341, "mepc"},    {0x342, "mcause"},  {0x343, "mtval"},   {0x344, "mip"},
    {0xb00, "mcycle"},  {0xb02, "minstret"}, {0xb80, "mcycleh"}, {0xb82, "minstreth"}, {0xc00, "cycle"},
    {0xc01, "time"},    {0xc02, "instret"},  {0xc80, "cycleh"},  {0xc81, "timeh"},   {0xc82, "instreth"},
    {0xf11, "mvendorid"}, {0xf12, "marchid"}, {0xf13, "mimpid"}, {0xf14, "mhartid"},
};

std::string hex8(std::uint32_t v) {
    // Target byte order (little endian).
    return fmt::format("{:02x}{:02x}{:02x}{:02x}", v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24);
}

std::string to_hex(const std::string& s) {
    std::string out;
    for (unsigned char ch : s) out += fmt::format("{:02x}", ch);
    return out;
}

int hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

bool from_hex(const std::string& h, std::string& out) {
    if (h.size() % 2) return false;
    out.clear();
    for (std::size_t i = 0; i < h.size(); i += 2) {
        const int a = hex_digit(h[i]), b = hex_digit(h[i + 1]);
        if (a < 0 || b < 0) return false;
        out += static_cast<char>(a * 16 + b);
    }
    return true;
}

// Parses a hex number at s[pos...], advancing pos; false if there is none,
// or if it does not fit 64 bits (it wrapped: p100000020 read the pc).
bool parse_hex(const std::string& s, std::size_t& pos, std::uint64_t& v) {
    const std::size_t start = pos;
    v = 0;
    while (pos < s.size() && hex_digit(s[pos]) >= 0) {
        if (v >> 60) return false;
        v = v * 16 + static_cast<unsigned>(hex_digit(s[pos++]));
    }
    return pos > start;
}

// Escapes the characters the protocol reserves in binary data.
std::string escape_binary(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '#' || ch == '$' || ch == '}' || ch == '*') {
            out += '}';
            out += static_cast<char>(ch ^ 0x20);
        } else {
            out += ch;
        }
    }
    return out;
}

bool is_load(std::uint8_t op) {
    return (op >= cpu::op_lb && op <= cpu::op_lhu) || op == cpu::op_flw || op == cpu::op_lr;
}
bool is_store(std::uint8_t op) { return (op >= cpu::op_sb && op <= cpu::op_sw) || op == cpu::op_fsw || op == cpu::op_sc; }
bool is_amo(std::uint8_t op) { return op >= cpu::op_amoswap && op <= cpu::op_amomaxu; }

unsigned access_size(std::uint8_t op) {
    switch (op) {
    case cpu::op_lb:
    case cpu::op_lbu:
    case cpu::op_sb: return 1;
    case cpu::op_lh:
    case cpu::op_lhu:
    case cpu::op_sh: return 2;
    default: return 4;
    }
}

}  // namespace

gdb_stub::gdb_stub(soc& s, unsigned port) : soc_(s) {
    for (const auto& c : s.cores()) harts_.push_back(c.get());
    dbg_.resize(harts_.size());
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (listen_fd_ < 0) throw std::runtime_error(fmt::format("--gdb: cannot create a socket: {}", std::strerror(errno)));
    const int one = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 1) != 0) {
        const std::string why = std::strerror(errno);
        ::close(listen_fd_);
        throw std::runtime_error(fmt::format("--gdb: cannot listen on 127.0.0.1:{}: {}", port, why));
    }
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
}

gdb_stub::~gdb_stub() {
    detach();
    if (listen_fd_ >= 0) ::close(listen_fd_);
}

void gdb_stub::accept() {
    fd_ = ::accept(listen_fd_, nullptr, nullptr);
    if (fd_ < 0) throw std::runtime_error(fmt::format("--gdb: accept failed: {}", std::strerror(errno)));
    ::close(listen_fd_);
    listen_fd_ = -1;
    const int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (cpu::core* c : harts_) c->attach_debugger(this);
    // The cluster controller boots first: GDB finds the target stopped at its entry.
    dbg_.back().stop_now = true;
}

void gdb_stub::add_monitor(const std::string& name, const std::string& help, std::function<std::string()> fn) {
    monitors_[name] = monitor_cmd{help, std::move(fn)};
}

void gdb_stub::detach() {
    for (cpu::core* c : harts_) c->attach_debugger(nullptr);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    detached_ = true;
}

// --- per-instruction checks ------------------------------------------------------

int gdb_stub::watch_at(const cpu::insn& i, const cpu::hart_state& h, std::uint32_t& addr) const {
    const bool ld = is_load(i.op), st = is_store(i.op), amo = is_amo(i.op);
    if (!ld && !st && !amo) return -1;
    const bool reserved = amo || i.op == cpu::op_lr || i.op == cpu::op_sc;
    const std::uint32_t a = h.x[i.rs1] + (reserved ? 0u : static_cast<std::uint32_t>(i.imm));
    const unsigned n = access_size(i.op);
    for (std::size_t k = 0; k < watches_.size(); ++k) {
        const watchpoint& w = watches_[k];
        const bool kind_ok = w.kind == watch_kind::access || (w.kind == watch_kind::read && (ld || amo)) ||
                             (w.kind == watch_kind::write && (st || amo));
        if (kind_ok && a < w.addr + w.len && w.addr < a + n) {
            addr = std::max(a, w.addr);
            return static_cast<int>(k);
        }
    }
    return -1;
}

bool gdb_stub::before(cpu::core& c, std::uint32_t pc, const cpu::insn& i) {
    if (detached_) return false;
    hart_debug& d = dbg_[c.hart_id()];
    if (d.stop_now || d.watch_hit >= 0) return true;
    if (d.step) {
        if (d.stepped_one) return true;
        d.stepped_one = true;
    } else if (pc != d.skip_pc && std::find(breakpoints_.begin(), breakpoints_.end(), pc) != breakpoints_.end()) {
        return true;
    }
    d.skip_pc = 1;
    if (!watches_.empty()) d.watch_hit = watch_at(i, c.state(), d.watch_addr);
    return false;
}

void gdb_stub::poll() {
    // A poll() system call per batch of every hart would dominate short
    // batches: look every 64th.
    if (detached_ || (++poll_count_ & 63)) return;
    // An interrupt that came in the same read as the resume packet waits in
    // rx_ (it was lost: the run went on, deaf to the debugger).
    if (const std::size_t i = rx_.find('\x03'); i != std::string::npos) {
        rx_.erase(i, 1);
        for (hart_debug& d : dbg_) d.stop_now = true;
        return;
    }
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) <= 0) return;
    char buf[64];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, MSG_DONTWAIT);
    if (n <= 0) {
        // GDB went away: the run goes on without it.
        detach();
        return;
    }
    if (std::memchr(buf, 0x03, static_cast<std::size_t>(n))) {
        for (hart_debug& d : dbg_) d.stop_now = true;
    } else {
        rx_.append(buf, static_cast<std::size_t>(n));
    }
}

// --- stops --------------------------------------------------------------------------

std::string gdb_stub::stop_reply(int signal, unsigned hart, const std::string& extra) const {
    return fmt::format("T{:02x}thread:{:x};{}", signal, hart + 1, extra);
}

void gdb_stub::stopped(cpu::core& c, const std::string& fault) {
    if (detached_) return;
    const unsigned h = c.hart_id();
    hart_debug& d = dbg_[h];
    int sig = sig_trap;
    std::string extra;
    if (!fault.empty()) {
        fault_shown_ = true;
        const cpu::hart_state& s = c.state();
        if (fault.rfind("memcheck", 0) == 0)
            sig = sig_segv;
        else if (s.exc_from_bus)
            sig = sig_segv;
        else if (s.exc_cause == cpu::cause_illegal)
            sig = sig_ill;
        else if (s.exc_cause == cpu::cause_breakpoint)
            sig = sig_trap;
        else
            sig = sig_bus;  // misaligned access or fetch
    } else if (d.watch_hit >= 0 && d.watch_hit < static_cast<int>(watches_.size())) {
        static const char* const names[] = {"", "", "watch", "rwatch", "awatch"};
        extra = fmt::format("{}:{:x};", names[static_cast<int>(watches_[d.watch_hit].kind)], d.watch_addr);
    } else if (d.stop_now && !d.step) {
        sig = last_stop_.empty() ? sig_trap : sig_int;
    } else if (!d.step) {
        extra = "swbreak:;";
    }
    for (hart_debug& o : dbg_) {
        o.stop_now = false;
        o.watch_hit = -1;
        o.step = false;
        o.skip_pc = 1;
    }
    d.skip_pc = c.pc();
    // The faulting instruction has been consumed by the trap (continuing
    // delivers it): a step from here stops at the handler's first instruction.
    d.stepped_one = !fault.empty() && fault.rfind("memcheck", 0) != 0;
    g_thread_ = static_cast<int>(h);
    const bool first = last_stop_.empty();
    last_stop_ = stop_reply(sig, h, extra);
    if (!first) {
        if (!fault.empty()) console("npusim: " + fault + "\n" + (fault_report_ ? fault_report_(fault) : ""));
        send_packet(last_stop_);
    }
    if (!serve()) detach();
}

void gdb_stub::finished(int exit_code, const std::string& fault) {
    if (detached_ || fd_ < 0) return;
    if (!fault.empty() && !fault_shown_) {
        // Post mortem: the kernel has stopped, every hart's state is final.
        const unsigned h = static_cast<unsigned>(harts_.size() - 1);
        g_thread_ = static_cast<int>(h);
        last_stop_ = stop_reply(sig_abrt, h, "");
        console("npusim: " + fault + "\n" + (fault_report_ ? fault_report_(fault) : "") +
                "npusim: the run has ended: continue to exit\n");
        send_packet(last_stop_);
        if (!serve()) {
            detach();
            return;
        }
    }
    send_packet(fmt::format("W{:02x}", exit_code & 0xff));
    detach();
}

// --- packets ------------------------------------------------------------------------

bool gdb_stub::read_packet(std::string& out) {
    for (;;) {
        const std::size_t start = rx_.find('$');
        if (start != std::string::npos) {
            const std::size_t hash = rx_.find('#', start);
            if (hash != std::string::npos && hash + 2 < rx_.size()) {
                out = rx_.substr(start + 1, hash - start - 1);
                rx_.erase(0, hash + 3);
                if (!no_ack_) ::send(fd_, "+", 1, MSG_NOSIGNAL);
                return true;
            }
        } else {
            rx_.clear();  // acks and stray interrupt bytes while stopped
        }
        char buf[4096];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n <= 0) return false;
        rx_.append(buf, static_cast<std::size_t>(n));
    }
}

void gdb_stub::send_packet(const std::string& body) {
    if (fd_ < 0) return;
    unsigned sum = 0;
    for (unsigned char ch : body) sum += ch;
    const std::string pkt = fmt::format("${}#{:02x}", body, sum & 0xff);
    std::size_t done = 0;
    while (done < pkt.size()) {
        const ssize_t n = ::send(fd_, pkt.data() + done, pkt.size() - done, MSG_NOSIGNAL);
        if (n <= 0) return;
        done += static_cast<std::size_t>(n);
    }
    // With acknowledgements on, GDB answers '+'; read_packet skips it.
}

void gdb_stub::console(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); i += 400) send_packet("O" + to_hex(text.substr(i, 400)));
}

bool gdb_stub::serve() {
    std::string p;
    while (read_packet(p)) {
        bool resume = false;
        const std::string reply = handle(p, resume);
        if (resume) return true;
        if (fd_ < 0) return false;  // killed
        send_packet(reply);
        if (p == "QStartNoAckMode") no_ack_ = true;
    }
    return false;
}

std::string gdb_stub::handle(const std::string& p, bool& resume) {
    if (p.empty()) return "";
    cpu::core& g = *harts_[static_cast<std::size_t>(g_thread_)];
    switch (p[0]) {
    case '?': return last_stop_;
    case 'g': {
        std::string out;
        for (unsigned r = 0; r <= reg_pc; ++r) {
            bool ok;
            out += read_register(g, r, ok);
        }
        return out;
    }
    case 'G': {
        // x0..x31 and pc, as 'g' sends them: the whole payload is checked
        // before any register is written (a short or partly bad one was
        // applied as far as it went).
        std::string bytes;
        if (p.size() != 1 + 8 * (reg_pc + 1) || !from_hex(p.substr(1), bytes)) return "E01";
        for (unsigned r = 0; r <= reg_pc; ++r) {
            std::uint32_t v;
            std::memcpy(&v, bytes.data() + 4 * r, 4);
            write_register(g, r, v);
        }
        return "OK";
    }
    case 'p': {
        std::size_t pos = 1;
        std::uint64_t r;
        if (!parse_hex(p, pos, r) || r > 0xFFFF || pos != p.size()) return "E01";
        bool ok;
        std::string v = read_register(g, static_cast<unsigned>(r), ok);
        return ok ? v : "E01";
    }
    case 'P': {
        std::size_t pos = 1;
        std::uint64_t r;
        std::string bytes;
        if (!parse_hex(p, pos, r) || r > 0xFFFF || pos >= p.size() || p[pos] != '=' ||
            !from_hex(p.substr(pos + 1), bytes) || bytes.size() != 4)
            return "E01";
        std::uint32_t v;
        std::memcpy(&v, bytes.data(), 4);
        return write_register(g, static_cast<unsigned>(r), v) ? "OK" : "E01";
    }
    case 'm': {
        std::size_t pos = 1;
        std::uint64_t a, n;
        if (!parse_hex(p, pos, a) || pos >= p.size() || p[pos++] != ',' || !parse_hex(p, pos, n)) return "E01";
        const std::string data = read_memory(a, std::min<std::uint64_t>(n, 0x1000));
        return data.empty() && n ? "E14" : data;  // EFAULT
    }
    case 'M':
    case 'X': {
        std::size_t pos = 1;
        std::uint64_t a, n;
        if (!parse_hex(p, pos, a) || pos >= p.size() || p[pos++] != ',' || !parse_hex(p, pos, n) || pos >= p.size() ||
            p[pos++] != ':')
            return "E01";
        std::string raw;
        if (p[0] == 'M') {
            if (!from_hex(p.substr(pos), raw)) return "E01";
        } else {
            for (std::size_t k = pos; k < p.size(); ++k) raw += p[k] == '}' && k + 1 < p.size() ? p[++k] ^ 0x20 : p[k];
        }
        if (raw.size() != n) return "E01";
        return write_memory(a, std::vector<unsigned char>(raw.begin(), raw.end())) ? "OK" : "E14";
    }
    case 'H': {
        std::size_t pos = 2;
        if (p.size() < 3) return "E01";
        if (p.compare(2, std::string::npos, "-1") == 0 || p.compare(2, std::string::npos, "0") == 0) return "OK";
        std::uint64_t t;
        if (!parse_hex(p, pos, t) || pos != p.size() || t == 0 || t > harts_.size()) return "E01";
        if (p[1] == 'g') g_thread_ = static_cast<int>(t - 1);
        return "OK";
    }
    case 'T': {
        std::size_t pos = 1;
        std::uint64_t t;
        return parse_hex(p, pos, t) && t >= 1 && t <= harts_.size() ? "OK" : "E01";
    }
    case 'c': resume = this->resume("c"); return "";
    case 's': resume = this->resume(fmt::format("s:{:x}", g_thread_ + 1)); return resume ? "" : "E01";
    case 'D':
        send_packet("OK");
        detach();
        return "";
    case 'k':
        soc_.context().services.request_stop(base::exit_code::debugger_kill, "killed from the debugger");
        detach();
        return "";
    case 'Z':
    case 'z': {
        const bool insert = p[0] == 'Z';
        std::size_t pos = 3;
        std::uint64_t a, len;
        if (p.size() < 4 || p[2] != ',' || !parse_hex(p, pos, a) || pos >= p.size() || p[pos++] != ',' ||
            !parse_hex(p, pos, len))
            return "E01";
        const int type = p[1] - '0';
        // Addresses are 32-bit (one above was cut to 32 bits and hit); a
        // watched range may not wrap past 2^32 or be empty (it never fired).
        if (a > 0xFFFFFFFFu || (type >= 2 && type <= 4 && (len == 0 || len > 0x100000000ull - a))) return "E01";
        const auto addr = static_cast<std::uint32_t>(a);
        if (type == 0 || type == 1) {
            auto it = std::find(breakpoints_.begin(), breakpoints_.end(), addr);
            if (insert && it == breakpoints_.end()) breakpoints_.push_back(addr);
            if (!insert && it != breakpoints_.end()) breakpoints_.erase(it);
            return "OK";
        }
        if (type >= 2 && type <= 4) {
            const auto kind = static_cast<watch_kind>(type);
            auto it = std::find_if(watches_.begin(), watches_.end(), [&](const watchpoint& w) {
                return w.addr == addr && w.len == len && w.kind == kind;
            });
            if (insert && it == watches_.end()) watches_.push_back({addr, static_cast<std::uint32_t>(len), kind});
            if (!insert && it != watches_.end()) watches_.erase(it);
            return "OK";
        }
        return "";
    }
    case 'v':
        if (p == "vCont?") return "vCont;c;C;s;S";
        if (p.rfind("vCont;", 0) == 0) {
            resume = this->resume(p.substr(6));
            return resume ? "" : "E01";
        }
        if (p.rfind("vKill", 0) == 0) {
            soc_.context().services.request_stop(base::exit_code::debugger_kill, "killed from the debugger");
            send_packet("OK");
            detach();
            return "";
        }
        return "";
    case 'q':
    case 'Q': return query(p);
    default: return "";
    }
}

bool gdb_stub::resume(const std::string& actions) {
    // "ACTION[:thread];ACTION[:thread]...": the first action naming a hart
    // applies to it; one without a thread applies to every other hart.
    std::vector<int> action(harts_.size(), -1);  // 0 continue, 1 step
    int fallback = -1;
    std::size_t pos = 0;
    while (pos < actions.size()) {
        std::size_t end = actions.find(';', pos);
        if (end == std::string::npos) end = actions.size();
        const std::string a = actions.substr(pos, end - pos);
        pos = end + 1;
        if (a.empty()) continue;
        const int kind = a[0] == 's' || a[0] == 'S' ? 1 : a[0] == 'c' || a[0] == 'C' ? 0 : -1;
        if (kind < 0) return false;
        const std::size_t colon = a.find(':');
        if (colon == std::string::npos) {
            if (fallback < 0) fallback = kind;
            continue;
        }
        std::size_t tp = colon + 1;
        std::uint64_t t;
        if (a.compare(tp, 2, "-1") == 0) {
            if (fallback < 0) fallback = kind;
            continue;
        }
        if (!parse_hex(a, tp, t) || t == 0 || t > harts_.size()) return false;
        if (action[t - 1] < 0) action[t - 1] = kind;
    }
    // A hart that was never started (parked) cannot be stepped by name: its
    // step would wait for it while the others ran the program to its end.
    for (std::size_t h = 0; h < harts_.size(); ++h)
        if (action[h] == 1 && harts_[h]->parked()) return false;
    for (std::size_t h = 0; h < harts_.size(); ++h) {
        const int k = action[h] >= 0 ? action[h] : fallback;
        dbg_[h].step = k == 1;
        if (k != 1) dbg_[h].stepped_one = false;
    }
    return true;
}

std::string gdb_stub::query(const std::string& p) {
    if (p.rfind("qSupported", 0) == 0)
        return "PacketSize=4000;qXfer:features:read+;swbreak+;hwbreak+;vContSupported+;QStartNoAckMode+";
    if (p == "QStartNoAckMode") return "OK";
    if (p == "qAttached") return "1";
    if (p == "qC") return fmt::format("QC{:x}", g_thread_ + 1);
    if (p == "qfThreadInfo") {
        std::string out = "m";
        for (std::size_t h = 0; h < harts_.size(); ++h) out += fmt::format("{}{:x}", h ? "," : "", h + 1);
        return out;
    }
    if (p == "qsThreadInfo") return "l";
    if (p.rfind("qThreadExtraInfo,", 0) == 0) {
        std::size_t pos = 17;
        std::uint64_t t;
        if (!parse_hex(p, pos, t) || t == 0 || t > harts_.size()) return "E01";
        return to_hex(thread_info(*harts_[t - 1]));
    }
    if (p.rfind("qXfer:features:read:target.xml:", 0) == 0) {
        std::size_t pos = 31;
        std::uint64_t off, len;
        if (!parse_hex(p, pos, off) || pos >= p.size() || p[pos++] != ',' || !parse_hex(p, pos, len)) return "E01";
        const std::string xml = target_xml();
        if (off >= xml.size()) return "l";
        const std::string chunk = xml.substr(off, len);
        return (off + chunk.size() >= xml.size() ? "l" : "m") + escape_binary(chunk);
    }
    if (p.rfind("qRcmd,", 0) == 0) {
        std::string cmd;
        if (!from_hex(p.substr(6), cmd)) return "E01";
        console(monitor(cmd));
        return "OK";
    }
    if (p == "qSymbol::") return "OK";
    return "";
}

std::string gdb_stub::monitor(const std::string& cmd_line) {
    std::string cmd = cmd_line;
    while (!cmd.empty() && std::isspace(static_cast<unsigned char>(cmd.back()))) cmd.pop_back();
    const auto it = monitors_.find(cmd);
    if (it != monitors_.end()) return it->second.fn();
    std::string out = cmd == "help" ? "" : "unknown monitor command '" + cmd + "'\n";
    out += "monitor commands:\n";
    for (const auto& [name, m] : monitors_) out += fmt::format("  {:<10} {}\n", name, m.help);
    return out;
}

std::string gdb_stub::thread_info(const cpu::core& c) const {
    const std::string who = c.is_cluster_controller() ? "cluster controller" : fmt::format("worker {}", c.hart_id());
    const std::string state = c.parked()    ? "parked"
                              : c.halted()  ? "halted"
                              : c.running() ? (c.in_bus_access() ? "blocked in a register" : "running")
                                            : "asleep (wfi)";
    return fmt::format("hart {}, {}, {}", c.hart_id(), who, state);
}

// --- registers and memory ---------------------------------------------------------

std::string gdb_stub::read_register(const cpu::core& c, unsigned r, bool& ok) const {
    const cpu::hart_state& h = c.state();
    ok = true;
    if (r < 32) return hex8(r == 0 ? 0 : h.x[r]);
    if (r == reg_pc) return hex8(h.pc);
    if (r >= reg_f0 && r < reg_f0 + 32) return hex8(h.f[r - reg_f0]);
    std::uint32_t v;
    if (r >= reg_csr0 && cpu::peek_csr(h, r - reg_csr0, v)) return hex8(v);
    ok = false;
    return "";
}

bool gdb_stub::write_register(cpu::core& c, unsigned r, std::uint32_t v) {
    cpu::hart_state& h = c.state();
    if (r == 0) return true;  // x0 stays zero
    if (r < 32) {
        h.x[r] = v;
        return true;
    }
    if (r == reg_pc) {
        h.pc = v & ~1u;
        dbg_[c.hart_id()].skip_pc = h.pc;
        return true;
    }
    if (r >= reg_f0 && r < reg_f0 + 32) {
        h.f[r - reg_f0] = v;
        return true;
    }
    switch (r >= reg_csr0 ? r - reg_csr0 : ~0u) {
    case 0x001: h.fflags = v & 0x1f; return true;
    case 0x002: h.frm = v & 7; return true;
    case 0x003:
        h.fflags = v & 0x1f;
        h.frm = v >> 5 & 7;
        return true;
    case 0x340: h.mscratch = v; return true;
    case 0x341: h.mepc = v & ((h.extensions & cpu::ext_c) ? ~1u : ~3u); return true;  // IALIGN, as csrw
    case 0x342: h.mcause = v; return true;
    case 0x343: h.mtval = v; return true;
    default: return false;  // the others have side effects the debugger should not bypass
    }
}

unsigned gdb_stub::debug_read(std::uint64_t addr, void* data, unsigned size) {
    // The loader sees every memory (L3 included), a core every peripheral.
    const unsigned n = soc_.debug_read(addr, data, size);
    return n ? n : harts_[static_cast<std::size_t>(g_thread_)]->bus.debug_read(addr, data, size);
}

std::string gdb_stub::read_memory(std::uint64_t addr, std::uint64_t len) {
    std::vector<unsigned char> buf(len);
    std::uint64_t got = 0;
    while (got < len) {
        const unsigned n = debug_read(addr + got, buf.data() + got, static_cast<unsigned>(len - got));
        if (n) {
            got += n;
            continue;
        }
        // Registers answer whole aligned words only.
        const std::uint64_t a = addr + got, w = a & ~std::uint64_t(3);
        std::uint32_t word;
        if (debug_read(w, &word, 4) != 4) break;
        const unsigned skip = static_cast<unsigned>(a - w);
        const unsigned take = static_cast<unsigned>(std::min<std::uint64_t>(4 - skip, len - got));
        std::memcpy(buf.data() + got, reinterpret_cast<unsigned char*>(&word) + skip, take);
        got += take;
    }
    std::string out;
    for (std::uint64_t i = 0; i < got; ++i) out += fmt::format("{:02x}", buf[i]);
    return out;
}

bool gdb_stub::write_memory(std::uint64_t addr, const std::vector<unsigned char>& bytes) {
    if (bytes.empty()) return true;
    const auto n = static_cast<unsigned>(bytes.size());
    // All or nothing: a range that runs out of the memory (past its end) is
    // refused before a byte is written (the part inside was written, then
    // E14 returned).
    if (read_memory(addr, bytes.size()).size() != 2 * bytes.size()) return false;  // hex: two digits a byte
    if (soc_.debug_write(addr, bytes.data(), n) != n &&
        harts_[static_cast<std::size_t>(g_thread_)]->bus.debug_write(addr, bytes.data(), n) != n)
        return false;
    // Decoded instructions are not snooped: the new bytes may be code.
    for (cpu::core* c : harts_) c->flush_decoded();
    return true;
}

std::string gdb_stub::target_xml() const {
    std::string x =
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n"
        "<architecture>riscv:rv32</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n";
    static const char* const abi[] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "fp", "s1", "a0",
                                      "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                                      "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
    for (unsigned r = 0; r < 32; ++r) {
        const char* type = r == 1 ? "code_ptr" : r == 2 || r == 8 ? "data_ptr" : "int";
        x += fmt::format("<reg name=\"{}\" bitsize=\"32\" type=\"{}\" regnum=\"{}\"/>\n", abi[r], type, r);
    }
    x += fmt::format("<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"{}\"/>\n</feature>\n", reg_pc);
    x += "<feature name=\"org.gnu.gdb.riscv.fpu\">\n";
    for (unsigned r = 0; r < 32; ++r)
        x += fmt::format("<reg name=\"f{}\" bitsize=\"32\" type=\"ieee_single\" regnum=\"{}\"/>\n", r, reg_f0 + r);
    x += fmt::format("<reg name=\"fflags\" bitsize=\"32\" type=\"int\" regnum=\"{}\"/>\n", reg_csr0 + 1);
    x += fmt::format("<reg name=\"frm\" bitsize=\"32\" type=\"int\" regnum=\"{}\"/>\n", reg_csr0 + 2);
    x += fmt::format("<reg name=\"fcsr\" bitsize=\"32\" type=\"int\" regnum=\"{}\"/>\n</feature>\n", reg_csr0 + 3);
    x += "<feature name=\"org.gnu.gdb.riscv.csr\">\n";
    for (const csr_desc& c : csrs)
        x += fmt::format("<reg name=\"{}\" bitsize=\"32\" type=\"int\" regnum=\"{}\" group=\"system\"/>\n", c.name,
                         reg_csr0 + c.num);
    x += "</feature>\n</target>\n";
    return x;
}

}  // namespace npu::platform
