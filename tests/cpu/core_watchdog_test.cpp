// soc.max_cycles stops every hart at its first instruction boundary at or
// after the limit, whatever the quantum: here the quantum (1 ms = 100,000
// cycles) is far longer than the limit, and the code has no branch for
// thousands of instructions (the interpreter's batch limit is only checked at
// taken branches). One elaboration: the cluster controller wakes both workers,
// then each hart runs straight-line code long past the limit.
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
constexpr u32 worker0_entry = ram + 0x4000;
constexpr u32 worker1_entry = ram + 0x8000;
constexpr std::uint64_t limit = 1000;
constexpr u32 straight = 3000;  // instructions without a branch, each hart
// CV32E40P's divider: core.cpi_div (3) + the 29 leading zeros of the divisor 7.
constexpr std::uint64_t div_cost = 32;

std::vector<u32> cc_program() {
    std::vector<u32> p;
    li(p, 1, bus_backing::dev_base);
    p.push_back(addi(4, 0, 3));
    p.push_back(sw(4, 1, 4));  // wake harts 0 and 1
    for (u32 i = 0; i < straight; ++i) p.push_back(addi(5, 5, 1));
    p.push_back(jal(0, 0));
    return p;
}

std::vector<u32> worker0_program() {
    std::vector<u32> p(straight, addi(5, 5, 1));
    p.push_back(jal(0, 0));
    return p;
}

// Two 1-cycle instructions, then 32-cycle divisions: the limit falls inside one.
std::vector<u32> worker1_program() {
    std::vector<u32> p{addi(2, 0, 700), addi(3, 0, 7)};
    for (u32 i = 0; i < straight; ++i) p.push_back(div(4, 2, 3));
    p.push_back(jal(0, 0));
    return p;
}

core_env* E;

void ensure_ran() {
    static bool done = [] {
        E->mem.load(ram, cc_program());
        E->mem.load(worker0_entry, worker0_program());
        E->mem.load(worker1_entry, worker1_program());
        E->cores[0]->set_boot_address(worker0_entry);
        E->cores[1]->set_boot_address(worker1_entry);
        E->boot_cc_and_run(ram);
        return true;
    }();
    (void)done;
}

// The hart's global cycle: cycles executed plus cycles parked before its wake.
std::uint64_t global_cycle(const cpu::core& c) { return c.state().cycle + c.sleep_cycles(); }

}  // namespace

TEST(CoreWatchdog, ControllerStopsExactlyAtTheLimit) {
    ensure_ran();
    const cpu::core& cc = E->cc();
    EXPECT_EQ(global_cycle(cc), limit);
    EXPECT_EQ(cc.sleep_cycles(), 0u);
    // Not one instruction more than needed, and the pc is the next one.
    EXPECT_LT(cc.state().instret, limit);
    EXPECT_EQ(cc.state().pc, ram + 4 * static_cast<u32>(cc.state().instret));
}

TEST(CoreWatchdog, WorkerStopsExactlyAtTheLimit) {
    ensure_ran();
    const cpu::core& w = *E->cores[0];
    ASSERT_GT(w.state().instret, 0u);  // it was woken and ran
    EXPECT_EQ(global_cycle(w), limit);
    EXPECT_EQ(w.state().instret, w.state().cycle);  // one-cycle instructions only
    EXPECT_EQ(w.state().pc, worker0_entry + 4 * static_cast<u32>(w.state().instret));
}

TEST(CoreWatchdog, InstructionCrossingTheLimitCompletes) {
    ensure_ran();
    const cpu::core& w = *E->cores[1];
    ASSERT_GT(w.state().instret, 2u);
    const std::uint64_t g = global_cycle(w);
    // The first boundary at or after the limit: the division that crosses it
    // completes, the next one does not start.
    EXPECT_GE(g, limit);
    EXPECT_LT(g - div_cost, limit);
    EXPECT_EQ(w.state().cycle, 2 + (w.state().instret - 2) * div_cost);
    EXPECT_EQ(w.state().pc, worker1_entry + 4 * static_cast<u32>(w.state().instret));
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    core_env env({"soc.quantum=1ms", "soc.max_cycles=" + std::to_string(limit)});
    E = &env;
    return RUN_ALL_TESTS();
}
