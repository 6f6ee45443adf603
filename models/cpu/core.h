// The SystemC model of one RV32IMAF hart: the cluster controller or a worker.
//
// One SC_THREAD runs the interpreter (interp.h) in quantum-sized batches
// under a tlm_quantumkeeper. Every load, store and fetch goes through `bus`:
// DMI windows are the fast path (host pointer + offset, latency from the
// window), everything else is b_transport.
//
// Cost model (cycles of soc.cluster_clock; CV32E40P's, timing.h):
//  - each instruction costs core.cpi_<class> (alu, mul, mulh, div, branch,
//    jump, load, store, fpu, fdiv, amo); a taken branch costs
//    cpi_branch_taken; the divider adds the divisor's leading zeros, a load
//    the load-use stall, the FPU's FDIV/FSQRT busy time delays the next FPU
//    instruction (timing.h).
//  - loads/stores/AMOs add the latency of the memory touched: the DMI
//    window's read/write latency (for L1, only what exceeds the
//    timing::tcdm_pipelined_cycles the pipeline hides), or the delay
//    b_transport annotates.
//  - L1 bank arbitration: L1 is word-interleaved over l1.banks banks of
//    l1.bank_width bytes, each serving one access per cycle, shared with
//    the DMA and the SA. Every L1 access of every hart books its bank's
//    cycle (simulation time + the hart's local offset) in the SoC's bank
//    calendar (base/slot_calendar.h); a cycle another initiator booked makes
//    it wait for the bank's next free cycle, plus
//    core.l1_bank_conflict_penalty. Exact bank capacity under temporal
//    decoupling; who waits follows simulation order within a quantum (the
//    error bound is in slot_calendar.h and docs/memory-map.md).
// Stall statistics: memory latency, bank conflicts, div (cycles beyond an ALU
// instruction), fdiv (waits for the busy FPU), load-use, branch (taken extra).
//
// Blocking targets: a target may wait() inside b_transport (the event unit's
// wait/barrier/dispatch/join registers, which also first synchronise the
// access to the hart's local time). The hart then re-bases its batch on the
// new SystemC time: the time it spent blocked counts as sleep
// (sleep_cycles, event_wait_cycles), not in mcycle, like a clock-gated PULP
// core; only the returned delay counts as access latency. Nothing of this is
// on the DMI fast path.
#pragma once

#include "decode_cache.h"
#include "hart.h"

#include "base/bus_initiator.h"
#include "base/component.h"
#include "base/line.h"

#include <cstdint>

namespace npu::cpu {

class core;

// A debugger attached to the harts (platform/gdb_stub.h implements it).
// While one is attached, every hart runs the interpreter's checked
// instantiation, which asks before() ahead of each instruction; with none
// the normal loop runs, carrying no test for it.
class debug_agent {
public:
    virtual ~debug_agent() = default;
    // Ahead of the instruction at `pc` (not executed yet): true stops the
    // hart there, and the core then calls stopped().
    virtual bool before(core& c, std::uint32_t pc, const insn& i) = 0;
    // The hart has stopped: at a breakpoint, step or watchpoint (`fault`
    // empty), or at a synchronous exception or memcheck finding (`fault`
    // describes it; the exception is still pending in state().exc_*).
    // Blocks, without advancing simulated time, until the debugger resumes.
    virtual void stopped(core& c, const std::string& fault) = 0;
    // At every batch end of every hart: a cheap check for the debugger's
    // interrupt request (Ctrl-C).
    virtual void poll() = 0;
};

// Watches every instruction of a hart (npusim --itrace; platform/itrace.h).
// Like a debugger, one attached switches the hart to the checked interpreter.
class insn_observer {
public:
    virtual ~insn_observer() = default;
    // Ahead of the instruction at `pc`, which starts at global cycle `cycle`.
    virtual void before(core& c, std::uint32_t pc, const insn& i, std::uint64_t cycle) = 0;
    // The interpreter returned (a batch ended): the last instruction seen by
    // before() has completed, or raised an exception (`trapped`).
    virtual void after(core& c, bool trapped) = 0;
};

class core : public base::component {
public:
    core(sc_core::sc_module_name nm, const cfg::config& cfg, unsigned hart_id, bool is_cluster_controller);
    ~core() override;

    base::bus_initiator bus;

    // Side-band lines in (the platform binds the cluster's ports to them):
    // `event_wake` ends a WFI (an event arrived; never starts a parked
    // hart), `fetch_enable` starts a parked hart or ends a WFI, both at the
    // driver's time + delay (see wake()); `irq` sets mip bit `index`
    // (see set_irq()); `boot_address` sets the boot address; `awake` reads
    // whether the hart runs.
    base::line_in event_wake;
    base::line_in fetch_enable;
    base::line_in irq;
    base::word_in boot_address;
    base::level_in awake;

    // Where the hart starts (CC at start(), workers at their first wake()).
    void set_boot_address(std::uint32_t a) { boot_address_ = a; }
    // Lets the hart run from the boot address at the current time (the CC at t=0).
    void start();
    // Starts a parked hart, or ends a WFI; remembered if the hart is running,
    // so its next WFI returns at once. `delay`: the caller's local time offset
    // (a waker under temporal decoupling), so the hart starts when the
    // wake-up was issued rather than at the waker's quantum start.
    void wake(const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);
    // Level of machine interrupt line `bit` in mip (3 MSI, 7 MTI, 11 MEI, 16..31 platform).
    void set_irq(unsigned bit, bool level);
    // HTIF: a store of v with v & 1 to `addr` ends the run with code v >> 1.
    void set_tohost(std::uint32_t addr);
    // Stack guard (memcheck): the hart's stack is [lo, hi) in L1, which
    // starts at `floor`. While sp lies in [floor, lo) — the stack has grown
    // past its limit — an L1 access in [sp, lo) is a memcheck finding at that
    // access. The only cost on the fast path is one compare of sp per L1
    // access; lo == floor (the default) disables it.
    void set_stack_guard(std::uint32_t floor, std::uint32_t lo, std::uint32_t hi);

    bool running() const { return state_ == run_state::running; }
    bool parked() const { return state_ == run_state::parked; }
    bool halted() const { return state_ == run_state::halted; }
    std::uint32_t pc() const { return h_.pc; }
    std::uint64_t instret() const { return h_.instret; }
    unsigned hart_id() const { return h_.hart_id; }
    bool is_cluster_controller() const { return is_cc_; }
    // Attaches (or with null detaches) a debugger; see debug_agent.
    void attach_debugger(debug_agent* a) { debug_ = a; }
    // Attaches (or with null detaches) an instruction observer.
    void attach_observer(insn_observer* o) { observer_ = o; }
    // Drops the decoded instructions: a debugger wrote code memory.
    void flush_decoded() { dc_->flush(); }
    // The decode cache this hart uses (shared by the SoC's harts that decode alike).
    const decode_cache* decoded() const { return dc_; }
    // The hart's state at its last fault — a synchronous exception other
    // than an environment call, or a memcheck finding that ends the run (pc
    // is the load's, the registers as it executes; cycle and instret are
    // those of its batch's start) — for fault reports; null if none.
    const hart_state* fault_state() const { return fault_serial_ ? &fault_state_ : nullptr; }
    // Orders the faults of the harts of one SoC (the latest is the largest).
    std::uint64_t fault_serial() const { return fault_serial_; }
    // Architectural state, for tests and reports.
    const hart_state& state() const { return h_; }
    hart_state& state() { return h_; }

    // Statistics, as the report shows them (also for tests).
    std::uint64_t stall_memory() const;
    std::uint64_t stall_bank_conflict() const;
    std::uint64_t sleep_cycles() const { return sleep_cycles_; }
    // Part of sleep_cycles spent blocked inside a bus access (a target that
    // wait()s in b_transport: event-unit wait, barrier, dispatch, join).
    std::uint64_t event_wait_cycles() const { return event_wait_cycles_; }
    // Inside a slow-path (non-DMI) access right now: with a blocking target,
    // the hart is asleep there (deadlock reports).
    bool in_bus_access() const { return in_bus_access_; }
    // Loads / stores served by traffic target `id` (-1: targets without an id).
    std::uint64_t loads(int traffic_id) const;
    std::uint64_t stores(int traffic_id) const;

    struct bus_memory;  // the interpreter's memory policy (core.cpp)

private:
    SC_HAS_PROCESS(core);
    enum class run_state { parked, running, wfi, halted };

    void thread();
    void end_of_elaboration() override;
    // Handles h_.exc_*: delivers the trap, or reports and halts; false = halted.
    bool handle_exception();
    void halt();
    void update_stats();
    // Cycles the next batch may run at SystemC time `now` (the current time).
    std::uint64_t batch_budget(const sc_core::sc_time& now) const;
    // Nothing but this hart can still run at the current SystemC time.
    static bool alone_now(const base::sim_services& sim);

    hart_state h_;
    // The SoC's decode cache shared by the harts that decode alike
    // (decode_cache.h), else own_dc_.
    decode_cache* dc_ = nullptr;
    decode_cache own_dc_;
    bus_memory* mem_;
    base::quantum_keeper qk_;  // quantum from the SoC's context
    sc_core::sc_event wake_event_;
    run_state state_ = run_state::parked;
    bool wake_pending_ = false;
    bool is_cc_;
    bool stop_on_bus_error_;
    std::uint64_t watchdog_ = 0;  // soc.max_cycles: no batch runs past it (0 = no limit)
    std::uint32_t boot_address_ = 0;
    // Contention modes: after a batch that waited for an L1 bank or the L2
    // path, the next contended_batches_sticky batches end with a
    // synchronisation (core.cpp, thread()) and are at most
    // contended_batch_ cycles (core.contended_batch) if those waits took at
    // least 1 / dense_stall_share of the batch's cycles (dense contention:
    // contenders must take turns finely), else at most sparse_batch_ cycles
    // (core.sparse_contended_batch: an occasional collision, whoever runs
    // first loses little).
    std::uint64_t contended_batch_ = 0;
    std::uint64_t sparse_batch_ = 0;
    static constexpr unsigned contended_batches_sticky = 16;
    static constexpr std::uint64_t dense_stall_share = 8;
    unsigned contended_batches_ = 0;  // dense
    unsigned sparse_batches_ = 0;
    // Batches run in each mode (stats: what a multi-hart run's host time
    // goes to).
    std::uint64_t batches_dense_ = 0, batches_sparse_ = 0;
    // Whether this hart counts in l1_bank_calendar::dense_harts (set_dense).
    bool dense_counted_ = false;
    void set_dense(bool dense);

    std::uint64_t stall_memory_ = 0;
    std::uint64_t stall_bank_ = 0;
    std::uint64_t stall_div_ = 0;
    std::uint64_t stall_fdiv_ = 0;
    std::uint64_t stall_branch_ = 0;
    std::uint64_t sleep_cycles_ = 0;
    std::uint64_t event_wait_cycles_ = 0;
    bool in_bus_access_ = false;
    debug_agent* debug_ = nullptr;
    insn_observer* observer_ = nullptr;
    // A memcheck finding of this hart's that ends the run, described for
    // the debugger: the hart stops ahead of its next instruction.
    std::string debug_fault_;
    hart_state fault_state_;
    std::uint64_t fault_serial_ = 0;
    // The last synchronous trap taken to the handler: its pc and the
    // instructions retired then. Another at the same pc with none retired
    // since is a trap the handler cannot get past (its own first
    // instruction traps, e.g. compressed code on cores without `c`):
    // handle_exception stops the run instead of trapping forever.
    std::uint32_t last_trap_pc_ = 0;
    std::uint64_t last_trap_instret_ = UINT64_MAX;
    // The trap that began the current run of traps (none retired between
    // them): the loop's report names it too.
    std::uint32_t chain_trap_pc_ = 0, chain_trap_cause_ = 0, chain_trap_tval_ = 0;
    // The architectural state at the last synchronous trap (pc, cause, tval,
    // integer and float registers) and how many traps in a row found it the
    // same: a handler that returns to the instruction that trapped without
    // changing anything that made it trap (forgets to advance mepc) takes
    // the same trap from the same state forever. identical_traps_limit such
    // traps in a row, each straight back from the handler's mret, stop the
    // run (a retry that a handler's fix makes pass changes the state in
    // between; a loop that gets past the trap returns elsewhere).
    struct trap_snapshot {
        std::uint32_t pc = 0, cause = 0, tval = 0;
        std::uint32_t x[32] = {};
        std::uint32_t f[32] = {};
        bool operator==(const trap_snapshot& o) const;
    };
    trap_snapshot last_trap_state_;
    std::uint32_t identical_traps_ = 0;
    // Where the last mret returned and minstret then (stop::resync).
    std::uint32_t mret_pc_ = 1;  // no instruction is at an odd pc
    std::uint64_t mret_instret_ = UINT64_MAX;
    static constexpr std::uint32_t identical_traps_limit = 1000;
    bool memcheck_fault_ = false;  // recorded a memcheck fault in this batch
    void record_fault(std::uint32_t pc);
    // A store into a buffer in use (sim_services::watch) found racing at
    // its time, confirmed at the batch's end: the hart ran ahead of SystemC
    // time, and a DMA transfer that had ended by the store's time may not
    // have said so yet. The registers as the store executed, for the report.
    struct watched_store {
        bool pending = false;
        std::uint32_t addr = 0, size = 0, pc = 0;
        sc_core::sc_time at;
        hart_state regs;
    };
    watched_store watched_store_;
    void confirm_watched_store();
    // The hart's time in cycles: SystemC time + its local offset (timeline).
    std::uint64_t now_cycles() const;
    std::uint64_t traced_stall_ = 0;  // stall cycles already reported to the timeline
};

}  // namespace npu::cpu
