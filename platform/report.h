// End-of-run reporting: the bus-error block, memcheck findings, and the
// summary table (stderr) / JSON (--stats) with cycles, per-core figures and
// traffic per memory level and initiator.
#pragma once

#include "soc.h"

#include <map>
#include <string>
#include <vector>

namespace npu::platform {

class report {
public:
    // Installs the bus-error and memcheck handlers into the SoC's services.
    report(const cfg::config& cfg, soc& s);

    std::string summary(const soc& s, const run_result& r) const;
    // Why the firmware's declared self-checks (npu_check_*) fail the run: one
    // that compared zero elements, fewer than it declared, or never ended;
    // "" if none does.
    static std::string self_check_failure(const soc& s);
    std::string json(const soc& s, const run_result& r) const;
    // The same figures as one flat CSV row under a header (npusim
    // --stats-csv): status, cycles, energy per block, bytes per level,
    // utilisation per engine, golden counts, per-layer cycles, MAC/cycle and
    // energy, and every effective config key — rows of many runs concatenate
    // into one table (`./npu sweep` writes the same column names).
    std::string csv(const soc& s, const run_result& r) const;

    // npusim --manifest: the golden comparison as a JSON object (or why the
    // outputs were not compared), written as "golden" in json().
    void set_golden_json(std::string obj) { golden_json_ = std::move(obj); }
    // npusim --manifest: multiply-accumulates per region (npuc's "layers"),
    // for the per-layer table and MAC/cycle.
    void set_layer_macs(std::vector<std::pair<std::string, std::uint64_t>> macs) { layer_macs_ = std::move(macs); }
    // npusim --manifest: where each layer's op came from (the checkpoints'
    // locations: a .mlir line or an ONNX node), the per-layer table's last
    // column.
    void set_layer_sources(std::map<std::string, std::string> sources) { layer_sources_ = std::move(sources); }

    const std::vector<std::string>& bus_errors() const { return bus_errors_; }
    // One finding per initiator, PC, kind and contiguous range of bytes.
    std::size_t memcheck_findings() const { return memcheck_count_; }
    // The first findings, formatted as printed (npusim --gdb: monitor memcheck).
    const std::vector<std::string>& memcheck_list() const { return memcheck_; }
    // How many findings are printed and listed (npusim --memcheck-limit); the
    // rest are counted.
    void set_memcheck_limit(std::size_t n) { memcheck_limit_ = n; }

private:
    std::string format_bus_error(const base::bus_error_info& e) const;
    std::string format_memcheck(const base::memcheck_info& m) const;
    std::string format_stack_overflow(const base::memcheck_info& m) const;
    std::string format_stack_crossing(const base::memcheck_info& m) const;
    std::string format_buffer_in_use(const base::memcheck_info& m) const;
    std::string layer_table(const soc& s) const;

    const cfg::config& cfg_;
    base::sim_services& svc_;
    std::vector<std::string> bus_errors_;
    std::vector<std::string> memcheck_;  // first findings, formatted
    std::size_t memcheck_count_ = 0;
    std::size_t memcheck_limit_ = 20;
    // A finding's contiguous range: later accesses by the same initiator and
    // PC, of the same kind, that touch or adjoin it extend it.
    struct memcheck_range {
        const base::initiator_id* who;
        std::uint64_t pc;
        bool has_pc;
        base::memcheck_info::kind_t kind;
        std::uint64_t first, end;  // accessed bytes [first, end)
        std::uint64_t bytes;       // unwritten bytes read in it
        std::uint64_t accesses;
        // What `first` was when the range opened: a heap block's name then
        // (allocated and freed where), not what reused its memory by the end.
        std::string symbol;
    };
    std::vector<memcheck_range> ranges_;
    // Adds `m` to its range (true) or opens a new one (false).
    bool merge_memcheck(const base::memcheck_info& m);
    std::string golden_json_;
    std::vector<std::pair<std::string, std::uint64_t>> layer_macs_;
    std::map<std::string, std::string> layer_sources_;
};

}  // namespace npu::platform
