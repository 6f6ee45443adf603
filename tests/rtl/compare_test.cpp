// sa.model=compare's verdict: the first difference between the reference
// (TLM) and the RTL run of a job, in the order the report needs — outcome,
// faulting access, cycles, stalls, then the first differing element of C.
#include "sa_compare_engine.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

const sc_time period(1, SC_NS);

accel::sa_job job(bool fp32) {
    accel::sa_job j;
    j.m = 2, j.n = 3, j.k = 4;
    j.fp32 = fp32;
    return j;
}

accel::sa_run done_at(unsigned cycles) {
    accel::sa_run r;
    r.end = period * cycles;
    return r;
}

TEST(SaCompare, IdenticalRunsHaveNoDifference) {
    const std::vector<std::uint32_t> c{1, 2, 3, 4, 5, 6};
    EXPECT_EQ(rtl::sa_compare_engine::difference(job(false), done_at(100), done_at(100), c, c, sc_time(), period), "");
}

TEST(SaCompare, FirstDifferingElementIsNamed) {
    const std::vector<std::uint32_t> a{1, 2, 3, 4, 5, 6}, b{1, 2, 3, 4, 0xFFFFFFFF, 7};
    EXPECT_EQ(rtl::sa_compare_engine::difference(job(false), done_at(9), done_at(9), a, b, sc_time(), period),
              "C[1][1]: tlm 5 (0x00000005), rtl -1 (0xffffffff)");
    float x = 1.5f, y = 2.0f;
    std::vector<std::uint32_t> f(6, 0), g(6, 0);
    std::memcpy(&f[2], &x, 4);
    std::memcpy(&g[2], &y, 4);
    EXPECT_EQ(rtl::sa_compare_engine::difference(job(true), done_at(9), done_at(9), f, g, sc_time(), period),
              "C[0][2]: tlm 0x3fc00000 (1.5), rtl 0x40000000 (2)");
}

TEST(SaCompare, CyclesAreComparedBeforeResults) {
    const std::vector<std::uint32_t> a{1, 2, 3, 4, 5, 6}, b{0, 0, 0, 0, 0, 0};
    EXPECT_EQ(rtl::sa_compare_engine::difference(job(false), done_at(118), done_at(120), a, b, period * 10, period),
              "cycles: tlm 108, rtl 110");
}

TEST(SaCompare, FaultsMustAgree) {
    const std::vector<std::uint32_t> c(6, 0);
    accel::sa_run ok = done_at(50), bad = done_at(20);
    bad.ok = false;
    bad.failed = accel::sa_failed_access{1, 0x1c000000, 4, false, bad.end, 0};
    EXPECT_EQ(rtl::sa_compare_engine::difference(job(false), ok, bad, c, c, sc_time(), period),
              "tlm completed, rtl faulted");
    accel::sa_run other = bad;
    other.failed.row = 1;
    other.failed.addr = 0x1c000008;
    EXPECT_EQ(
        rtl::sa_compare_engine::difference(job(false), bad, other, c, c, sc_time(), period),
        "faulting access: tlm operand 1 row 0 read 4 B at 0x1c000000, rtl operand 1 row 1 read 4 B at 0x1c000008");
}

}  // namespace

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
