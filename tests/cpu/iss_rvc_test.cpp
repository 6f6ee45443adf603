// The C extension on the pure ISS: every RV32C/Zcf instruction against
// hand-computed results (encodings from llvm-mc-19 -mattr=+c,+f, listed with
// their assembly), mixed 16/32-bit streams with 32-bit instructions at
// addresses 2 mod 4, jumps, illegal 16-bit encodings (mtval = the 16 bits),
// IALIGN 16 vs 32 (core.isa_extensions without c), mepc/misa, and 32-bit
// instructions straddling a decoded block's or a code window's end.
#include "iss_machine.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr u32 base = iss_machine::ram_base;

// Halfwords in memory order; a 32-bit instruction is two of them.
void put(flat_memory& m, std::uint32_t addr, const std::vector<std::uint16_t>& hw) {
    std::memcpy(&m.ram[addr - m.base], hw.data(), hw.size() * 2);
}
std::vector<std::uint16_t> w32(u32 w) { return {static_cast<std::uint16_t>(w), static_cast<std::uint16_t>(w >> 16)}; }

}  // namespace

TEST(Rvc, ArithmeticImmediatesAndMoves) {
    iss_machine m;
    put(m.mem, base,
        {0x5501,    // c.li a0, -32
         0x45fd,    // c.li a1, 31
         0x767d,    // c.lui a2, 0xfffff
         0x6685,    // c.lui a3, 1
         0x0515,    // c.addi a0, 5
         0x7101,    // c.addi16sp sp, -512
         0x617d,    // c.addi16sp sp, 496
         0x1ff8,    // c.addi4spn a4, sp, 1020
         0x005c,    // c.addi4spn a5, sp, 4
         0x05fe,    // c.slli a1, 31
         0x8591,    // c.srai a1, 4
         0x8211,    // c.srli a2, 4
         0x9afd,    // c.andi a3, -1
         0x897d,    // c.andi a0, 31
         0x8836,    // c.mv a6, a3
         0x982e,    // c.add a6, a1
         0x8c05,    // c.sub s0, s1
         0x8322,    // c.mv t1, s0
         0x8c25,    // c.xor s0, s1
         0x83a2,    // c.mv t2, s0
         0x8c45,    // c.or s0, s1
         0x8e22,    // c.mv t3, s0
         0x8c65,    // c.and s0, s1
         0x0001,    // c.nop
         0x9002});  // c.ebreak
    m.h.x[2] = 0x1c008100;
    m.h.x[8] = 0x0f0f0f0f;
    m.h.x[9] = 0x00ff00ff;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.pc, base + 48);
    EXPECT_EQ(m.h.exc_tval, base + 48);  // ebreak: mtval = its pc
    EXPECT_EQ(m.h.instret, 24u);
    EXPECT_EQ(m.h.x[10], 0x05u);  // -32 + 5 = 0xffffffe5, & 31
    EXPECT_EQ(m.h.x[11], 0xf8000000u);  // 31 << 31 >> 4 (arithmetic)
    EXPECT_EQ(m.h.x[12], 0x0fffff00u);  // 0xfffff000 >> 4 (logical)
    EXPECT_EQ(m.h.x[13], 0x1000u);
    EXPECT_EQ(m.h.x[2], 0x1c0080f0u);  // -512 + 496
    EXPECT_EQ(m.h.x[14], 0x1c0080f0u + 1020);
    EXPECT_EQ(m.h.x[15], 0x1c0080f4u);
    EXPECT_EQ(m.h.x[16], 0xf8001000u);
    EXPECT_EQ(m.h.x[6], 0x0e100e10u);   // 0x0f0f0f0f - 0x00ff00ff
    EXPECT_EQ(m.h.x[7], 0x0eef0eefu);   // ^ 0x00ff00ff
    EXPECT_EQ(m.h.x[28], 0x0eff0effu);  // | 0x00ff00ff
    EXPECT_EQ(m.h.x[8], 0x00ff00ffu);   // & 0x00ff00ff
}

TEST(Rvc, LoadsStoresIntegerAndFloat) {
    iss_machine m;
    put(m.mem, base,
        {0x557e,    // c.lwsp a0, 252(sp)
         0xdde8,    // c.sw a0, 124(a1)
         0x4004,    // c.lw s1, 0(s0)
         0x0515,    // c.addi a0, 5
         0xdfaa,    // c.swsp a0, 252(sp)
         0x5de8,    // c.lw a0, 124(a1)
         0x61a8,    // c.flw fa0, 64(a1)
         0x658a,    // c.flwsp fa1, 128(sp)
         0xe1ac,    // c.fsw fa1, 64(a1)
         0xe12a,    // c.fswsp fa0, 128(sp)
         0x9002});  // c.ebreak
    const u32 sp = iss_machine::data, a1 = iss_machine::data + 0x100;
    m.h.x[2] = sp;
    m.h.x[11] = a1;
    m.h.x[8] = a1 + 124;
    m.mem.set_word(sp + 252, 0xcafef00d);
    m.mem.set_word(a1 + 124, 0x12345678);
    m.mem.set_word(a1 + 64, 0x3f800000);
    m.mem.set_word(sp + 128, 0x40490fdb);
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[9], 0xcafef00du);
    EXPECT_EQ(m.h.x[10], 0xcafef00du);
    EXPECT_EQ(m.mem.word(a1 + 124), 0xcafef00du);
    EXPECT_EQ(m.mem.word(sp + 252), 0xcafef012u);
    EXPECT_EQ(m.h.f[10], 0x3f800000u);
    EXPECT_EQ(m.h.f[11], 0x40490fdbu);
    EXPECT_EQ(m.mem.word(a1 + 64), 0x40490fdbu);
    EXPECT_EQ(m.mem.word(sp + 128), 0x3f800000u);
}

TEST(Rvc, ControlFlowInAMixedStream) {
    iss_machine m;
    m.trace = true;
    // 32-bit instructions at offsets 6, 0x12, 0x22 (2 mod 4).
    put(m.mem, base,
        {0x2019,           // 0x00 c.jal 0x06
         0x9002,           // 0x02 c.ebreak
         0x0001,           // 0x04 c.nop
         0x0513, 0x0015,   // 0x06 addi a0, a0, 1
         0xfce5,           // 0x0a c.bnez s1, 0x02 (not taken)
         0xc099,           // 0x0c c.beqz s1, 0x12 (taken)
         0x9002,           // 0x0e c.ebreak
         0x0001,           // 0x10 c.nop
         0x8593, 0x0075,   // 0x12 addi a1, a1, 7
         0xa011,           // 0x16 c.j 0x1a
         0x9002,           // 0x18 c.ebreak
         0x9602,           // 0x1a c.jalr a2 (a2 = 0x20)
         0x9002,           // 0x1c c.ebreak
         0x0001,           // 0x1e c.nop
         0x8686,           // 0x20 c.mv a3, ra
         0x0717, 0x0000,   // 0x22 auipc a4, 0
         0x8782});         // 0x26 c.jr a5 (a5 = 0x02)
    m.h.x[12] = base + 0x20;
    m.h.x[15] = base + 0x02;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.pc, base + 0x02);
    EXPECT_EQ(m.h.x[10], 1u);
    EXPECT_EQ(m.h.x[11], 7u);
    EXPECT_EQ(m.h.x[1], base + 0x1c);  // c.jalr links pc + 2
    EXPECT_EQ(m.h.x[13], base + 0x1c);
    EXPECT_EQ(m.h.x[14], base + 0x22);
    EXPECT_EQ(m.h.instret, 10u);
    const std::vector<u32> want = {0x00, 0x06, 0x0a, 0x0c, 0x12, 0x16, 0x1a, 0x20, 0x22, 0x26, 0x02};
    ASSERT_EQ(m.mem.traced_pcs.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(m.mem.traced_pcs[i], base + want[i]) << i;
}

TEST(Rvc, CJalLinksTheNextHalfword) {
    iss_machine m;
    put(m.mem, base, {0x0001, 0x2019, 0x9002, 0x9002, 0x9002});  // c.nop; c.jal +6 (to 0x08); ebreaks
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.pc, base + 0x08);
    EXPECT_EQ(m.h.x[1], base + 0x04);
}

TEST(Rvc, JumpIntoTheUpperHalfOfA32BitInstruction) {
    // lui a0, 0x00001 is 0x00001537: its upper halfword 0x0000 is the
    // all-zero (illegal) 16-bit encoding; jumping there executes it as such.
    iss_machine m;
    std::vector<std::uint16_t> p = w32(lui(10, 1));
    p.push_back(0x9002);
    put(m.mem, base + 8, p);
    put(m.mem, base, w32(jalr(0, 5, 0)));  // jalr x0, 0(t0), t0 = base + 10
    m.h.x[5] = base + 10;
    ASSERT_EQ(m.run(), cpu::cause_illegal);
    EXPECT_EQ(m.h.pc, base + 10);
    EXPECT_EQ(m.h.exc_tval, 0u);
}

TEST(Rvc, Illegal16BitEncodingsReportTheirBits) {
    const std::uint16_t bad[] = {
        0x0000,  // all zero
        0x0004,  // c.addi4spn with nzuimm 0
        0x2000,  // c.fld (no D)
        0x8000,  // reserved (quadrant 0, funct3 100)
        0xa000,  // c.fsd
        0x6101,  // c.addi16sp with nzimm 0
        0x6501,  // c.lui with nzimm 0
        0x9001,  // c.srli with shamt[5] set (RV32)
        0x9401,  // c.srai with shamt[5] set
        0x9c01,  // c.subw (RV64)
        0x9c21,  // c.addw (RV64)
        0x1002,  // c.slli with shamt[5] set
        0x2002,  // c.fldsp
        0x4002,  // c.lwsp x0
        0x8002,  // c.jr x0
        0xa002,  // c.fsdsp
    };
    for (std::uint16_t c : bad) {
        iss_machine m;
        put(m.mem, base, {0x0001, c, 0x9002});
        ASSERT_EQ(m.run(), cpu::cause_illegal) << std::hex << c;
        EXPECT_EQ(m.h.pc, base + 2) << std::hex << c;
        EXPECT_EQ(m.h.exc_tval, c) << std::hex << c;
    }
}

TEST(Rvc, HintsExecuteAsNoOps) {
    iss_machine m;
    // c.addi x0, 1 (0x0005); c.li x0, 1 (0x4005); c.mv x0, a0 (0x802a);
    // c.add x0, a0 (0x902a); c.slli x0, 1 (0x0006); c.lui x0, 1 (0x6005); c.srli a0, 0 (0x8101)
    put(m.mem, base, {0x0005, 0x4005, 0x802a, 0x902a, 0x0006, 0x6005, 0x8101, 0x9002});
    m.h.x[10] = 0x1234;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.pc, base + 14);
    EXPECT_EQ(m.h.x[0], 0u);
    EXPECT_EQ(m.h.x[10], 0x1234u);
}

TEST(Rvc, TrapInA16BitInstructionSetsMepcAndHandlerReturnsPastIt) {
    iss_machine m;
    const u32 handler = base + 0x400;
    // c.nop; c.lw a0, 0(s0) with s0 misaligned (trap at base + 2); c.addi a0, 1;
    // then mtvec = 0 so that the ebreak ends the run.
    put(m.mem, base, {0x0001, 0x4008, 0x0505});
    m.load(base + 6, {csrw(mtvec, 0), ebreak()});
    // Handler: mepc += 2 (the 16-bit instruction), a0 = 41, mret.
    m.load(handler, {csrr(6, mepc), addi(6, 6, 2), csrw(mepc, 6), addi(10, 0, 41), mret()});
    m.h.mtvec = handler;
    m.h.x[8] = iss_machine::data + 1;
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    ASSERT_EQ(m.exc_pcs.size(), 1u);
    EXPECT_EQ(m.exc_pcs[0], base + 2);
    EXPECT_EQ(m.h.mcause, cpu::cause_misaligned_load);
    EXPECT_EQ(m.h.mtval, iss_machine::data + 1);
    EXPECT_EQ(m.h.mepc, base + 4);
    EXPECT_EQ(m.h.x[10], 42u);
    EXPECT_EQ(m.h.pc, base + 10);
}

TEST(Rvc, MisaMepcAndIalign) {
    iss_machine m;
    m.program({csrr(10, misa), lui(6, 0x1c000), addi(6, 6, 3), csrw(mepc, 6), csrr(11, mepc), ebreak()});
    ASSERT_EQ(m.run(), cpu::cause_breakpoint);
    EXPECT_EQ(m.h.x[10], 0x40101125u);  // RV32 + A C F I M U
    EXPECT_EQ(m.h.x[11], 0x1c000002u);  // IALIGN 16: only bit 0 is cleared

    iss_machine n;
    n.h.extensions = 0;
    n.program({csrr(10, misa), lui(6, 0x1c000), addi(6, 6, 3), csrw(mepc, 6), csrr(11, mepc), ebreak()});
    ASSERT_EQ(n.run(), cpu::cause_breakpoint);
    EXPECT_EQ(n.h.x[10], 0x40101121u);
    EXPECT_EQ(n.h.x[11], 0x1c000000u);
}

TEST(Rvc, JumpTargetsTwoModFour) {
    // With C a jump to pc + 6 runs the 32-bit instruction there; without C
    // it is an instruction-address-misaligned trap with mtval = the target
    // (jalr in-block, jal and a branch in-block: all three forms).
    const std::vector<std::vector<u32>> forms = {
        {jalr(0, 5, 0)},
        {jal(0, 6)},
        {beq(0, 0, 6)},
    };
    for (const auto& f : forms) {
        for (bool with_c : {true, false}) {
            iss_machine m;
            if (!with_c) m.h.extensions = 0;
            put(m.mem, base, w32(f[0]));
            put(m.mem, base + 6, w32(addi(10, 0, 99)));
            put(m.mem, base + 10, w32(ebreak()));
            m.h.x[5] = base + 6;
            if (with_c) {
                ASSERT_EQ(m.run(), cpu::cause_breakpoint);
                EXPECT_EQ(m.h.x[10], 99u);
            } else {
                ASSERT_EQ(m.run(), cpu::cause_misaligned_fetch);
                EXPECT_EQ(m.h.pc, base);
                EXPECT_EQ(m.h.exc_tval, base + 6);
            }
        }
    }
}

TEST(Rvc, WithoutCSixteenBitEncodingsAreIllegal) {
    iss_machine m;
    m.h.extensions = 0;
    put(m.mem, base, {0x0505, 0x0000});  // c.addi a0, 1
    ASSERT_EQ(m.run(), cpu::cause_illegal);
    EXPECT_EQ(m.h.exc_tval, 0x0505u);
    EXPECT_EQ(m.h.pc, base);
}

namespace {

// A flat RAM whose code is served as two DMI windows split at `split`.
struct split_memory : flat_memory {
    std::uint32_t split;
    split_memory(std::uint32_t b, std::size_t size, std::uint32_t s) : flat_memory(b, size), split(s) {}
    bool code_window(std::uint32_t pc, std::uint64_t& start, std::uint64_t& len, const unsigned char*& host) {
        if (!in(pc, 2)) return false;
        start = pc < split ? base : split;
        len = pc < split ? split - base : base + ram.size() - split;
        host = ram.data() + (start - base);
        return true;
    }
};

struct run_result {
    cpu::stop s;
    cpu::hart_state h;
};

template <class Mem>
run_result run_from(Mem& mem, std::uint32_t pc) {
    cpu::reservation_set rs;
    cpu::decode_cache dc;
    run_result r{};
    r.h.reservations = &rs;
    r.h.pc = pc;
    for (int i = 0; i < 100; ++i) {
        r.h.cycle_limit = r.h.cycle + 1000;
        r.s = cpu::run(r.h, mem, dc);
        if (r.s == cpu::stop::exception) break;
    }
    r.h.reservations = nullptr;
    return r;
}

}  // namespace

TEST(Rvc, ThirtyTwoBitInstructionAcrossADecodedBlockEdge) {
    // Blocks end at 1 MiB boundaries: addi at 0x1c0ffffe straddles one.
    flat_memory mem(0x1c0f0000, 128 * 1024);
    put(mem, 0x1c0ffffc, {0x0001});
    put(mem, 0x1c0ffffe, w32(addi(10, 10, 5)));
    put(mem, 0x1c100002, {0x0505, 0x9002});  // c.addi a0, 1; c.ebreak
    const run_result r = run_from(mem, 0x1c0ffffc);
    ASSERT_EQ(r.s, cpu::stop::exception);
    EXPECT_EQ(r.h.exc_cause, cpu::cause_breakpoint);
    EXPECT_EQ(r.h.pc, 0x1c100004u);
    EXPECT_EQ(r.h.x[10], 6u);
}

TEST(Rvc, ThirtyTwoBitInstructionAcrossACodeWindowEdge) {
    split_memory mem(base, 64 * 1024, base + 0x100);
    put(mem, base + 0xfc, {0x0001});
    put(mem, base + 0xfe, w32(addi(10, 10, 5)));  // upper half in the second window
    put(mem, base + 0x102, {0x9002});
    const run_result r = run_from(mem, base + 0xfc);
    ASSERT_EQ(r.s, cpu::stop::exception);
    EXPECT_EQ(r.h.exc_cause, cpu::cause_breakpoint);
    EXPECT_EQ(r.h.x[10], 5u);
}

TEST(Rvc, ThirtyTwoBitInstructionPastTheLastWindowIsAFetchFault) {
    flat_memory mem(base, 4096);
    put(mem, base + 4092, {0x0001, 0x0513});  // c.nop; the lower half of a 32-bit addi
    const run_result r = run_from(mem, base + 4092);
    ASSERT_EQ(r.s, cpu::stop::exception);
    EXPECT_EQ(r.h.exc_cause, cpu::cause_fetch_access);
    EXPECT_EQ(r.h.pc, base + 4094);
    EXPECT_EQ(r.h.exc_tval, base + 4096);  // the part that is not there
    EXPECT_EQ(r.h.instret, 1u);
}
