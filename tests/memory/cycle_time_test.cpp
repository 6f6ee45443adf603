// The models' integer conversion from SystemC time to cluster cycles
// (base/component.h) gives exactly what the double arithmetic it replaced
// gave: nearest_cycle(t, period) = std::llround(t / period), over times up
// to hours at periods of real clocks (an odd and an even number of
// picoseconds), around every half cycle; and component::cycle_of is it at
// the cluster clock. And component::cycles(n), summed from a table per
// base-64 digit, is period * n as sc_time's double arithmetic gives it.
#include "base/component.h"
#include "util/harness.h"

#include "config/config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

using namespace npu;

namespace {

struct probe : base::component {
    probe(sc_core::sc_module_name nm, const cfg::config& c) : base::component(nm, c, "soc") {}
};

cfg::config gap9() { return cfg::config::load("", {}); }

}  // namespace

TEST(CycleTime, NearestCycleMatchesTheDoubleArithmetic) {
    const cfg::config cfg = gap9();
    test::test_context ctx("ctx", cfg);
    probe p("p", cfg);
    const sc_core::sc_time period = p.clock_period();
    ASSERT_GT(period.value(), 1u);
    std::mt19937_64 rng(7);
    std::uint64_t checked = 0, halves = 0;
    // Each period: the default clock's (370 MHz: 2703 ps), an even one
    // (400 MHz) and another odd one (300 MHz).
    for (const std::uint64_t ps : {std::uint64_t{period.value()}, std::uint64_t{2500}, std::uint64_t{3333}}) {
        const sc_core::sc_time per = sc_core::sc_time::from_value(ps);
        for (unsigned i = 0; i < 200000; ++i) {
            // Cycle counts up to about 2^40 (hours of simulated time).
            const std::uint64_t n = rng() >> (24 + rng() % 40);
            if (ps == period.value()) {
                ASSERT_EQ(p.cycle_of(p.cycles(n)), n) << "n " << n;
            }
            // Times at, just around and half-way between cycle boundaries.
            const std::uint64_t edge = n * ps;
            for (const std::uint64_t v : {edge, edge + 1, edge + ps / 2, edge + (ps + 1) / 2, edge + ps / 2 - 1,
                                          edge + rng() % ps}) {
                const sc_core::sc_time t = sc_core::sc_time::from_value(v);
                ASSERT_EQ(base::nearest_cycle(t, per), static_cast<std::uint64_t>(std::llround(t / per)))
                    << "t " << v << " ps, period " << ps << " ps";
                halves += 2 * (v % ps) == ps;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 3000000u);
    EXPECT_GT(halves, 100000u);  // exact halves (even period) round up on both
    EXPECT_EQ(base::nearest_cycle(sc_core::SC_ZERO_TIME, period), 0u);
}

TEST(CycleTime, CyclesMatchTheDoubleArithmetic) {
    const cfg::config cfg = gap9();
    test::test_context ctx("ctx", cfg);
    probe p("p", cfg);
    const sc_core::sc_time period = p.clock_period();
    std::uint64_t checked = 0;
    auto check = [&](std::uint64_t n) {
        ASSERT_EQ(p.cycles(n), period * static_cast<double>(n)) << "n " << n;
        ASSERT_EQ(p.cycles(n).value(), period.value() * n) << "n " << n;  // exact: the product fits a double
        ++checked;
    };
    // Every count up to 2^14, each side of every digit's boundary (64^k,
    // a digit at 63 rolling over), and the tables' end (2^24), past which
    // cycles() multiplies in doubles.
    for (std::uint64_t n = 0; n < (std::uint64_t{1} << 14); ++n) check(n);
    for (unsigned k = 1; k <= 4; ++k)
        for (std::uint64_t base = std::uint64_t{1} << (6 * k), d = 1; d < 64 && base * d < (std::uint64_t{1} << 30);
             ++d)
            for (const std::uint64_t n : {base * d - 1, base * d, base * d + 1}) check(n);
    std::mt19937_64 rng(11);
    for (unsigned i = 0; i < 200000; ++i) check(rng() >> (34 + rng() % 30));  // up to 2^30
    EXPECT_GT(checked, 200000u);
}

extern "C" int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
