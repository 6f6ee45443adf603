#include "component.h"

#include "sim_services.h"

#include <stdexcept>

namespace npu::base {

stats_registry::group& stats_registry::add_group(const std::string& owner) {
    groups_.push_back(group{owner, {}});
    return groups_.back();
}

int traffic_registry::add_target(const std::string& name) {
    if (static_cast<int>(names_.size()) >= max_targets)
        throw std::logic_error("more than " + std::to_string(max_targets) + " traffic targets");
    names_.push_back(name);
    return static_cast<int>(names_.size()) - 1;
}

component::component(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section)
    : sc_core::sc_module(nm), cfg_(cfg), section_(std::move(section)), ctx_(&find_context(*this)),
      log_(name(), ctx_->level) {
    const double hz = static_cast<double>(cfg.frequency_hz("soc.cluster_clock"));
    period_ = sc_core::sc_time(1.0 / hz, sc_core::SC_SEC);
}

void component::add_stat(const std::string& name, const std::uint64_t& v, const std::string& unit,
                         const std::string& description) {
    if (!stats_) stats_ = &ctx_->stats.add_group(this->name());
    stats_->values.push_back(stat_value{name, unit, description, &v});
}

namespace {
const cfg::key_decl& lookup_decl(const component& owner, const std::string& key) {
    const cfg::key_decl* d = cfg::platform_schema().find(key);
    if (!d) throw std::logic_error(std::string(owner.name()) + ": parameter " + key + " is not in the schema");
    return *d;
}

std::uint64_t read_number(const cfg::config& c, const cfg::key_decl& d) {
    switch (d.kind) {
    case cfg::value_kind::size: return c.size(d.key);
    case cfg::value_kind::address: return c.address(d.key);
    case cfg::value_kind::time: return c.time_ps(d.key);
    case cfg::value_kind::frequency: return c.frequency_hz(d.key);
    case cfg::value_kind::cycles: return c.cycles(d.key);
    case cfg::value_kind::count: return c.count(d.key);
    case cfg::value_kind::boolean: return c.boolean(d.key);
    default: throw std::logic_error(d.key + " is not numeric");
    }
}
}  // namespace

template <>
param<std::uint64_t>::param(const component& owner, const std::string& name)
    : key_(owner.section() + "." + name), decl_(&lookup_decl(owner, key_)),
      value_(read_number(owner.config(), *decl_)) {}

template <>
param<bool>::param(const component& owner, const std::string& name)
    : key_(owner.section() + "." + name), decl_(&lookup_decl(owner, key_)), value_(owner.config().boolean(key_)) {}

template <>
param<std::string>::param(const component& owner, const std::string& name)
    : key_(owner.section() + "." + name), decl_(&lookup_decl(owner, key_)), value_(owner.config().raw(key_)) {}

}  // namespace npu::base
