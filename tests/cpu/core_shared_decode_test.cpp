// The harts of one context share a decode cache when they decode alike
// (decode_cache.h). A FENCE.I drops the blocks for every hart; one that is
// suspended inside its batch (a register access that waits) meanwhile goes on
// executing the block it was in, which stays allocated until it leaves its
// batch: the sanitizer build runs this test, so a use after free fails it.
#include "core_env.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 ram = bus_backing::ram_base;
constexpr u32 flags = ram + 0x8000;
constexpr u32 tohost = ram + 0x9000;
constexpr u32 worker_entry = ram + 0x1000;
constexpr std::uint64_t blocked_cycles = 3000;

// The worker: blocks in the target, then runs on in the same block.
std::vector<u32> worker_program() {
    std::vector<u32> p;
    li(p, 1, bus_backing::dev_base);
    li(p, 5, flags);
    p.push_back(lw(6, 1, 12));      // suspended inside the batch while the CC runs
    p.push_back(addi(3, 0, 100));   // then these slots, decoded before the FENCE.I
    p.push_back(addi(3, 3, -1));
    p.push_back(bne(3, 0, -4));
    p.push_back(addi(4, 0, 7));
    p.push_back(sw(4, 5, 0));       // flag 0 = 7: the worker got through
    p.push_back(csrr(7, minstret));
    p.push_back(sw(7, 5, 8));       // flag 2: its instructions retired
    p.push_back(jal(0, 0));
    return p;
}

// The cluster controller: wakes the worker, waits, FENCE.I (while the worker
// is blocked), then waits for the worker's flag and ends the run.
std::vector<u32> cc_program() {
    std::vector<u32> p;
    li(p, 1, bus_backing::dev_base);
    li(p, 5, flags);
    p.push_back(addi(4, 0, 1));
    p.push_back(sw(4, 1, 4));       // wake worker 0
    p.push_back(addi(3, 0, 300));   // 300 x 4 cycles: the worker is blocked by then
    p.push_back(addi(3, 3, -1));
    p.push_back(bne(3, 0, -4));
    p.push_back(fence_i());
    p.push_back(addi(4, 0, 1));
    p.push_back(sw(4, 5, 4));       // flag 1: the FENCE.I ran
    p.push_back(lw(6, 5, 0));
    p.push_back(beq(6, 0, -4));     // until the worker's flag
    li(p, 10, tohost);
    p.push_back(addi(9, 0, 1));
    p.push_back(sw(9, 10, 0));
    p.push_back(jal(0, 0));
    return p;
}

core_env* E;
std::uint64_t fenced_during_block = 0;  // flag 1 as the blocked worker woke

struct run_once {
    run_once() {
        E->mem.load(ram, cc_program());
        E->mem.load(worker_entry, worker_program());
        E->mem.on_block = [](sc_core::sc_time& delay) {
            sc_core::wait(delay);
            delay = sc_core::SC_ZERO_TIME;
            sc_core::wait(E->mem.period * static_cast<double>(blocked_cycles));
            fenced_during_block = E->mem.word(flags + 4);
        };
        E->cores[0]->set_boot_address(worker_entry);
        E->cc().set_boot_address(ram);
        for (auto& c : E->cores) c->set_tohost(tohost);
        E->cc().start();
        sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    }
};
void ensure_ran() { static run_once r; }

}  // namespace

TEST(SharedDecode, HartsOfOneContextShareTheirDecodeCache) {
    EXPECT_EQ(E->cores[0]->decoded(), E->cc().decoded());
}

TEST(SharedDecode, BlockedHartRunsOnAfterAnotherHartsFenceI) {
    ensure_ran();
    auto& sim = E->ctx.services();
    EXPECT_TRUE(sim.stop_requested());
    EXPECT_EQ(sim.stop_code(), base::exit_code::success);
    // The FENCE.I ran while the worker was blocked inside its batch ...
    EXPECT_EQ(fenced_during_block, 1u);
    // ... which then ran its loop to the end from the dropped block.
    EXPECT_EQ(E->mem.word(flags), 7u);
    // li x2 (2 each), lw, addi, 100 x (addi, bne), addi, sw, csrr (its own, not retired yet).
    EXPECT_EQ(E->mem.word(flags + 8), 2u + 2u + 1u + 1u + 200u + 2u);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    fail_on_systemc_reports();
    core_env e({"soc.quantum=10us"}, 1);
    E = &e;
    return RUN_ALL_TESTS();
}
