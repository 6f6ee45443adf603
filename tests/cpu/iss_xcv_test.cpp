// The CORE-V extensions on the pure ISS, instruction by instruction, against
// results worked out by hand from the CV32E40P user manual's tables
// (openhwgroup/cv32e40p docs/source/instruction_set_extensions.rst):
// signs, saturation/clip bounds (Is2 = 0 included), rounding terms, shift
// amounts, 32-bit wrap-around. Encodings from llvm-mc-19 -mattr=+xcv... (the
// assembly is listed with each). Also: an extension left out of
// core.isa_extensions makes its encodings illegal.
#include "iss_machine.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 base = iss_machine::ram_base;

struct alu_case {
    u32 insn, rd_in, rs1, rs2, want;
    const char* text;
};

// a0 = rD (10), a1 = rs1 (11), a2 = rs2 (12).
const alu_case alu_cases[] = {
    {0x5005b52bu, 0x00000000u, 0xfffffffbu, 0x00000000u, 0x00000005u, "cv.abs a0, a1"},
    {0x5005b52bu, 0x00000000u, 0x80000000u, 0x00000000u, 0x80000000u, "cv.abs a0, a1"},
    {0x5005b52bu, 0x00000000u, 0x00000007u, 0x00000000u, 0x00000007u, "cv.abs a0, a1"},
    {0x52c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.slet a0, a1, a2"},
    {0x52c5b52bu, 0x00000000u, 0x00000001u, 0xffffffffu, 0x00000000u, "cv.slet a0, a1, a2"},
    {0x52c5b52bu, 0x00000000u, 0x00000003u, 0x00000003u, 0x00000001u, "cv.slet a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000000u, "cv.sletu a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0x00000001u, 0xffffffffu, 0x00000001u, "cv.sletu a0, a1, a2"},
    {0x54c5b52bu, 0x00000000u, 0x00000005u, 0x00000005u, 0x00000001u, "cv.sletu a0, a1, a2"},
    {0x56c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0xffffffffu, "cv.min a0, a1, a2"},
    {0x58c5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.minu a0, a1, a2"},
    {0x5ac5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0x00000001u, "cv.max a0, a1, a2"},
    {0x5cc5b52bu, 0x00000000u, 0xffffffffu, 0x00000001u, 0xffffffffu, "cv.maxu a0, a1, a2"},
    {0x6005b52bu, 0x00000000u, 0x12348000u, 0x00000000u, 0xffff8000u, "cv.exths a0, a1"},
    {0x6205b52bu, 0x00000000u, 0x12348000u, 0x00000000u, 0x00008000u, "cv.exthz a0, a1"},
    {0x6405b52bu, 0x00000000u, 0x12345680u, 0x00000000u, 0xffffff80u, "cv.extbs a0, a1"},
    {0x6605b52bu, 0x00000000u, 0x12345680u, 0x00000000u, 0x00000080u, "cv.extbz a0, a1"},
    {0x7055b52bu, 0x00000000u, 0x00000064u, 0x00000000u, 0x0000000fu, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0xffffff9cu, 0x00000000u, 0xfffffff0u, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0x00000003u, 0x00000000u, 0x00000003u, "cv.clip a0, a1, 5"},
    {0x7055b52bu, 0x00000000u, 0xfffffff0u, 0x00000000u, 0xfffffff0u, "cv.clip a0, a1, 5"},
    {0x7005b52bu, 0x00000000u, 0x00000005u, 0x00000000u, 0x00000000u, "cv.clip a0, a1, 0"},
    {0x7005b52bu, 0x00000000u, 0xfffffffbu, 0x00000000u, 0xffffffffu, "cv.clip a0, a1, 0"},
    {0x71f5b52bu, 0x00000000u, 0x7fffffffu, 0x00000000u, 0x3fffffffu, "cv.clip a0, a1, 31"},
    {0x7255b52bu, 0x00000000u, 0xfffffffdu, 0x00000000u, 0x00000000u, "cv.clipu a0, a1, 5"},
    {0x7255b52bu, 0x00000000u, 0x00000014u, 0x00000000u, 0x0000000fu, "cv.clipu a0, a1, 5"},
    {0x7255b52bu, 0x00000000u, 0x00000007u, 0x00000000u, 0x00000007u, "cv.clipu a0, a1, 5"},
    {0x74c5b52bu, 0x00000000u, 0xffffffecu, 0x0000000au, 0xfffffff5u, "cv.clipr a0, a1, a2"},
    {0x74c5b52bu, 0x00000000u, 0x00000014u, 0x0000000au, 0x0000000au, "cv.clipr a0, a1, a2"},
    {0x74c5b52bu, 0x00000000u, 0x00000000u, 0x0000000au, 0x00000000u, "cv.clipr a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0xffffffffu, 0x0000000au, 0x00000000u, "cv.clipur a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0x0000000bu, 0x0000000au, 0x0000000au, "cv.clipur a0, a1, a2"},
    {0x76c5b52bu, 0x00000000u, 0x00000004u, 0x0000000au, 0x00000004u, "cv.clipur a0, a1, a2"},
    {0x04c5a55bu, 0x00000000u, 0x00000007u, 0xffffffffu, 0x00000001u, "cv.addn a0, a1, a2, 2"},
    {0x04c5a55bu, 0x00000000u, 0xfffffff9u, 0xffffffffu, 0xfffffffeu, "cv.addn a0, a1, a2, 2"},
    {0x00c5a55bu, 0x00000000u, 0x7fffffffu, 0x00000001u, 0x80000000u, "cv.addn a0, a1, a2, 0"},
    {0x44c5a55bu, 0x00000000u, 0xfffffff9u, 0xffffffffu, 0x3ffffffeu, "cv.addun a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0x00000005u, 0x00000000u, 0x00000001u, "cv.addrn a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0x00000006u, 0x00000000u, 0x00000002u, "cv.addrn a0, a1, a2, 2"},
    {0x84c5a55bu, 0x00000000u, 0xfffffffau, 0x00000000u, 0xffffffffu, "cv.addrn a0, a1, a2, 2"},
    {0xc6c5a55bu, 0x00000000u, 0x7fffffffu, 0x00000001u, 0x10000000u, "cv.addurn a0, a1, a2, 3"},
    {0x02c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0xfffffffeu, "cv.subn a0, a1, a2, 1"},
    {0x42c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0x7ffffffeu, "cv.subun a0, a1, a2, 1"},
    {0x82c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0xffffffffu, "cv.subrn a0, a1, a2, 1"},
    {0xc2c5b55bu, 0x00000000u, 0x00000001u, 0x00000004u, 0x7fffffffu, "cv.suburn a0, a1, a2, 1"},
    {0x80c5b52bu, 0x0000000au, 0x00000006u, 0xffffffe2u, 0x00000004u, "cv.addnr a0, a1, a2"},
    {0x82c5b52bu, 0xfffffff8u, 0x00000000u, 0x00000004u, 0x0fffffffu, "cv.addunr a0, a1, a2"},
    {0x84c5b52bu, 0x00000005u, 0x00000000u, 0x00000001u, 0x00000003u, "cv.addrnr a0, a1, a2"},
    {0x86c5b52bu, 0xffffffffu, 0x00000000u, 0x00000001u, 0x00000000u, "cv.addurnr a0, a1, a2"},
    {0x88c5b52bu, 0x00000002u, 0x0000000au, 0x00000001u, 0xfffffffcu, "cv.subnr a0, a1, a2"},
    {0x8ac5b52bu, 0x00000002u, 0x0000000au, 0x00000001u, 0x7ffffffcu, "cv.subunr a0, a1, a2"},
    {0x8cc5b52bu, 0x00000002u, 0x00000007u, 0x00000001u, 0xfffffffeu, "cv.subrnr a0, a1, a2"},
    {0x8ec5b52bu, 0x00000002u, 0x00000007u, 0x00000001u, 0x7ffffffeu, "cv.suburnr a0, a1, a2"},
    {0x90c5b52bu, 0x0000000au, 0x00000003u, 0xfffffffcu, 0xfffffffeu, "cv.mac a0, a1, a2"},
    {0x90c5b52bu, 0x7fffffffu, 0x00000001u, 0x00000001u, 0x80000000u, "cv.mac a0, a1, a2"},
    {0x92c5b52bu, 0x0000000au, 0x00000003u, 0x00000004u, 0xfffffffeu, "cv.msu a0, a1, a2"},
    {0x00c5c55bu, 0x00000000u, 0x1234ffffu, 0x00050003u, 0xfffffffdu, "cv.mulsn a0, a1, a2, 0"},
    {0x02c5c55bu, 0x00000000u, 0x0000fffdu, 0x00000001u, 0xfffffffeu, "cv.mulsn a0, a1, a2, 1"},
    {0x40c5c55bu, 0x00000000u, 0x80001234u, 0x80005678u, 0x40000000u, "cv.mulhhsn a0, a1, a2, 0"},
    {0x00c5d55bu, 0x00000000u, 0x0000ffffu, 0x1234ffffu, 0xfffe0001u, "cv.mulun a0, a1, a2, 0"},
    {0x48c5d55bu, 0x00000000u, 0x0010ffffu, 0x0010ffffu, 0x00000010u, "cv.mulhhun a0, a1, a2, 4"},
    {0x84c5c55bu, 0x00000000u, 0x00000003u, 0x00000001u, 0x00000001u, "cv.mulsrn a0, a1, a2, 2"},
    {0xc2c5c55bu, 0x00000000u, 0xfffd0000u, 0x00010000u, 0xffffffffu, "cv.mulhhsrn a0, a1, a2, 1"},
    {0x84c5d55bu, 0x00000000u, 0x00000006u, 0x00000001u, 0x00000002u, "cv.mulurn a0, a1, a2, 2"},
    {0xc2c5d55bu, 0x00000000u, 0xffff0000u, 0xffff0000u, 0x7fff0001u, "cv.mulhhurn a0, a1, a2, 1"},
    {0x02c5e55bu, 0x00000005u, 0x0000fffeu, 0x00000003u, 0xffffffffu, "cv.macsn a0, a1, a2, 1"},
    {0x40c5e55bu, 0x00000064u, 0x00020000u, 0xfffd0000u, 0x0000005eu, "cv.machhsn a0, a1, a2, 0"},
    {0x02c5f55bu, 0x00000001u, 0x0000ffffu, 0x00000002u, 0x0000ffffu, "cv.macun a0, a1, a2, 1"},
    {0x40c5f55bu, 0xffffffffu, 0x00010000u, 0x00010000u, 0x00000000u, "cv.machhun a0, a1, a2, 0"},
    {0x84c5e55bu, 0x00000001u, 0x00000001u, 0x00000001u, 0x00000001u, "cv.macsrn a0, a1, a2, 2"},
    {0xc4c5e55bu, 0xfffffff7u, 0x00010000u, 0x00010000u, 0xfffffffeu, "cv.machhsrn a0, a1, a2, 2"},
    {0x86c5f55bu, 0x00000003u, 0x00000001u, 0x00000001u, 0x00000001u, "cv.macurn a0, a1, a2, 3"},
    {0xc2c5f55bu, 0xfffffffeu, 0x00010000u, 0x00010000u, 0x00000000u, "cv.machhurn a0, a1, a2, 1"},
};

}  // namespace

TEST(Xcv, AluAndMacInstructionsMatchTheManual) {
    unsigned n = 0;
    for (const alu_case& c : alu_cases) {
        iss_machine m;
        m.program({c.insn, ebreak()});
        m.h.x[10] = c.rd_in;
        m.h.x[11] = c.rs1;
        m.h.x[12] = c.rs2;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.h.x[10], c.want) << c.text << " rD " << std::hex << c.rd_in << " rs1 " << c.rs1 << " rs2 " << c.rs2;
        EXPECT_EQ(m.h.x[11], c.rs1) << c.text;  // sources unchanged
        ++n;
    }
    EXPECT_EQ(n, sizeof(alu_cases) / sizeof(alu_cases[0]));
}

TEST(Xcv, ImmediateBranches) {
    // cv.beqimm a1, -16, +8; addi a0, a0, 1; addi a0, a0, 2;
    // cv.bneimm a1, 15, +8; addi a0, a0, 1; addi a0, a0, 2; ebreak
    const std::vector<u32> p = {0x0105e40bu, addi(10, 10, 1), addi(10, 10, 2),
                                0x00f5f40bu, addi(10, 10, 1), addi(10, 10, 2), ebreak()};
    const struct {
        u32 a1, want;
    } cases[] = {
        {0xfffffff0u, 2 + 2},  // == -16 (the immediate sign-extended): taken; != 15: taken
        {15, 3 + 3},           // != -16: falls through; == 15: falls through
        {0x0000fff0u, 3 + 2},  // only the low 5 bits match -16: not taken; != 15: taken
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.program(p);
        m.h.x[11] = c.a1;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint);
        EXPECT_EQ(m.h.x[10], c.want) << std::hex << c.a1;
    }
}

TEST(Xcv, ImmediateBranchOutOfTheBlockIsFar) {
    // cv.beqimm a1, 0, -0x800 at base + 0x800: the target (base) is in the
    // block; at base it would be outside (below the RAM): a fetch fault.
    iss_machine m;
    m.load(base + 0x800, {0x8005e08bu});
    m.load(base, {addi(10, 0, 7), ebreak()});
    m.h.pc = base + 0x800;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[10], 7u);
    iss_machine n;
    n.program({0x8005e08bu});
    ASSERT_EQ(n.run(), cpu::cause_fetch_access);
    EXPECT_EQ(n.h.exc_tval, base - 0x800);
}

TEST(Xcv, PostIncrementAndRegisterOffsetLoads) {
    const u32 d = iss_machine::data;
    struct {
        u32 insn;
        u32 a1_in, a2;
        u32 want_a0, want_a1;
        const char* text;
    } cases[] = {
        {0xfff5850bu, d + 3, 0, 0xffffff80u, d + 2, "cv.lb a0, (a1), -1"},
        {0x0055c50bu, d + 3, 0, 0x00000080u, d + 8, "cv.lbu a0, (a1), 5"},
        {0x0065950bu, d + 2, 0, 0xffff8081u, d + 8, "cv.lh a0, (a1), 6"},
        {0x0065d50bu, d + 2, 0, 0x00008081u, d + 8, "cv.lhu a0, (a1), 6"},
        {0x0085a50bu, d, 0, 0x80817f01u, d + 8, "cv.lw a0, (a1), 8"},
        {0x00c5b52bu, d + 3, 0xfffffffdu, 0xffffff80u, d, "cv.lb a0, (a1), a2"},
        {0x04c5b52bu, d, 16, 0x80817f01u, d + 16, "cv.lw a0, (a1), a2"},
        {0x0cc5b52bu, d - 4, 4, 0x80817f01u, d - 4, "cv.lw a0, a2(a1)"},
        {0x1ac5b52bu, d, 2, 0x00008081u, d, "cv.lhu a0, a2(a1)"},
        {0x0045b50bu, d - 4, 0, 0x80817f01u, d - 4, "cv.elw a0, 4(a1)"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.mem.set_word(d, 0x80817f01u);  // bytes 01 7f 81 80
        m.program({c.insn, ebreak()});
        m.h.x[11] = c.a1_in;
        m.h.x[12] = c.a2;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.h.x[10], c.want_a0) << c.text;
        EXPECT_EQ(m.h.x[11], c.want_a1) << c.text;
    }
}

TEST(Xcv, PostIncrementLoadIntoItsBaseKeepsTheLoadedValue) {
    iss_machine m;
    m.mem.set_word(iss_machine::data, 0x12345678u);
    m.program({0x0045250bu, ebreak()});  // cv.lw a0, (a0), 4
    m.h.x[10] = iss_machine::data;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[10], 0x12345678u);
}

TEST(Xcv, PostIncrementAndRegisterOffsetStores) {
    const u32 d = iss_machine::data;
    const struct {
        u32 insn, a1_in, a2, want_word, want_a1;
        const char* text;
    } cases[] = {
        {0xfea58fabu, d + 3, 0, 0xd4000000u, d + 2, "cv.sb a0, (a1), -1"},
        {0x00a5932bu, d + 2, 0, 0xc3d40000u, d + 8, "cv.sh a0, (a1), 6"},
        {0x00a5a42bu, d, 0, 0xa1b2c3d4u, d + 8, "cv.sw a0, (a1), 8"},
        {0x20a5b62bu, d + 1, 0x10, 0x0000d400u, d + 0x11, "cv.sb a0, (a1), a2"},
        {0x22a5b62bu, d, 0xfffffffcu, 0x0000c3d4u, d - 4, "cv.sh a0, (a1), a2"},
        {0x2ca5b62bu, d - 8, 8, 0xa1b2c3d4u, d - 8, "cv.sw a0, a2(a1)"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.program({c.insn, ebreak()});
        m.h.x[10] = 0xa1b2c3d4u;
        m.h.x[11] = c.a1_in;
        m.h.x[12] = c.a2;
        ASSERT_EQ(m.run(), cpu::cause_breakpoint) << c.text;
        EXPECT_EQ(m.mem.word(d), c.want_word) << c.text;
        EXPECT_EQ(m.h.x[11], c.want_a1) << c.text;
    }
}

TEST(Xcv, MisalignedPostIncrementLoadTrapsWithoutWritingBack) {
    iss_machine m;
    m.program({0x0085a50bu, ebreak()});  // cv.lw a0, (a1), 8
    m.h.x[11] = iss_machine::data + 2;
    ASSERT_EQ(m.run(), cpu::cause_misaligned_load);
    EXPECT_EQ(m.h.exc_tval, iss_machine::data + 2);
    EXPECT_EQ(m.h.x[11], iss_machine::data + 2);
}

TEST(Xcv, AbsentExtensionsAndReservedEncodingsAreIllegal) {
    const struct {
        u32 insn;
        std::uint32_t ext;
        const char* text;
    } cases[] = {
        {0x90c5b52bu, cpu::ext_xcvmac, "cv.mac a0, a1, a2"},
        {0x06c5c55bu, cpu::ext_xcvmac, "cv.mulsn a0, a1, a2, 3"},
        {0x5005b52bu, cpu::ext_xcvalu, "cv.abs a0, a1"},
        {0x06c5a55bu, cpu::ext_xcvalu, "cv.addn a0, a1, a2, 3"},
        {0x0105e40bu, cpu::ext_xcvbi, "cv.beqimm a1, -16, +8"},
        {0x0085a50bu, cpu::ext_xcvmem, "cv.lw a0, (a1), 8"},
        {0x2ca5b62bu, cpu::ext_xcvmem, "cv.sw a0, a2(a1)"},
        {0x0045b50bu, cpu::ext_xcvelw, "cv.elw a0, 4(a1)"},
    };
    for (const auto& c : cases) {
        iss_machine m;
        m.h.extensions = cpu::ext_all & ~c.ext;
        m.h.x[11] = iss_machine::data;
        m.program({c.insn, ebreak()});
        ASSERT_EQ(m.run(), cpu::cause_illegal) << c.text;
        EXPECT_EQ(m.h.exc_tval, c.insn) << c.text;
    }
    // With every extension: the reserved slots of the groups, and the
    // bit-manipulation and SIMD groups this ISS does not implement.
    for (u32 bad : {0x5ec5b52bu,    // custom-1 funct3 3, funct7 0x2f
                    0x5015b52bu,    // cv.abs with rs2 = 1
                    0x06c5b52bu,    // register load of size 3
                    0x14c5b52bu,    // "unsigned word" register load
                    0x0005c52bu,    // custom-1 funct3 4
                    0x0005855bu}) {  // custom-2 funct3 0 (xcvbitmanip)
        iss_machine m;
        m.program({bad, ebreak()});
        ASSERT_EQ(m.run(), cpu::cause_illegal) << std::hex << bad;
        EXPECT_EQ(m.h.exc_tval, bad);
    }
}
