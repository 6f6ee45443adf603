#include "blocks.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace npu::platform {

namespace {

// sa.model -> engine. Every choice the schema allows has an entry.
const std::pair<const char*, accel::sa_engine_maker> sa_engines[] = {
    {"tlm", [](const accel::sa_engine_env& env) { return std::make_unique<accel::sa_tlm_engine>(env); }},
};

}  // namespace

std::unique_ptr<accel::systolic_array> make_systolic_array(const char* name, const cfg::config& cfg) {
    const std::string& model = cfg.choice("sa.model");
    for (const auto& [key, make] : sa_engines)
        if (model == key) return std::make_unique<accel::systolic_array>(name, cfg, make);
    throw std::logic_error("sa.model=" + model + " is in the schema but has no engine in platform/blocks.cpp");
}

}  // namespace npu::platform
