// A core against a target that wait()s inside b_transport (what the event
// unit's blocking registers do): the hart's time continues from the wake-up,
// the blocked time is sleep (not mcycle), and the batch/quantum bookkeeping
// stays consistent afterwards (time and mcycle advance together again).
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
constexpr u32 flags = ram + 0x8000;
constexpr u32 tohost = ram + 0x9000;
constexpr std::uint64_t blocked_cycles = 2500;  // longer than a quantum (1000 cycles at 100 MHz)
constexpr std::uint64_t return_latency = 10;

std::vector<u32> program() {
    std::vector<u32> p;
    li(p, 1, bus_backing::dev_base);
    li(p, 5, flags);
    p.push_back(addi(3, 0, 200));  // some work first, so the hart runs ahead of SystemC time
    p.push_back(addi(3, 3, -1));
    p.push_back(bne(3, 0, -4));
    p.push_back(csrr(20, mcycle));
    p.push_back(csrr(21, utime));
    p.push_back(lw(6, 1, 12));     // blocks in the target
    p.push_back(csrr(22, mcycle));
    p.push_back(csrr(23, utime));
    p.push_back(addi(3, 0, 1500)); // work across quantum boundaries after the re-base
    p.push_back(addi(3, 3, -1));
    p.push_back(bne(3, 0, -4));
    p.push_back(csrr(24, mcycle));
    p.push_back(csrr(25, utime));
    p.push_back(sw(20, 5, 0));
    p.push_back(sw(21, 5, 4));
    p.push_back(sw(22, 5, 8));
    p.push_back(sw(23, 5, 12));
    p.push_back(sw(24, 5, 16));
    p.push_back(sw(25, 5, 20));
    p.push_back(sw(6, 5, 24));
    li(p, 10, tohost);
    p.push_back(addi(9, 0, 1));
    p.push_back(sw(9, 10, 0));
    p.push_back(jal(0, 0));
    return p;
}

core_env* E;
std::uint64_t issued_at = 0, woke_at = 0;  // cycles, as the target saw them

struct run_once {
    run_once() {
        E->mem.load(ram, program());
        E->mem.on_block = [](sc_core::sc_time& delay) {
            const sc_core::sc_time p = E->mem.period;
            issued_at = static_cast<std::uint64_t>((sc_core::sc_time_stamp() + delay) / p);
            sc_core::wait(delay);  // synchronise, then sleep
            delay = sc_core::SC_ZERO_TIME;
            sc_core::wait(p * static_cast<double>(blocked_cycles));
            woke_at = static_cast<std::uint64_t>(sc_core::sc_time_stamp() / p);
            delay = p * static_cast<double>(return_latency);
        };
        E->cc().set_boot_address(ram);
        E->cc().set_tohost(tohost);
        E->cc().start();
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
};
void ensure_ran() { static run_once r; }
std::uint32_t flag(unsigned i) { return E->mem.word(flags + 4 * i); }

}  // namespace

TEST(CoreBlockingTarget, RunCompletes) {
    ensure_ran();
    auto& sim = E->ctx.services();
    ASSERT_TRUE(sim.stop_requested());
    EXPECT_EQ(sim.stop_code(), base::exit_code::success) << sim.stop_reason();
}

TEST(CoreBlockingTarget, TheHartResumesAtTheWakeUpPlusTheReturnedDelay) {
    ensure_ran();
    EXPECT_EQ(woke_at - issued_at, blocked_cycles);
    // The access was issued right after the `time` read (csrr, then the load).
    EXPECT_LE(issued_at - flag(1), 2u);
    // `time` right after the load: wake-up + returned latency + the load's own
    // CPI + the mcycle read between them (4 cycles: a CV32E40P slow CSR).
    EXPECT_GE(flag(3) - woke_at, return_latency);
    EXPECT_LE(flag(3) - woke_at, return_latency + 1 + 4);
}

TEST(CoreBlockingTarget, BlockedTimeIsSleepNotMcycle) {
    ensure_ran();
    const cpu::core& c = E->cc();
    EXPECT_EQ(c.event_wait_cycles(), blocked_cycles);
    EXPECT_EQ(c.sleep_cycles(), blocked_cycles);
    // mcycle across the load: its CPI and latency, and the csrr mcycle
    // (4, a CV32E40P slow CSR) and csrr time (1) before it.
    EXPECT_GE(flag(2) - flag(0), return_latency);
    EXPECT_LE(flag(2) - flag(0), return_latency + 1 + 4 + 1);
}

TEST(CoreBlockingTarget, TimeAndMcycleAdvanceTogetherAfterTheRebase) {
    ensure_ran();
    // 1500 iterations of addi + taken bne (1 + 3 cycles), across quantum
    // boundaries: both counters see the same cycles (plus the csrr mcycle, 4).
    EXPECT_EQ(flag(5) - flag(3), flag(4) - flag(2));
    EXPECT_GE(flag(4) - flag(2), 1500u * 4u - 2u);
    EXPECT_LE(flag(4) - flag(2), 1500u * 4u + 6u);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    fail_on_systemc_reports();
    core_env e({"soc.quantum=10us"});
    E = &e;
    return RUN_ALL_TESTS();
}
