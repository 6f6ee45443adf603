// The base chain every model derives from: a SystemC module that owns a
// name-stamped logger, typed parameters read from the platform config, and
// statistics collected by the end-of-run report.
#pragma once

#include "log.h"

#include "config/config.h"

#include <systemc>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace npu::base {

// --- statistics -----------------------------------------------------------------

struct stat_value {
    std::string name;
    std::string unit;
    std::string description;
    const std::uint64_t* value;  // points into the owning component
};

// Every component's counters, in creation order, for the report and --stats.
class stats_registry {
public:
    static stats_registry& get();
    struct group {
        std::string owner;  // hierarchical name
        std::vector<stat_value> values;
    };
    group& add_group(const std::string& owner);
    const std::deque<group>& groups() const { return groups_; }
    void reset() { groups_.clear(); }

private:
    std::deque<group> groups_;  // deque: components keep pointers to their group
};

// Memories (and anything whose traffic the report breaks down) get a small
// integer id; initiators count bytes per id without any lookup per access.
class traffic_registry {
public:
    static constexpr int max_targets = 16;
    static traffic_registry& get();
    int add_target(const std::string& name);
    const std::vector<std::string>& targets() const { return names_; }
    void reset() { names_.clear(); }

private:
    std::vector<std::string> names_;
};

struct traffic_counters {
    std::uint64_t read_bytes[traffic_registry::max_targets] = {};
    std::uint64_t write_bytes[traffic_registry::max_targets] = {};
};

// --- component ----------------------------------------------------------------------

class component : public sc_core::sc_module {
public:
    // `section` is the config section this model's parameters live in ("l1").
    component(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section);

    const cfg::config& config() const { return cfg_; }
    const std::string& section() const { return section_; }
    const logger& log() const { return log_; }

    // The cluster clock period; timing in the models is in cycles of it.
    const sc_core::sc_time& clock_period() const { return period_; }
    sc_core::sc_time cycles(std::uint64_t n) const { return period_ * static_cast<double>(n); }

    // Registers a counter shown by the end-of-run report.
    void add_stat(const std::string& name, const std::uint64_t& v, const std::string& unit,
                  const std::string& description);

private:
    const cfg::config& cfg_;
    std::string section_;
    logger log_;
    sc_core::sc_time period_;
    stats_registry::group* stats_ = nullptr;
};

// A typed parameter bound to "<section>.<name>" in the config: the schema
// declares its type, default, unit and meaning; the value is validated before
// the model is built. T is std::uint64_t (sizes, addresses, cycles, counts,
// frequencies, times in ps), bool, or std::string (choices, lists, text).
template <typename T>
class param {
public:
    param(const component& owner, const std::string& name);
    const T& get() const { return value_; }
    operator const T&() const { return value_; }
    const std::string& key() const { return key_; }
    const cfg::key_decl& decl() const { return *decl_; }

private:
    std::string key_;
    const cfg::key_decl* decl_;
    T value_;
};

}  // namespace npu::base
