// The cluster's shared instruction cache (models/cpu/icache.h) and the
// interpreter's fetch accounting (interp.h, NPU_FETCH): hits, misses and
// stall cycles counted exactly, one lookup per line entered.
#include "iss_machine.h"

#include <gtest/gtest.h>

namespace {

using namespace npu;
using namespace npu::test::rv;

cpu::icache::params gap9_like(std::uint32_t base = 0x1c000000) {
    cpu::icache::params p;
    p.size = 4096;
    p.line_bytes = 16;
    p.ways = 4;
    p.miss_cycles = 8;
    p.cached_base = base;
    p.cached_size = 1u << 20;
    return p;
}

TEST(Icache, MissFillsThenHits) {
    cpu::icache c;
    c.configure(gap9_like());
    EXPECT_FALSE(c.access(0x1c00000));
    EXPECT_TRUE(c.access(0x1c00000));
    EXPECT_FALSE(c.access(0x1c00001));
    EXPECT_TRUE(c.access(0x1c00000));
    EXPECT_TRUE(c.access(0x1c00001));
    c.flush();
    EXPECT_FALSE(c.access(0x1c00000));
}

TEST(Icache, RoundRobinEvictsTheOldestFillOfASet) {
    cpu::icache c;
    c.configure(gap9_like());  // 64 sets: lines 64 apart share a set
    for (std::uint32_t k = 0; k < 4; ++k) EXPECT_FALSE(c.access(k * 64));
    for (std::uint32_t k = 0; k < 4; ++k) EXPECT_TRUE(c.access(k * 64));  // a hit changes nothing
    EXPECT_FALSE(c.access(4 * 64));  // replaces way 0 (line 0)
    EXPECT_FALSE(c.access(0));       // replaces way 1 (line 64)
    EXPECT_TRUE(c.access(2 * 64));
    EXPECT_TRUE(c.access(3 * 64));
    EXPECT_FALSE(c.access(64));
    EXPECT_FALSE(c.access(1));  // another set: its first access misses
    EXPECT_TRUE(c.access(4 * 64));
}

TEST(Icache, GeometryMustHoldWholeSets) {
    cpu::icache c;
    auto p = gap9_like();
    p.size = 48;  // less than one set of 4 x 16 B
    EXPECT_THROW(c.configure(p), std::invalid_argument);
    p = gap9_like();
    p.size = 3 * 64;  // 3 sets: not a power of two
    EXPECT_THROW(c.configure(p), std::invalid_argument);
}

TEST(Icache, FetchRunLooksUpEachLineEnteredOnce) {
    cpu::icache c;
    c.configure(gap9_like());
    cpu::fetch_state f;
    f.attach(c);
    // 0x1c000004 .. 0x1c00003f: lines 0..3 of the window, all cold.
    EXPECT_EQ(f.run(0x1c000004, 0x1c00003f), 4u * 8u);
    EXPECT_EQ(f.misses, 4u);
    // A loop inside line 3 (the line the hart is in): no lookup at all.
    EXPECT_EQ(f.run(0x1c000030, 0x1c00003b), 0u);
    EXPECT_EQ(f.hits, 0u);
    // Back to line 0 and through line 1: two hits.
    EXPECT_EQ(f.run(0x1c000000, 0x1c000013), 0u);
    EXPECT_EQ(f.hits, 2u);
    EXPECT_EQ(f.stall_cycles, 32u);
    // Code outside the cached window (L1) is never looked up.
    EXPECT_EQ(f.run(0x10000000, 0x100000ff), 0u);
    EXPECT_EQ(f.hits + f.misses, 6u);
}

// A 10-iteration loop over 8 lines of nops, run by the interpreter: the first
// pass misses every line of the program once (10 lines), the other 9 passes
// hit the 9 lines of the loop; the cycles differ from a run without the
// cache by exactly 10 misses.
std::vector<std::uint32_t> loop_program() {
    std::vector<std::uint32_t> p = {addi(5, 0, 10), nop(), nop(), nop()};  // line 0
    for (int i = 0; i < 32; ++i) p.push_back(nop());                        // lines 1..8: the loop body
    p.push_back(addi(5, 5, -1));                                            // line 9
    p.push_back(bne(5, 0, -4 * 33));                                        // back to 0x1c000010
    p.push_back(ebreak());
    return p;
}

TEST(Icache, LoopInL2MissesEachLineOnceThenHits) {
    cpu::icache c;
    c.configure(gap9_like(test::iss_machine::ram_base));
    test::iss_machine with, without;
    with.h.fetch.attach(c);
    with.program(loop_program());
    without.program(loop_program());
    ASSERT_EQ(with.run(), cpu::cause_breakpoint);
    ASSERT_EQ(without.run(), cpu::cause_breakpoint);
    EXPECT_EQ(with.h.fetch.misses, 10u);
    EXPECT_EQ(with.h.fetch.hits, 9u * 9u);
    EXPECT_EQ(with.h.fetch.stall_cycles, 80u);
    EXPECT_EQ(with.h.cycle, without.h.cycle + 80u);
    EXPECT_EQ(with.h.instret, without.h.instret);
    EXPECT_EQ(without.h.fetch.misses + without.h.fetch.hits, 0u);
}

TEST(Icache, LoopLargerThanTheCacheMissesOnEveryPass) {
    auto p = gap9_like(test::iss_machine::ram_base);
    p.size = 64;  // one set of 4 lines: the 9-line loop evicts itself
    cpu::icache c;
    c.configure(p);
    test::iss_machine m;
    m.h.fetch.attach(c);
    m.program(loop_program());
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.fetch.hits, 0u);
    EXPECT_EQ(m.h.fetch.misses, 10u + 9u * 9u);
}

// mcycle read right after a run of cold lines already includes their misses.
TEST(Icache, CycleCsrSeesTheMissesBeforeIt) {
    cpu::icache c;
    c.configure(gap9_like(test::iss_machine::ram_base));
    test::iss_machine m;
    m.h.fetch.attach(c);
    std::vector<std::uint32_t> prog;
    for (int i = 0; i < 16; ++i) prog.push_back(nop());  // lines 0..3
    prog.push_back(csrrs(6, 0xc00, 0));                  // line 4: csrr x6, cycle
    prog.push_back(ebreak());
    m.program(prog);
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.fetch.misses, 5u);
    EXPECT_EQ(m.h.x[6], 16u + 1u + 5u * 8u);  // 16 nops, the csrr itself, 5 misses
}

}  // namespace
