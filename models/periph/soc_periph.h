// SoC peripherals: the UART (firmware stdout), simulation control (exit code,
// unhandled-trap report from the runtime's trap entry) and the cycle counter.
// Register map: soc_periph_regs.h (shared with the firmware).
#pragma once

#include "base/peripheral.h"

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace npu::periph {

class soc_periph : public base::peripheral {
public:
    soc_periph(sc_core::sc_module_name nm, const cfg::config& cfg);
    ~soc_periph() override;

    // Host-side hooks, not hardware lines (so not ports): the simulator
    // reading memory for a report, and observing the run.
    // Reads a NUL-terminated string from memory (trace-marker names); the
    // platform connects it to a debug port. Unset: names print as addresses.
    std::function<std::string(std::uint32_t addr)> read_string;

    // Called when a hart ends a region (after its statistics are updated):
    // npusim snapshots per-layer checkpoints of a compiled network there.
    std::function<void(const std::string& name)> on_region_end;

    // Further counters sampled at region boundaries like the busy cycles
    // (the report's worker cycles and bytes per memory inside each region);
    // the platform sets it, the report reads region_stats::counters.
    std::function<std::vector<std::uint64_t>()> region_counters;

    // Cycles per named region (trace markers), in order of first use.
    struct region_stats {
        std::string name;
        int hart;
        std::uint64_t count = 0;
        std::uint64_t cycles = 0;
        std::uint64_t open = 0;  // regions begun and not ended
        std::vector<std::uint64_t> busy;  // per busy_snapshot() entry, summed over closed instances
        std::vector<std::uint64_t> counters;  // per region_counters() entry, likewise
        // Host wall seconds from the begin marker's execution to the end's,
        // summed over closed instances: where the simulator's own time goes
        // (bench/npuc_mlp, docs/compiler.md "Simulation speed"). Under
        // temporal decoupling a marker executes up to a quantum ahead of
        // other processes, whose work then counts in the neighbouring
        // region. Not deterministic, so in the --stats JSON only.
        double host_seconds = 0;
    };
    const std::vector<region_stats>& regions() const { return regions_; }
    // The innermost region hart `hart` is in now (an index into regions()),
    // or -1 (reports name the layer a DMA transfer was pushed in).
    int innermost_region(int hart) const;
    // Closes regions still open at the end of the run at `end_cycle`.
    void close_open_regions(std::uint64_t end_cycle);

    // Self-checks the firmware declared (NPU_CHECK_*), in order.
    struct self_check {
        std::string name;
        std::uint64_t expected = 0;
        std::uint64_t compared = 0;
        std::uint64_t errors = 0;
        bool ended = false;
    };
    const std::vector<self_check>& self_checks() const { return checks_; }
    // Elements and errors reported while no check was open (after
    // npu_check_end, before npu_check_begin): a harness bug.
    std::uint64_t stray_compared() const { return stray_compared_; }
    std::uint64_t stray_errors() const { return stray_errors_; }
    // npu_check_end calls with no check open; the first npu_check_begin
    // while one was open ("'b' began while 'a' was open"), or "".
    std::uint64_t stray_ends() const { return stray_ends_; }
    const std::string& nested_begin() const { return nested_begin_; }

    // Everything the firmware printed (also written to stdout as it comes).
    const std::string& uart_output() const { return uart_log_; }
    void set_echo(bool on) { echo_ = on; }

private:
    // Finds busy_snapshot's counters before the run: the statistics are all
    // registered by then, and the search (a name compare per statistic) is
    // set-up, not work of the first region marker.
    void start_of_simulation() override { busy_snapshot(); }
    void uart_tx(std::uint32_t v);
    void report_trap(std::uint32_t hart);
    void trace(std::uint32_t name_addr, bool begin);
    std::uint64_t now_cycles() const;
    // Busy-cycle counters of engines (DMA, SA, ...: every "busy_cycles"
    // statistic of this SoC) sampled at region boundaries, so the report
    // gives their utilisation inside each region.
    std::vector<std::uint64_t> busy_snapshot() const;
    // The counters busy_snapshot samples, found once: the statistics are
    // registered while the SoC is built, before any region marker runs.
    mutable std::vector<const std::uint64_t*> busy_counters_;
    mutable std::size_t busy_counters_groups_ = 0;  // groups() looked at for them

    struct open_region {
        std::size_t index;  // into regions_
        std::uint64_t start;
        std::vector<std::uint64_t> busy_at_start;
        std::vector<std::uint64_t> counters_at_start;
        std::chrono::steady_clock::time_point host_start;
    };
    std::vector<region_stats> regions_;
    std::vector<std::vector<open_region>> open_;  // per hart: a stack

    std::string uart_log_;
    std::string line_;
    bool echo_ = true;
    std::uint32_t trap_cause_ = 0, trap_epc_ = 0, trap_tval_ = 0;
    std::uint32_t cycles_hi_latch_ = 0;
    std::uint32_t memcheck_addr_ = 0;
    std::vector<self_check> checks_;
    std::uint64_t stray_compared_ = 0, stray_errors_ = 0, stray_ends_ = 0;
    std::string nested_begin_;
    std::uint32_t check_expected_ = 0;
    bool check_open_ = false;
    std::uint64_t uart_bytes_ = 0;
};

}  // namespace npu::periph
