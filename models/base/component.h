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
#include "divisor.h"
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
    // (Inline, without sc_time's double round trip through a volatile, and
    // without sc_time::from_value, a libsystemc call: the small counts every
    // burst and access asks for are looked up, and an absolute cycle (a DMA
    // burst's end on the L2 path, per burst) is the sum of one table entry
    // per base-64 digit. The same values as period * n in doubles while
    // those are exact (below 2^53 resolution units), exact beyond up to 2^24
    // cycles; past that, doubles as before.)
    sc_core::sc_time cycles(std::uint64_t n) const {
        if (n < digit_base) return digit_cycles_[0][n];
        if (n >= std::uint64_t{1} << (digit_bits * digits)) return period_ * static_cast<double>(n);
        sc_core::sc_time t = digit_cycles_[0][n % digit_base];
        for (unsigned k = 1; k < digits; ++k) t += digit_cycles_[k][(n >> (digit_bits * k)) % digit_base];
        return t;
    }
    // nearest_cycle at the cluster clock, by the period's reciprocal (divisor.h).
    std::uint64_t cycle_of(const sc_core::sc_time& t) const {
        const std::uint64_t p = period_.value();
        return p ? period_div_.div(t.value() + p / 2) : 0;
    }

    // Registers a counter shown by the end-of-run report.
    void add_stat(const std::string& name, const std::uint64_t& v, const std::string& unit,
                  const std::string& description);

private:
    const cfg::config& cfg_;
    std::string section_;
    sim_context* ctx_;
    logger log_;
    sc_core::sc_time period_;
    divisor period_div_;
    static constexpr unsigned digit_bits = 6, digits = 4;
    static constexpr std::uint64_t digit_base = std::uint64_t{1} << digit_bits;
    // digit_cycles_[k][j]: cycles(j << (digit_bits * k)).
    std::array<std::array<sc_core::sc_time, digit_base>, digits> digit_cycles_;
    stats_registry::group* stats_ = nullptr;
};

}  // namespace npu::base
