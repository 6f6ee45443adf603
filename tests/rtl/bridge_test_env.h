// What the register-bridge tests (apb_bridge_test, axi_lite_bridge_test)
// share: three harness masters, each bound to one bridge + Verilated slave
// bench (no wait states, three wait states, three wait states against a
// 2-cycle timeout), 32-bit read/write helpers, and the gtest sc_main.
#pragma once

#include "config/memory_map.h"
#include "util/harness.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace npu::test {

// Bench<V>(name, timeout_cycles) is a bridge + slave of RTL model V; the
// bridge's target socket is `bridge.socket`.
template <template <class> class Bench, class Fast, class Slow>
struct bridge_env {
    const cfg::config cfg = cfg::config::load("", {"soc.memcheck=off"});
    test_context ctx{"ctx", cfg};  // the harness's masters live in a simulation context
    harness h{"h", {{"cpu", static_cast<int>(cfg::initiator_class::core), 0},
                    {"cpu_slow", static_cast<int>(cfg::initiator_class::core), 1},
                    {"cpu_stuck", static_cast<int>(cfg::initiator_class::core), 2}}};
    Bench<Fast> fast{"fast", 1024};   // no wait states
    Bench<Slow> slow{"slow", 1024};   // 3 wait states
    Bench<Slow> stuck{"stuck", 2};    // 3 wait states against a 2-cycle timeout
    bridge_env() {
        h.master(0).socket.bind(fast.bridge.socket);
        h.master(1).socket.bind(slow.bridge.socket);
        h.master(2).socket.bind(stuck.bridge.socket);
    }
};

inline std::uint32_t rd(base::bus_initiator& b, std::uint32_t a, tlm::tlm_response_status* st = nullptr) {
    std::uint32_t v = 0;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const auto s = b.read(a, &v, 4, d);
    if (st) *st = s;
    return v;
}

inline tlm::tlm_response_status wr(base::bus_initiator& b, std::uint32_t a, const void* p, unsigned n) {
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    return b.write(a, p, n, d);
}

// The body of sc_main: the environment must exist before the simulation
// starts (its modules are elaborated), the tests run inside it.
template <class Env>
int run_bridge_tests(int argc, char** argv, Env*& global) {
    ::testing::InitGoogleTest(&argc, argv);
    fail_on_systemc_reports();
    Env e;
    global = &e;
    return RUN_ALL_TESTS();
}

}  // namespace npu::test
