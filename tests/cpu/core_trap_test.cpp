// An illegal instruction with no trap handler (mtvec = 0) ends the run with
// exit_code::unhandled_trap and a message naming hart, cause, PC and mtval.
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
core_env* E;

void ensure_ran() {
    static bool done = [] {
        E->mem.load(ram, {addi(1, 0, 1), addi(2, 0, 2), 0xffffffffu});
        E->ctx.services().symbolize = [](std::uint64_t a) {
            return a == ram + 8 ? std::string("bad_func+0x8") : std::string();
        };
        E->boot_cc_and_run(ram);
        return true;
    }();
    (void)done;
}

}  // namespace

TEST(CoreTrap, IllegalInstructionWithoutHandlerStops) {
    ensure_ran();
    auto& sim = E->ctx.services();
    EXPECT_EQ(sim.stop_code(), base::exit_code::unhandled_trap);
    const std::string& r = sim.stop_reason();
    EXPECT_NE(r.find("hart 1"), std::string::npos) << r;
    EXPECT_NE(r.find("illegal instruction"), std::string::npos) << r;
    EXPECT_NE(r.find("0x1c000008"), std::string::npos) << r;
    EXPECT_NE(r.find("bad_func+0x8"), std::string::npos) << r;
    EXPECT_NE(r.find("0xffffffff"), std::string::npos) << r;
    EXPECT_EQ(E->cc().instret(), 2u);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    core_env env({}, 1);
    E = &env;
    return RUN_ALL_TESTS();
}
