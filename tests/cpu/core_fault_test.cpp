// Bus errors on the core model with soc.on_bus_error=trap: a faulting load
// with a handler installed is a precise load access fault delivered to the
// firmware; a store fault with no handler (mtvec = 0) stops the run with a
// bus-error report naming the hart, PC, address, size and direction.
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
constexpr u32 handler = ram + 0x400;
core_env* E;
base::bus_error_info last;
int reports = 0;

// The PCs below are offsets in this program.
constexpr u32 load_pc = ram + 24, store_pc = ram + 36;

void ensure_ran() {
    static bool done = [] {
        std::vector<u32> p;
        li(p, 1, handler);                 // 0, 4
        p.push_back(csrw(mtvec, 1));       // 8
        li(p, 2, 0x80000000u);             // 12, 16
        p.push_back(addi(10, 0, 0x55));    // 20
        p.push_back(lw(10, 2, 8));         // 24: load access fault -> handler
        p.push_back(addi(11, 0, 1));       // 28
        p.push_back(csrw(mtvec, 0));       // 32
        p.push_back(sb(11, 0, 0));         // 36: NULL store, no handler
        p.push_back(addi(12, 0, 1));       // 40: never reached
        E->mem.load(ram, p);
        E->mem.load(handler,
                    {csrr(20, mcause), csrr(21, mtval), csrr(22, mepc), addi(23, 22, 4), csrw(mepc, 23), mret()});
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

TEST(CoreFault, LoadFaultIsDeliveredPreciselyInTrapMode) {
    ensure_ran();
    const auto& h = E->cc().state();
    EXPECT_EQ(h.x[20], static_cast<u32>(cpu::cause_load_access));
    EXPECT_EQ(h.x[21], 0x80000008u);
    EXPECT_EQ(h.x[22], load_pc);
    EXPECT_EQ(h.x[10], 0x55u);  // the faulting load wrote nothing
    EXPECT_EQ(h.x[11], 1u);     // execution resumed after the handler
}

TEST(CoreFault, StoreFaultWithoutHandlerStopsWithReport) {
    ensure_ran();
    auto& sim = E->ctx.services();
    ASSERT_EQ(reports, 1);
    EXPECT_EQ(sim.stop_code(), base::exit_code::bus_error);
    ASSERT_NE(last.who, nullptr);
    EXPECT_EQ(last.who->hart, 1);
    EXPECT_EQ(last.who->role, "cluster controller");
    EXPECT_TRUE(last.has_pc);
    EXPECT_EQ(last.pc, store_pc);
    EXPECT_EQ(last.address, 0u);
    EXPECT_EQ(last.size, 1u);
    EXPECT_TRUE(last.is_write);
    EXPECT_FALSE(last.is_fetch);
    EXPECT_EQ(E->cc().state().x[12], 0u);
    EXPECT_TRUE(E->cc().halted());
    EXPECT_EQ(E->cc().pc(), store_pc);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    core_env env({"soc.on_bus_error=trap"}, 1);
    E = &env;
    return RUN_ALL_TESTS();
}
