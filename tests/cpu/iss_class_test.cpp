// Instructions retired per cost class (hart_state::class_insns), which the
// energy model charges energy.insn_<class> for: every retired instruction in
// exactly one class, none for a faulting one or the final EBREAK.
#include "iss_machine.h"

#include <gtest/gtest.h>

#include <numeric>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

std::uint64_t total(const cpu::hart_state& h) {
    return std::accumulate(std::begin(h.class_insns), std::end(h.class_insns), std::uint64_t{0});
}

TEST(ClassCounts, EveryRetiredInstructionInItsClass) {
    iss_machine m;
    // x1 = data; a loop of 10: lw, mul, div, sw, addi, bne; then jal over a nop.
    m.program({lui(1, iss_machine::data >> 12), addi(2, 0, 10), lw(10, 1, 0), mul(11, 10, 2), div(12, 11, 2),
               sw(12, 1, 4), addi(2, 2, -1), bne(2, 0, -20), jal(0, 8), nop(), ebreak()});
    EXPECT_EQ(m.run(), static_cast<std::uint32_t>(cpu::cause_breakpoint));
    const auto& c = m.h.class_insns;
    EXPECT_EQ(c[cpu::cc_load], 10u);
    EXPECT_EQ(c[cpu::cc_store], 10u);
    EXPECT_EQ(c[cpu::cc_mul], 10u);
    EXPECT_EQ(c[cpu::cc_div], 10u);
    EXPECT_EQ(c[cpu::cc_branch], 10u);
    EXPECT_EQ(c[cpu::cc_jump], 1u);
    EXPECT_EQ(c[cpu::cc_alu], 2u + 10u);  // lui, addi x2; the loop's addi (the skipped nop is not run)
    EXPECT_EQ(total(m.h), m.h.instret);
}

TEST(ClassCounts, AFaultingInstructionIsNotCounted) {
    iss_machine m;
    m.program({addi(5, 0, 1), lui(1, 0x80000), lw(10, 1, 8)});  // the load faults (no memory there)
    EXPECT_EQ(m.run(), static_cast<std::uint32_t>(cpu::cause_load_access));
    EXPECT_EQ(m.h.class_insns[cpu::cc_load], 0u);
    EXPECT_EQ(m.h.class_insns[cpu::cc_alu], 2u);
    EXPECT_EQ(total(m.h), m.h.instret);
}

}  // namespace
