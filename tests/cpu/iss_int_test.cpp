// RV32I, M, A, misaligned policy, bus faults and FENCE.I on the pure ISS.
// Expected values are worked out by hand from the ISA manual.
#include "iss_machine.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr std::uint32_t brk_cause = cpu::cause_breakpoint;

// Runs `p` + ebreak on a fresh machine with x1..x3 preset.
iss_machine run_prog(std::vector<u32> p, u32 x1 = 0, u32 x2 = 0, u32 x3 = 0) {
    iss_machine m;
    p.push_back(ebreak());
    m.program(p);
    m.h.x[1] = x1;
    m.h.x[2] = x2;
    m.h.x[3] = x3;
    EXPECT_EQ(m.run(), brk_cause);
    return m;
}

}  // namespace

TEST(Rv32i, Alu) {
    auto m = run_prog({add(10, 1, 2), sub(11, 1, 2), slt(12, 1, 2), sltu(13, 1, 2), xor_(14, 1, 2), or_(15, 1, 2),
                       and_(16, 1, 2), sll(17, 2, 3), srl(18, 1, 3), sra(19, 1, 3), slti(20, 1, -1), sltiu(21, 2, -1),
                       xori(22, 2, -1), andi(23, 1, 0x7f0), ori(24, 0, -2048)},
                      0x80000010u, 5, 36);
    const auto& x = m.h.x;
    EXPECT_EQ(x[10], 0x80000015u);
    EXPECT_EQ(x[11], 0x8000000bu);
    EXPECT_EQ(x[12], 1u);  // negative < 5
    EXPECT_EQ(x[13], 0u);  // unsigned: 0x80000010 > 5
    EXPECT_EQ(x[14], 0x80000015u);
    EXPECT_EQ(x[15], 0x80000015u);
    EXPECT_EQ(x[16], 0u);
    EXPECT_EQ(x[17], 5u << 4);        // shift amount is rs2 & 31 (36 -> 4)
    EXPECT_EQ(x[18], 0x08000001u);    // logical
    EXPECT_EQ(x[19], 0xf8000001u);    // arithmetic
    EXPECT_EQ(x[20], 1u);
    EXPECT_EQ(x[21], 1u);             // 5 < 0xffffffff
    EXPECT_EQ(x[22], ~5u);
    EXPECT_EQ(x[23], 0x10u);
    EXPECT_EQ(x[24], 0xfffff800u);
}

TEST(Rv32i, ShiftImmediatesLuiAuipcAndX0) {
    auto m = run_prog({slli(10, 1, 31), srli(11, 1, 1), srai(12, 1, 1), lui(13, 0xfffff), auipc(14, 1), addi(0, 0, 5),
                       add(15, 0, 0), lui(0, 1)},
                      0x80000003u);
    EXPECT_EQ(m.h.x[10], 0x80000000u);
    EXPECT_EQ(m.h.x[11], 0x40000001u);
    EXPECT_EQ(m.h.x[12], 0xc0000001u);
    EXPECT_EQ(m.h.x[13], 0xfffff000u);
    EXPECT_EQ(m.h.x[14], iss_machine::ram_base + 16 + 0x1000);
    EXPECT_EQ(m.h.x[0], 0u);
    EXPECT_EQ(m.h.x[15], 0u);
    EXPECT_EQ(m.h.instret, 8u);
}

TEST(Rv32i, Branches) {
    // Each taken branch skips an "addi x10, x10, 1"; not-taken ones fall into it.
    std::vector<u32> p;
    auto br = [&](u32 insn) {
        p.push_back(insn);
        p.push_back(addi(10, 10, 1));
    };
    // x1 = -1, x2 = 1
    br(beq(1, 1, 8));   // taken
    br(beq(1, 2, 8));   // not
    br(bne(1, 2, 8));   // taken
    br(bne(1, 1, 8));   // not
    br(blt(1, 2, 8));   // taken (-1 < 1)
    br(blt(2, 1, 8));   // not
    br(bge(2, 1, 8));   // taken
    br(bge(1, 2, 8));   // not
    br(bge(1, 1, 8));   // taken (equal)
    br(bltu(2, 1, 8));  // taken (1 < 0xffffffff)
    br(bltu(1, 2, 8));  // not
    br(bgeu(1, 2, 8));  // taken
    br(bgeu(2, 1, 8));  // not
    auto m = run_prog(p, 0xffffffffu, 1);
    EXPECT_EQ(m.h.x[10], 6u);
    EXPECT_EQ(m.h.taken_branches, 7u);
}

// Every comparison at equality, where "<" and "<=" part: set-less-than
// gives 0, BLT/BLTU fall through, BGE/BGEU branch.
TEST(Rv32i, ComparisonsAtEquality) {
    std::vector<u32> p{slt(11, 1, 2), sltu(12, 1, 2), slti(13, 1, 5), sltiu(14, 1, 5)};
    auto br = [&](u32 insn) {
        p.push_back(insn);
        p.push_back(addi(10, 10, 1));
    };
    br(blt(1, 2, 8));   // not
    br(bltu(1, 2, 8));  // not
    br(bge(1, 2, 8));   // taken
    br(bgeu(1, 2, 8));  // taken
    auto m = run_prog(p, 5, 5);
    EXPECT_EQ(m.h.x[11], 0u);
    EXPECT_EQ(m.h.x[12], 0u);
    EXPECT_EQ(m.h.x[13], 0u);
    EXPECT_EQ(m.h.x[14], 0u);
    EXPECT_EQ(m.h.x[10], 2u);
    EXPECT_EQ(m.h.taken_branches, 2u);
}

TEST(Rv32i, BackwardLoopAndCycleCost) {
    // x10 = 0; loop 100 times: x10 += 3
    auto m = run_prog({addi(1, 0, 100), addi(10, 10, 3), addi(1, 1, -1), bne(1, 0, -8)});
    EXPECT_EQ(m.h.x[10], 300u);
    EXPECT_EQ(m.h.instret, 1u + 300u);
    // default costs (CV32E40P): alu 1, branch 1 (+2 taken); 99 taken, 1 not; ebreak charged (1) but not retired
    EXPECT_EQ(m.h.cycle, 1u + 200u + 100u + 2u * 99u + 1u);
}

TEST(Rv32i, JalJalr) {
    const u32 b = iss_machine::ram_base;
    auto m = run_prog({jal(1, 12),            // 0: -> 12, x1 = 4
                       addi(10, 0, 1),         // 4: skipped
                       ebreak(),               // 8
                       addi(11, 0, 2),         // 12
                       addi(5, 0, 0),          // 16
                       auipc(5, 0),            // 20: x5 = b + 20
                       jalr(2, 5, 13),         // 24: -> (b+33)&~1 = b+32, x2 = b + 28
                       addi(12, 0, 3),         // 28: skipped
                       addi(13, 0, 4)});       // 32
    EXPECT_EQ(m.h.x[1], b + 4);
    EXPECT_EQ(m.h.x[10], 0u);
    EXPECT_EQ(m.h.x[11], 2u);
    EXPECT_EQ(m.h.x[2], b + 28);
    EXPECT_EQ(m.h.x[12], 0u);
    EXPECT_EQ(m.h.x[13], 4u);
}

TEST(Rv32i, MisalignedJumpTargetTraps) {
    iss_machine m;
    m.h.extensions = 0;  // IALIGN 32: without C (with C: iss_rvc_test)
    m.program({addi(1, 0, 0), auipc(1, 0), jalr(2, 1, 6)});
    EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_misaligned_fetch));
    EXPECT_EQ(m.h.exc_tval, iss_machine::ram_base + 4 + 6);
    EXPECT_EQ(m.h.pc, iss_machine::ram_base + 8);  // the jump itself
    EXPECT_EQ(m.h.x[2], 0u);                       // link not written
}

TEST(Rv32i, LoadsAndStores) {
    const u32 d = iss_machine::data;
    std::vector<u32> p;
    li(p, 1, d);
    li(p, 2, 0x8081f2f3u);
    p.insert(p.end(), {sw(2, 1, 0), lb(10, 1, 0), lbu(11, 1, 0), lh(12, 1, 2), lhu(13, 1, 2), lw(14, 1, 0), sb(2, 1, 5),
                       sh(2, 1, 6), lw(15, 1, 4), lb(16, 1, -1)});
    iss_machine m;
    m.mem.set_word(d - 4, 0x7f000000u);
    p.push_back(ebreak());
    m.program(p);
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 0xfffffff3u);
    EXPECT_EQ(m.h.x[11], 0xf3u);
    EXPECT_EQ(m.h.x[12], 0xffff8081u);
    EXPECT_EQ(m.h.x[13], 0x8081u);
    EXPECT_EQ(m.h.x[14], 0x8081f2f3u);
    EXPECT_EQ(m.h.x[15], 0xf2f3f300u);
    EXPECT_EQ(m.h.x[16], 0x7fu);
}

TEST(Rv32m, MultiplyDivide) {
    auto m = run_prog({mul(10, 1, 2), mulh(11, 1, 2), mulhsu(12, 1, 2), mulhu(13, 1, 2), div(14, 1, 3), divu(15, 1, 3),
                       rem(16, 1, 3), remu(17, 1, 3)},
                      0xfffffff9u /* -7 */, 0x00000003u, 2);
    EXPECT_EQ(m.h.x[10], static_cast<u32>(-21));
    EXPECT_EQ(m.h.x[11], 0xffffffffu);      // high of -21
    EXPECT_EQ(m.h.x[12], 0xffffffffu);      // -7 * 3 (unsigned)
    EXPECT_EQ(m.h.x[13], 2u);               // 0xfffffff9 * 3 = 0x2_ffffffeb
    EXPECT_EQ(m.h.x[14], static_cast<u32>(-3));  // truncates toward zero
    EXPECT_EQ(m.h.x[15], 0x7ffffffcu);
    EXPECT_EQ(m.h.x[16], static_cast<u32>(-1));  // sign of the dividend
    EXPECT_EQ(m.h.x[17], 1u);
    EXPECT_EQ(m.h.div_ops, 4u);
}

TEST(Rv32m, DivideByZeroAndOverflow) {
    auto m = run_prog({div(10, 1, 0), divu(11, 1, 0), rem(12, 1, 0), remu(13, 1, 0), div(14, 2, 3), rem(15, 2, 3),
                       mulh(16, 2, 2), mulhu(17, 2, 2), mulhsu(18, 2, 3)},
                      1234, 0x80000000u, 0xffffffffu);
    EXPECT_EQ(m.h.x[10], 0xffffffffu);
    EXPECT_EQ(m.h.x[11], 0xffffffffu);
    EXPECT_EQ(m.h.x[12], 1234u);
    EXPECT_EQ(m.h.x[13], 1234u);
    EXPECT_EQ(m.h.x[14], 0x80000000u);  // INT_MIN / -1 = INT_MIN
    EXPECT_EQ(m.h.x[15], 0u);
    EXPECT_EQ(m.h.x[16], 0x40000000u);  // (-2^31)^2 = 2^62
    EXPECT_EQ(m.h.x[17], 0x40000000u);
    EXPECT_EQ(m.h.x[18], 0x80000000u);  // -2^31 * (2^32-1) = -2^63 + 2^31 -> high word 0x80000000
}

TEST(Rv32a, AmoOperationsReturnOldValue) {
    const u32 d = iss_machine::data;
    iss_machine m;
    std::vector<u32> p;
    li(p, 1, d);
    p.insert(p.end(), {addi(2, 0, -5), amoadd(10, 1, 2), amoswap(11, 1, 2), amoxor(12, 1, 0), addi(3, 0, 3),
                       amomin(13, 1, 3), amomax(14, 1, 3), amominu(15, 1, 2), amomaxu(16, 1, 2), amoand(17, 1, 3),
                       amoor(18, 1, 2), lw(19, 1, 0), ebreak()});
    m.program(p);
    m.mem.set_word(d, 10);
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 10u);                   // add: 10 -> 5
    EXPECT_EQ(m.h.x[11], 5u);                    // swap: 5 -> -5
    EXPECT_EQ(m.h.x[12], static_cast<u32>(-5));  // xor 0
    EXPECT_EQ(m.h.x[13], static_cast<u32>(-5));  // min(-5, 3) = -5
    EXPECT_EQ(m.h.x[14], static_cast<u32>(-5));  // max(-5, 3) = 3
    EXPECT_EQ(m.h.x[15], 3u);                    // minu(3, 0xfffffffb) = 3
    EXPECT_EQ(m.h.x[16], 3u);                    // maxu -> 0xfffffffb
    EXPECT_EQ(m.h.x[17], 0xfffffffbu);           // and 3 -> 3
    EXPECT_EQ(m.h.x[18], 3u);                    // or -5 -> 0xfffffffb (bits 0,1 already set)
    EXPECT_EQ(m.h.x[19], 0xfffffffbu);
}

TEST(Rv32a, LrScSucceedsOnceAndFailsWithoutReservation) {
    const u32 d = iss_machine::data;
    iss_machine m;
    cpu::reservation_set rs;
    m.h.reservations = &rs;
    std::vector<u32> p;
    li(p, 1, d);
    p.insert(p.end(), {addi(2, 0, 42), lr_w(10, 1), sc_w(11, 1, 2), sc_w(12, 1, 2), lw(13, 1, 0), addi(2, 0, 7),
                       lr_w(14, 1), sw(0, 1, 0), sc_w(15, 1, 2), lw(16, 1, 0), ebreak()});
    m.program(p);
    m.mem.set_word(d, 99);
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 99u);
    EXPECT_EQ(m.h.x[11], 0u);   // success
    EXPECT_EQ(m.h.x[12], 1u);   // reservation consumed
    EXPECT_EQ(m.h.x[13], 42u);
    EXPECT_EQ(m.h.x[15], 1u);   // own store in between broke it
    EXPECT_EQ(m.h.x[16], 0u);   // failed SC wrote nothing
}

TEST(Rv32a, StoreByAnotherHartBreaksReservation) {
    const u32 d = iss_machine::data;
    cpu::reservation_set rs;
    iss_machine a, b;
    a.h.reservations = b.h.reservations = &rs;
    a.h.hart_id = 0;
    b.h.hart_id = 1;
    std::vector<u32> pa;
    li(pa, 1, d);
    pa.insert(pa.end(), {lr_w(10, 1), ebreak(), sc_w(11, 1, 1), ebreak()});
    a.program(pa);
    std::vector<u32> pb;
    li(pb, 1, d + 2);  // a halfword store overlapping the reserved word
    pb.insert(pb.end(), {sh(0, 1, 0), ebreak()});
    b.program(pb);
    ASSERT_EQ(a.run(), brk_cause);
    ASSERT_EQ(b.run(), brk_cause);
    a.h.pc += 4;
    ASSERT_EQ(a.run(), brk_cause);
    EXPECT_EQ(a.h.x[11], 1u);
    // An unrelated store leaves a reservation alone.
    cpu::reservation_set rs2;
    rs2.reserve(0, d);
    rs2.on_store(d + 4, 4);
    EXPECT_TRUE(rs2.consume(0, d));
}

TEST(Misaligned, TrapPolicyRaisesWithAddress) {
    const u32 d = iss_machine::data;
    {
        iss_machine m;
        std::vector<u32> p;
        li(p, 1, d);
        p.push_back(lw(10, 1, 2));
        m.program(p);
        m.h.x[10] = 0x55;
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_misaligned_load));
        EXPECT_EQ(m.h.exc_tval, d + 2);
        EXPECT_EQ(m.h.pc, iss_machine::ram_base + 8);
        EXPECT_EQ(m.h.x[10], 0x55u);
    }
    {
        iss_machine m;
        std::vector<u32> p;
        li(p, 1, d);
        p.push_back(sh(1, 1, 1));
        m.program(p);
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_misaligned_store));
        EXPECT_EQ(m.h.exc_tval, d + 1);
        EXPECT_EQ(m.mem.word(d), 0u);
    }
    {
        iss_machine m;  // AMOs never split
        m.mem.split = true;
        std::vector<u32> p;
        li(p, 1, d + 2);
        p.push_back(amoadd(10, 1, 1));
        m.program(p);
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_misaligned_store));
    }
}

TEST(Misaligned, SplitPolicyPerformsByteAccesses) {
    const u32 d = iss_machine::data;
    iss_machine m;
    m.mem.split = true;
    std::vector<u32> p;
    li(p, 1, d);
    li(p, 2, 0xa1b2c3d4u);
    p.insert(p.end(), {sw(2, 1, 1), lw(10, 1, 1), lh(11, 1, 3), lhu(12, 1, 3), lw(13, 1, 0), ebreak()});
    m.program(p);
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 0xa1b2c3d4u);
    EXPECT_EQ(m.h.x[11], 0xffffa1b2u);
    EXPECT_EQ(m.h.x[12], 0xa1b2u);
    EXPECT_EQ(m.h.x[13], 0xb2c3d400u);
}

TEST(BusFault, LoadStoreFetchArePreciseAccessFaults) {
    {
        iss_machine m;
        m.program({lui(1, 0x80000), lw(10, 1, 8)});
        m.h.x[10] = 7;
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_load_access));
        EXPECT_TRUE(m.h.exc_from_bus);
        EXPECT_EQ(m.h.exc_tval, 0x80000008u);
        EXPECT_EQ(m.h.exc_size, 4u);
        EXPECT_EQ(m.h.pc, iss_machine::ram_base + 4);
        EXPECT_EQ(m.h.x[10], 7u);      // not written
        EXPECT_EQ(m.h.instret, 1u);    // the faulting load did not retire
    }
    {
        iss_machine m;
        m.program({sb(0, 0, 0)});
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_store_access));
        EXPECT_EQ(m.h.exc_tval, 0u);
        EXPECT_EQ(m.h.exc_size, 1u);
    }
    {
        iss_machine m;
        m.program({jalr(0, 0, 0x100)});
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_fetch_access));
        EXPECT_EQ(m.h.exc_tval, 0x100u);
        EXPECT_EQ(m.h.pc, 0x100u);
    }
}

TEST(FenceI, DecodedCodeIsRefreshedByFenceI) {
    // Overwrites the instruction at `target` (addi x10, x0, 1 -> addi x10, x0, 2)
    // after executing it once. Without FENCE.I the stale decode may run (the
    // documented policy); after FENCE.I the new instruction must run.
    const u32 b = iss_machine::ram_base;
    std::vector<u32> p;
    li(p, 1, b + 64);           // 0, 4: target address
    li(p, 2, addi(10, 0, 2));   // 8, 12: the new instruction
    p.push_back(jalr(3, 1, 0)); // 16: call target
    p.push_back(sw(2, 1, 0));   // 20: patch
    p.push_back(fence_i());     // 24
    p.push_back(jalr(3, 1, 0)); // 28: call again
    p.push_back(ebreak());      // 32
    iss_machine m;
    m.program(p);
    m.load(b + 64, {addi(10, 0, 1), addi(11, 11, 1), jalr(0, 3, 0)});
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 2u);
    EXPECT_EQ(m.h.x[11], 2u);
}

TEST(Decode, IllegalEncodingsTrapWithInstructionBits) {
    for (u32 bad : {0x00000000u, 0xffffffffu, r_type(0x20, 1, 2, 1, 3, 0x33) /* sub with f3=1 */,
                    r_type(0x01, 1, 2, 1, 3, 0x13) /* slli with shamt[5] */, i_type(0, 1, 3, 2, 0x03) /* ld */,
                    i_type(0, 1, 3, 2, 0x2f) /* amo f3=3 */, 0x10200073u /* sret */,
                    r_type(0x01, 2, 1, 0, 10, 0x53) /* fadd.d */}) {
        iss_machine m;
        m.program({bad});
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_illegal)) << std::hex << bad;
        EXPECT_EQ(m.h.exc_tval, bad);
        EXPECT_EQ(m.h.instret, 0u);
    }
}

TEST(Trace, HookSeesEveryExecutedInstructionInOrder) {
    iss_machine m;
    m.trace = true;
    m.program({addi(1, 0, 2), addi(1, 1, -1), bne(1, 0, -4), ebreak()});
    ASSERT_EQ(m.run(), brk_cause);
    const u32 b = iss_machine::ram_base;
    // the trapping ebreak is traced too (it was about to execute)
    const std::vector<u32> want = {b, b + 4, b + 8, b + 4, b + 8, b + 12};
    EXPECT_EQ(m.mem.traced_pcs, want);
    EXPECT_EQ(m.h.instret, 5u);
}

// A split access costs the latency of each of its byte accesses plus one
// cycle (core.misaligned = split): timed against the same instruction
// aligned, which makes one access. Latency 3 per access on this memory.
TEST(Misaligned, SplitCostsItsByteAccessesPlusOneCycle) {
    const u32 d = iss_machine::data;
    struct cost {
        std::uint64_t cycles;
        unsigned accesses;
    };
    auto run_one = [&](u32 insn) {
        iss_machine m;
        m.mem.split = true;
        m.mem.latency = 3;
        std::vector<u32> p;
        li(p, 1, d);
        p.insert(p.end(), {insn, ebreak()});
        m.program(p);
        EXPECT_EQ(m.run(), brk_cause);
        return cost{m.h.cycle, m.mem.accesses};
    };
    struct access {
        const char* what;
        u32 aligned, misaligned;
        unsigned size;
    };
    const access cases[] = {
        {"lw", lw(10, 1, 4), lw(10, 1, 5), 4},
        {"lh", lh(10, 1, 4), lh(10, 1, 5), 2},
        {"lhu", lhu(10, 1, 4), lhu(10, 1, 7), 2},
        {"sw", sw(1, 1, 4), sw(1, 1, 6), 4},
        {"sh", sh(1, 1, 4), sh(1, 1, 3), 2},
    };
    for (const access& c : cases) {
        const cost a = run_one(c.aligned), s = run_one(c.misaligned);
        EXPECT_EQ(s.accesses - a.accesses, c.size - 1) << c.what;
        EXPECT_EQ(s.cycles - a.cycles, 3u * (c.size - 1) + 1) << c.what;
    }
}
