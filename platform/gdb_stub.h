// npusim --gdb: a GDB remote-serial-protocol stub over TCP (docs/debugging.md).
//
// One GDB thread per hart (thread id = hart id + 1: workers first, the
// cluster controller last; parked harts are listed too). All-stop: the stub
// runs inside the SystemC thread of the hart that stopped, so while GDB holds
// the target no process runs and simulated time does not advance.
//
// What stops a hart (all checked in before(), ahead of each instruction, in
// the interpreter's checked instantiation that only runs with --gdb):
// software/hardware breakpoints (Z0/Z1: one address set, no code is patched),
// a finished single-step, a read/write/access watchpoint (Z2/Z3/Z4: reported
// after the accessing instruction, as GDB expects), Ctrl-C (polled at batch
// ends). Synchronous exceptions and run-ending memcheck findings stop the
// hart at the faulting instruction (memcheck: just after the load) with the
// report text sent to GDB's console; continuing delivers the trap or ends the
// run as without a debugger. A run that ends for another reason (a DMA bus
// error, a deadlock, the watchdog) stops post mortem in finished(), with the
// state frozen, before GDB is told the exit code.
//
// Memory goes through the debug transport: the loader's (every memory, L3
// included), else the selected hart's (the peripherals' registers: word
// reads; they refuse debug writes).
#pragma once

#include "soc.h"

#include "cpu/core.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace npu::platform {

class gdb_stub : public cpu::debug_agent {
public:
    // Listens on 127.0.0.1:`port` (0: a free port the system picks). Throws
    // std::runtime_error when the socket cannot be set up.
    gdb_stub(soc& s, unsigned port);
    ~gdb_stub() override;
    gdb_stub(const gdb_stub&) = delete;
    gdb_stub& operator=(const gdb_stub&) = delete;

    unsigned port() const { return port_; }
    // Blocks until GDB connects, then attaches to every hart; the cluster
    // controller stops ahead of its first instruction.
    void accept();
    // `monitor NAME` runs `fn` and shows its text in GDB.
    void add_monitor(const std::string& name, const std::string& help, std::function<std::string()> fn);
    // The report block of a fault whose one-line reason is given (the
    // bus-error or memcheck block npusim printed), shown in GDB at the stop.
    void set_fault_report(std::function<std::string(const std::string& reason)> fn) { fault_report_ = std::move(fn); }
    // The run is over: a fault GDB has not been shown stops post mortem
    // (`fault` non-empty), then GDB learns the exit code and the stub closes.
    void finished(int exit_code, const std::string& fault);

    bool before(cpu::core& c, std::uint32_t pc, const cpu::insn& i) override;
    void stopped(cpu::core& c, const std::string& fault) override;
    void poll() override;

private:
    enum class watch_kind { write = 2, read = 3, access = 4 };
    struct watchpoint {
        std::uint32_t addr, len;
        watch_kind kind;
    };
    struct hart_debug {
        bool step = false;          // single-step requested by the last resume
        bool stepped_one = false;   // ... and its instruction has been let through
        std::uint32_t skip_pc = 1;  // stopped here: the first instruction on resume is not a breakpoint hit
        bool stop_now = false;      // stop ahead of the next instruction (attach, Ctrl-C)
        int watch_hit = -1;         // index into watches_: stop ahead of the next instruction
        std::uint32_t watch_addr = 0;
    };

    soc& soc_;
    int listen_fd_ = -1, fd_ = -1;
    unsigned port_ = 0;
    bool no_ack_ = false;
    bool detached_ = false;
    bool fault_shown_ = false;
    std::vector<cpu::core*> harts_;
    std::vector<hart_debug> dbg_;
    std::vector<std::uint32_t> breakpoints_;
    std::vector<watchpoint> watches_;
    unsigned poll_count_ = 0;
    int g_thread_ = 0;  // hart of Hg (register/memory accesses)
    std::string last_stop_;
    struct monitor_cmd {
        std::string help;
        std::function<std::string()> fn;
    };
    std::map<std::string, monitor_cmd> monitors_;
    std::string rx_;  // bytes received and not yet consumed
    std::function<std::string(const std::string&)> fault_report_;

    // --- protocol ---
    bool read_packet(std::string& out);  // false: connection closed
    void send_packet(const std::string& body);
    void console(const std::string& text);  // O packets (only while GDB waits for a stop)
    // Serves packets until a resume (true) or until GDB goes away (false).
    bool serve();
    std::string handle(const std::string& p, bool& resume);
    std::string stop_reply(int signal, unsigned hart, const std::string& extra) const;
    bool resume(const std::string& actions);
    std::string query(const std::string& p);
    std::string monitor(const std::string& cmd);
    std::string read_register(const cpu::core& c, unsigned regno, bool& ok) const;
    bool write_register(cpu::core& c, unsigned regno, std::uint32_t v);
    unsigned debug_read(std::uint64_t addr, void* data, unsigned size);
    std::string read_memory(std::uint64_t addr, std::uint64_t len);
    bool write_memory(std::uint64_t addr, const std::vector<unsigned char>& bytes);
    std::string target_xml() const;
    std::string thread_info(const cpu::core& c) const;
    int watch_at(const cpu::insn& i, const cpu::hart_state& h, std::uint32_t& addr) const;
    void detach();
};

}  // namespace npu::platform
