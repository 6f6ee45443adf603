#include "blocks.h"

#ifdef NPU_RTL
#include "sa_compare_engine.h"
#include "sa_rtl_engine.h"
#endif

#include <stdexcept>
#include <string>
#include <utility>

namespace npu::platform {

namespace {

using sa_engine_factory = std::function<accel::sa_engine_maker(const cfg::config&)>;

accel::sa_engine_maker tlm_engine(const cfg::config& cfg) {
    // A waveform asked for with no RTL to trace would be silently missing.
    if (!cfg.text("sa.rtl_trace").empty())
        throw cfg::config_error("--rtl-trace " + cfg.text("sa.rtl_trace") +
                                ": only the RTL array has a waveform (use --sa.model=rtl or compare)");
    return [](const accel::sa_engine_env& env) { return std::make_unique<accel::sa_tlm_engine>(env); };
}

#ifdef NPU_RTL
rtl::sa_rtl_options rtl_options(const cfg::config& cfg) {
    // The RTL array has one weight register per PE: its cycles are the
    // single-buffered model's, which compare mode checks cycle for cycle.
    if (cfg.count("sa.weight_buffers") != 1)
        throw cfg::config_error("sa.model=" + cfg.choice("sa.model") + " needs sa.weight_buffers=1 (the RTL array " +
                                "has one weight register per PE; sa.weight_buffers=" +
                                std::to_string(cfg.count("sa.weight_buffers")) + " is the TLM engine's only)");
    return rtl::sa_rtl_options{cfg.text("sa.rtl_trace"), cfg.choice("sa.model")};
}
#else
accel::sa_engine_maker no_rtl(const cfg::config&) {
    throw cfg::config_error(
        "sa.model=rtl/compare: this npusim was built without RTL co-simulation (configure with "
        "-DNPU_RTL=ON; it needs verilator, scripts/install-deps.sh installs it)");
}
#endif

// sa.model -> engine. Every choice the schema allows has an entry.
const std::pair<const char*, sa_engine_factory> sa_engines[] = {
    {"tlm", tlm_engine},
#ifdef NPU_RTL
    {"rtl",
     [](const cfg::config& cfg) -> accel::sa_engine_maker {
         return [opt = rtl_options(cfg)](const accel::sa_engine_env& env) {
             return std::make_unique<rtl::sa_rtl_engine>(env, opt);
         };
     }},
    {"compare",
     [](const cfg::config& cfg) -> accel::sa_engine_maker {
         return [opt = rtl_options(cfg)](const accel::sa_engine_env& env) {
             return std::make_unique<rtl::sa_compare_engine>(env, std::make_unique<accel::sa_tlm_engine>(env),
                                                             std::make_unique<rtl::sa_rtl_engine>(env, opt));
         };
     }},
#else
    {"rtl", no_rtl},
    {"compare", no_rtl},
#endif
};

}  // namespace

std::unique_ptr<accel::systolic_array> make_systolic_array(const char* name, const cfg::config& cfg) {
    const std::string& model = cfg.choice("sa.model");
    for (const auto& [key, make] : sa_engines)
        if (model == key) return std::make_unique<accel::systolic_array>(name, cfg, make(cfg));
    throw std::logic_error("sa.model=" + model + " is in the schema but has no engine in platform/blocks.cpp");
}

}  // namespace npu::platform
