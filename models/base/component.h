// The base chain every model derives from: a SystemC module that owns a
// name-stamped logger, the platform config its parameters are read from,
// and statistics collected by the end-of-run report; it reaches its SoC's
// simulation context (context.h).
//
// Parameters are read one way: the config's typed accessors on a schema key
// (cfg.size("l1.size"), cfg.cycles(section() + ".latency"), ...). The
// schema declares each key's type, default, unit, bounds and meaning, and
// validates the value before any model is built.
#pragma once

#include "context.h"
#include "log.h"

#include "config/config.h"

#include <systemc>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace npu::base {

// The cycle of `period` nearest to `t` (halves round up): std::llround(t /
// period) in integers, the same value while times fit a double exactly (2^53
// resolution units, 2.5 hours at 1 ps) and exact beyond, without a double
// division and a libm call on paths taken per burst and per batch.
inline std::uint64_t nearest_cycle(const sc_core::sc_time& t, const sc_core::sc_time& period) {
    const std::uint64_t p = period.value();
    return p ? (t.value() + p / 2) / p : 0;
}

// --- component ----------------------------------------------------------------------

class component : public sc_core::sc_module {
public:
    // `section` is the config section this model's parameters live in ("l1").
    component(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section);

    const cfg::config& config() const { return cfg_; }
    const std::string& section() const { return section_; }
    const logger& log() const { return log_; }
    // The SoC's simulation context, found once at construction (context.h).
    sim_context& context() const { return *ctx_; }
    sim_services& services() const { return ctx_->services; }

    // The cluster clock period; timing in the models is in cycles of it.
    const sc_core::sc_time& clock_period() const { return period_; }
    // (In doubles, inline: sc_time::from_value is a libsystemc call. The
    // small counts every burst and access asks for are looked up: the same
    // values, without sc_time's double round trip per call.)
    sc_core::sc_time cycles(std::uint64_t n) const {
        return n < small_cycles_.size() ? small_cycles_[n] : period_ * static_cast<double>(n);
    }
    // nearest_cycle at the cluster clock.
    std::uint64_t cycle_of(const sc_core::sc_time& t) const { return nearest_cycle(t, period_); }

    // Registers a counter shown by the end-of-run report.
    void add_stat(const std::string& name, const std::uint64_t& v, const std::string& unit,
                  const std::string& description);

private:
    const cfg::config& cfg_;
    std::string section_;
    sim_context* ctx_;
    logger log_;
    sc_core::sc_time period_;
    std::array<sc_core::sc_time, 64> small_cycles_;  // cycles(n) for n < 64
    stats_registry::group* stats_ = nullptr;
};

}  // namespace npu::base
