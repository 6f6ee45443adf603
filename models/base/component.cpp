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
    : sc_core::sc_module(nm),
      cfg_(cfg),
      section_(std::move(section)),
      ctx_(&find_context(*this)),
      log_(name(), ctx_->level) {
    const double hz = static_cast<double>(cfg.frequency_hz("soc.cluster_clock"));
    period_ = sc_core::sc_time(1.0 / hz, sc_core::SC_SEC);
    period_div_ = divisor(period_.value());
    for (unsigned k = 0; k < digits; ++k)
        for (std::uint64_t j = 0; j < digit_base; ++j)
            digit_cycles_[k][j] = period_ * static_cast<double>(j << (digit_bits * k));
}

void component::add_stat(const std::string& name, const std::uint64_t& v, const std::string& unit,
                         const std::string& description) {
    if (!stats_) stats_ = &ctx_->stats.add_group(this->name());
    stats_->values.push_back(stat_value{name, unit, description, &v});
}

}  // namespace npu::base
