// An event line left unbound is an elaboration error naming the line (and
// saying what to do), not an event silently dropped at run time; a line
// bound to a line_stub is deliberately open and elaborates; a pin (an
// sc_signal<bool>, as an RTL twin drives it) drives a line through
// signal_to_line.
#include "accel/systolic_array.h"
#include "blocks.h"
#include "memory/memory.h"
#include "util/harness.h"

#include "config/memory_map.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

using namespace npu;

namespace {

struct bench {
    cfg::config cfg = cfg::config::load("", {});
    test::test_context ctx{"ctx", cfg};
    test::harness h{"h", {{"cc", static_cast<int>(cfg::initiator_class::core), 8}}};
    memory::memory l1{"l1", cfg, "l1"};
    std::unique_ptr<accel::systolic_array> sa = platform::make_systolic_array("sa", cfg);
    base::line_stub open_error{"open_error"};

    explicit bench(bool bind_done) {
        h.master(0).socket.bind(sa->socket);
        sa->bus.socket.bind(l1.socket);
        sa->error.bind(open_error);  // deliberately open: elaborates
        if (bind_done) sa->done.bind(open_error);
    }
};

}  // namespace

// Each case elaborates: ctest runs every case in its own process.
TEST(UnboundLine, FailsElaborationNamingTheLine) {
    bench b(false);
    try {
        sc_core::sc_start(sc_core::SC_ZERO_TIME);
        ADD_FAILURE() << "elaborated with sa.done unbound";
    } catch (const sc_core::sc_report& r) {
        const std::string msg = r.what();
        std::fprintf(stderr, "elaboration error as a user sees it:\n%s\n", msg.c_str());
        EXPECT_NE(msg.find("port not bound"), std::string::npos) << msg;
        EXPECT_NE(msg.find("'sa.done'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("bind it to its receiver, or to a base::line_stub"), std::string::npos) << msg;
    }
}

TEST(UnboundLine, StubbedLinesElaborate) {
    bench b(true);
    EXPECT_NO_THROW(sc_core::sc_start(sc_core::SC_ZERO_TIME));
}

TEST(LineAdapter, SignalDrivesTheLineAtItsTime) {
    const cfg::config cfg = cfg::config::load("", {});
    test::test_context ctx{"ctx", cfg};
    test::harness h{"h", {}};
    sc_core::sc_signal<bool> pin{"pin"};
    base::signal_to_line adapter{"adapter", 3};
    std::vector<std::tuple<unsigned, bool, sc_core::sc_time>> seen;
    test::line_probe probe{"probe",
                           [&](unsigned i, bool l, const sc_core::sc_time& at) { seen.emplace_back(i, l, at); }};
    adapter.in(pin);
    adapter.out.bind(probe.in);
    const sc_core::sc_time ns(1, sc_core::SC_NS);
    h.run_job([&] {
        sc_core::wait(5 * ns);
        pin.write(true);
        sc_core::wait(10 * ns);
        pin.write(false);
        sc_core::wait(ns);
    });
    ASSERT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen[0], std::make_tuple(3u, true, 5 * ns));
    EXPECT_EQ(seen[1], std::make_tuple(3u, false, 15 * ns));
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
