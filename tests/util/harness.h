// Test harness for model unit tests: one SystemC elaboration per test
// executable; each test case runs a job on the harness thread with
// run_job(), which returns when the job is done and nothing else is pending.
// SystemC warnings and errors fail the test.
#pragma once

#include "base/bus_initiator.h"
#include "base/context.h"
#include "base/line.h"

#include <gtest/gtest.h>
#include <systemc>

#include <functional>
#include <memory>
#include <vector>

namespace npu::test {

// The simulation context of a unit test's models, which have no SoC around
// them: declare it before them (they find it as the one top-level context).
class test_context : public base::context_module {
public:
    test_context(sc_core::sc_module_name nm, const cfg::config& cfg) : base::context_module(nm) {
        context().configure(cfg);
    }
    base::sim_services& services() { return context().services; }
    const base::stats_registry& stats() { return context().stats; }
};

class harness : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(harness);
    struct master_spec {
        std::string name;
        int cls;  // cfg::initiator_class
        int hart = -1;
    };
    // Sockets must be created inside their module's constructor.
    harness(sc_core::sc_module_name nm, const std::vector<master_spec>& masters) : sc_core::sc_module(nm) {
        for (const auto& m : masters) {
            ids_.push_back(std::make_unique<base::initiator_id>(base::initiator_id{m.name, m.cls, m.hart, "test"}));
            masters_.push_back(std::make_unique<base::bus_initiator>(m.name.c_str(), *ids_.back()));
        }
        SC_THREAD(thread);
    }

    base::bus_initiator& master(std::size_t i) { return *masters_.at(i); }

    // Runs `job` inside an SC_THREAD (so it may wait()) and returns after it.
    void run_job(std::function<void()> job) {
        // The first call lets the thread reach its wait() before notifying.
        if (!sc_core::sc_is_running() && sc_core::sc_get_status() == sc_core::SC_ELABORATION)
            sc_core::sc_start(sc_core::SC_ZERO_TIME);
        job_ = std::move(job);
        done_ = false;
        start_.notify(sc_core::SC_ZERO_TIME);
        sc_core::sc_start();
        ASSERT_TRUE(done_) << "harness job did not finish (stopped or deadlocked)";
    }

private:
    void thread() {
        for (;;) {
            wait(start_);
            job_();
            done_ = true;
        }
    }
    sc_core::sc_event start_;
    std::function<void()> job_;
    bool done_ = false;
    std::vector<std::unique_ptr<base::initiator_id>> ids_;
    std::vector<std::unique_ptr<base::bus_initiator>> masters_;
};

// The receiving end of a model's side-band line in a unit test (exports
// live in modules): calls `on_drive` with each drive, at the time it lands
// (SystemC time + the driver's delay).
class line_probe : public sc_core::sc_module {
public:
    using handler = std::function<void(unsigned index, bool level, const sc_core::sc_time& at)>;
    base::line_in in;
    line_probe(sc_core::sc_module_name nm, handler h)
        : sc_core::sc_module(nm),
          in("in",
             [this](unsigned i, bool l, const sc_core::sc_time& d) { on_drive_(i, l, sc_core::sc_time_stamp() + d); }),
          on_drive_(std::move(h)) {}

private:
    handler on_drive_;
};

// Fails the current test on any SystemC warning or error.
inline void fail_on_systemc_reports() {
    sc_core::sc_report_handler::set_handler([](const sc_core::sc_report& r, const sc_core::sc_actions&) {
        if (r.get_severity() >= sc_core::SC_WARNING)
            ADD_FAILURE() << "SystemC " << (r.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << ": "
                          << r.get_msg_type() << ": " << r.get_msg();
    });
}

}  // namespace npu::test
