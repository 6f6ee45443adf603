#include "context.h"

#include <stdexcept>
#include <string>

namespace npu::base {

void sim_context::configure(const cfg::config& cfg) {
    const std::string& mc = cfg.choice("soc.memcheck");
    services.set_memcheck(mc == "off"      ? memcheck_mode::off
                          : mc == "warn"   ? memcheck_mode::warn
                          : mc == "strict" ? memcheck_mode::strict
                                           : memcheck_mode::error);
    quantum = sc_core::sc_time(static_cast<double>(cfg.time_ps("soc.quantum")), sc_core::SC_PS);
}

sim_context& find_context(const sc_core::sc_object& obj) {
    for (sc_core::sc_object* p = obj.get_parent_object(); p; p = p->get_parent_object())
        if (auto* m = dynamic_cast<context_module*>(p)) return m->context();
    context_module* top = nullptr;
    for (sc_core::sc_object* o : sc_core::sc_get_top_level_objects()) {
        auto* m = dynamic_cast<context_module*>(o);
        if (!m) continue;
        if (top)
            throw std::logic_error(std::string(obj.name()) +
                                   ": built outside any SoC while several top-level contexts exist (" + top->name() +
                                   ", " + m->name() + "): build it inside the one it belongs to");
        top = m;
    }
    if (!top)
        throw std::logic_error(std::string(obj.name()) +
                               ": no simulation context: build models inside a SoC, or create a "
                               "base::context_module before them");
    return top->context();
}

}  // namespace npu::base
