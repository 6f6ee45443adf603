// soc.on_bus_error=stop: even with a trap handler installed, a fetch from an
// unmapped address stops the run with a fetch bus-error report at that PC.
// The parked worker never runs.
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
core_env* E;
base::bus_error_info last;
int reports = 0;

void ensure_ran() {
    static bool done = [] {
        std::vector<u32> p;
        li(p, 1, ram + 0x400);
        p.push_back(csrw(mtvec, 1));
        li(p, 2, 0x00000100u);
        p.push_back(jalr(0, 2, 0));  // jump to an unmapped address
        E->mem.load(ram, p);
        E->mem.load(ram + 0x400, {jal(0, 0)});
        E->ctx.services().on_bus_error = [](const base::bus_error_info& e) {
            last = e;
            ++reports;
        };
        E->boot_cc_and_run(ram);
        return true;
    }();
    (void)done;
}

}  // namespace

TEST(CoreStop, FetchFromUnmappedStopsEvenWithHandler) {
    ensure_ran();
    ASSERT_EQ(reports, 1);
    EXPECT_EQ(E->ctx.services().stop_code(), base::exit_code::bus_error);
    EXPECT_TRUE(last.is_fetch);
    EXPECT_FALSE(last.is_write);
    EXPECT_EQ(last.address, 0x100u);
    EXPECT_EQ(last.pc, 0x100u);
    EXPECT_EQ(last.who->hart, 1);
}

TEST(CoreStop, WorkerStaysParked) {
    ensure_ran();
    EXPECT_TRUE(E->cores[0]->parked());
    EXPECT_EQ(E->cores[0]->instret(), 0u);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    core_env env({"soc.on_bus_error=stop"}, 1);
    E = &env;
    return RUN_ALL_TESTS();
}
