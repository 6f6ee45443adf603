// The simulation context of one SoC: everything its models share that is not
// a bus — run control and report services, the statistics and traffic
// registries, the log level, the TLM quantum, and state a model family shares
// among its instances (the cores' LR/SC reservations and L1 bank table).
//
// The SoC owns it (a context_module); a model reaches it through
// component::context(), found once at construction by walking up the SystemC
// hierarchy to the nearest context_module. Nothing here is process-wide, so
// several SoCs can be elaborated in one process, each with its own context.
// Models cache what they need at construction: no lookup on hot paths.
#pragma once

#include "activity.h"
#include "log.h"
#include "sim_services.h"
#include "stats.h"

#include "config/config.h"

#include <systemc>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <memory>
#include <typeindex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npu::base {

// SystemC's current time. sc_core::sc_time_stamp() is a libsystemc call
// (through the PLT) on paths taken per burst and per access; the current
// simcontext's own accessor is inline and returns the same time. The
// simcontext is read from SystemC's pointer to it: sc_get_curr_simcontext(),
// which creates it when there is none, is too large for GCC to inline and
// was a call per burst; once any module exists the pointer is set.
inline const sc_core::sc_time& sim_time() {
    sc_core::sc_simcontext* const c = sc_core::sc_curr_simcontext;
    return (__builtin_expect(c != nullptr, 1) ? c : sc_core::sc_get_curr_simcontext())->time_stamp();
}

class sim_context {
public:
    sim_context() = default;
    sim_context(const sim_context&) = delete;
    sim_context& operator=(const sim_context&) = delete;

    sim_services services;
    stats_registry stats;
    traffic_registry traffic;
    // Messages above this level are dropped (npusim --log-level).
    log_level level = log_level::warn;
    // The temporal-decoupling quantum of every core of this SoC (soc.quantum).
    sc_core::sc_time quantum;
    // The timeline's sink (npusim --trace); null: nothing is recorded.
    activity_sink* activity = nullptr;
    // Harts of this SoC that are awake: running a batch, or waiting for
    // SystemC time to reach their local time. A hart asleep (parked, in WFI,
    // halted, blocked in a register access) has no timed wake-up of its own.
    // A DMA channel runs ahead of SystemC time only while this is 0
    // (dma.cpp, wait_unless_alone).
    unsigned harts_awake = 0;
    // The firmware's executable segments, [first, end) bus addresses
    // (platform::soc::load): the cores' decode caches map the host pages of
    // the slots that cover them in one call when they make a block.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> code;

    // Takes the memcheck mode and the quantum from the platform config.
    void configure(const cfg::config& cfg);

    // The quantum boundary the keepers of this context sync at: the same
    // formula as tlm::tlm_global_quantum::compute_local_quantum(), on this
    // context's quantum instead of the process-wide one.
    sc_core::sc_time compute_local_quantum() const { return compute_local_quantum(sim_time()); }
    // The same at SystemC time `now` (a caller that already holds it).
    sc_core::sc_time compute_local_quantum(const sc_core::sc_time& now) const {
        if (quantum == sc_core::SC_ZERO_TIME) return sc_core::SC_ZERO_TIME;
        return quantum - (now % quantum);
    }

    // One T per context, created on first use: state shared by every
    // instance of a model family within one SoC (and not across SoCs),
    // without base knowing the family's types.
    template <class T>
    T& shared() {
        auto& slot = shared_[std::type_index(typeid(T))];
        if (!slot) slot = std::shared_ptr<void>(new T(), [](void* p) { delete static_cast<T*>(p); });
        return *static_cast<T*>(slot.get());
    }

private:
    std::unordered_map<std::type_index, std::shared_ptr<void>> shared_;
};

// A module that owns a context for the models below it: the SoC, or a unit
// test's bench.
class context_module : public sc_core::sc_module {
public:
    explicit context_module(sc_core::sc_module_name nm) : sc_core::sc_module(nm) {}
    sim_context& context() { return ctx_; }
    const sim_context& context() const { return ctx_; }

private:
    sim_context ctx_;
};

// The context of the nearest context_module above `obj`. A top-level object
// (a unit test builds models without a SoC around them) takes the one
// top-level context_module of the simulation. Throws std::logic_error naming
// `obj` when there is none, or when several make the choice ambiguous.
sim_context& find_context(const sc_core::sc_object& obj);

// A quantum keeper whose quantum is its context's (not tlm_global_quantum's).
class quantum_keeper : public tlm_utils::tlm_quantumkeeper {
public:
    explicit quantum_keeper(const sim_context& ctx) : ctx_(&ctx) {}

    // need_sync() and sync() for a caller that holds the SystemC time `now`
    // (a core at every batch end): each sc_time_stamp() is a library call.
    // After the wait, SystemC time is exactly now + the local time, so the
    // reset needs none either; sync_from() returns that time.
    bool need_sync_at(const sc_core::sc_time& now) const { return now + m_local_time >= m_next_sync_point; }
    sc_core::sc_time sync_from(const sc_core::sc_time& now) {
        const sc_core::sc_time resume = now + m_local_time;
        sc_core::wait(m_local_time);
        m_local_time = sc_core::SC_ZERO_TIME;
        m_next_sync_point = resume + ctx_->compute_local_quantum(resume);
        return resume;
    }

protected:
    sc_core::sc_time compute_local_quantum() override { return ctx_->compute_local_quantum(); }

private:
    const sim_context* ctx_;
};

}  // namespace npu::base
