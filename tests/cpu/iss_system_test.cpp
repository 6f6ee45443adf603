// Zicsr, traps, privilege modes, interrupts and WFI on the pure ISS.
#include "iss_machine.h"

#include <gtest/gtest.h>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

constexpr std::uint32_t brk_cause = cpu::cause_breakpoint;
constexpr std::uint32_t ill = cpu::cause_illegal;
constexpr u32 handler = iss_machine::ram_base + 0x400;

}  // namespace

TEST(Zicsr, ReadWriteSetClearAndImmediateForms) {
    iss_machine m;
    std::vector<u32> p;
    li(p, 1, 0xf0f0f0f0u);
    p.insert(p.end(), {csrrw(10, mscratch, 1), addi(2, 0, 0x0f), csrrs(11, mscratch, 2), csrrc(12, mscratch, 1),
                       csrrwi(13, mscratch, 21), csrrsi(14, mscratch, 8), csrrci(15, mscratch, 1), csrr(16, mscratch),
                       ebreak()});
    m.program(p);
    m.h.mscratch = 0x1234;
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 0x1234u);
    EXPECT_EQ(m.h.x[11], 0xf0f0f0f0u);
    EXPECT_EQ(m.h.x[12], 0xf0f0f0ffu);
    EXPECT_EQ(m.h.x[13], 0x0000000fu);
    EXPECT_EQ(m.h.x[14], 21u);
    EXPECT_EQ(m.h.x[15], 29u);
    EXPECT_EQ(m.h.x[16], 28u);
}

TEST(Zicsr, IdentificationAndCounters) {
    iss_machine m;
    m.h.hart_id = 8;
    m.program({csrr(10, mhartid), csrr(11, misa), csrr(12, mvendorid), nop(), nop(), csrr(13, minstret),
               csrr(14, instret), csrr(15, mcycle), ebreak()});
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 8u);
    EXPECT_EQ(m.h.x[11], 0x40101125u);  // RV32 + A C F I M U
    EXPECT_EQ(m.h.x[12], 0u);
    EXPECT_EQ(m.h.x[13], 5u);  // instructions retired before the csrr
    EXPECT_EQ(m.h.x[14], 6u);
    EXPECT_GE(m.h.x[15], 7u);
}

TEST(Zicsr, MinstretWriteReadsBack) {
    iss_machine m;
    m.program({addi(1, 0, 100), csrw(minstret, 1), csrr(10, minstret), ebreak()});
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 100u);
}

TEST(Zicsr, IllegalAccesses) {
    struct bad_case {
        u32 insn;
        const char* what;
    };
    for (const bad_case& c :
         {bad_case{csrr(10, 0x7c0), "unimplemented custom CSR"}, bad_case{csrr(10, 0x180), "satp (no S-mode)"},
          bad_case{csrr(10, 0x302), "medeleg (no S-mode)"}, bad_case{csrw(mhartid, 1), "write to read-only mhartid"},
          bad_case{csrrsi(10, mvendorid, 1), "set bits of read-only CSR"},
          bad_case{csrw(cycle, 1), "write to read-only user counter"},
          bad_case{i_type(0x300, 0, 4, 10, 0x73), "SYSTEM funct3 = 4"}}) {
        iss_machine m;
        m.program({c.insn});
        m.h.x[10] = 0x77;
        EXPECT_EQ(m.run(), ill) << c.what;
        EXPECT_EQ(m.h.exc_tval, c.insn) << c.what;
        EXPECT_EQ(m.h.x[10], 0x77u) << c.what;
    }
    // Reading a read-only CSR with csrrs x0 is not a write.
    iss_machine m;
    m.program({csrrs(10, mhartid, 0), csrrsi(11, mhartid, 0), ebreak()});
    EXPECT_EQ(m.run(), brk_cause);
}

TEST(Traps, EcallEbreakSetCauseEpcTvalAndMret) {
    // handler: x20 += 1; mepc += 4; mret
    iss_machine m;
    m.load(handler, {addi(20, 20, 1), csrr(21, mcause), csrr(22, mepc), csrr(23, mtval), addi(24, 22, 4),
                     csrw(mepc, 24), mret()});
    std::vector<u32> p;
    li(p, 1, handler);
    p.insert(p.end(), {csrw(mtvec, 1), ecall(), addi(10, 21, 0), addi(11, 22, 0), ebreak(), addi(12, 21, 0),
                       addi(13, 23, 0), csrw(mtvec, 0), ebreak()});
    m.program(p);
    ASSERT_EQ(m.run(), brk_cause);
    const u32 b = iss_machine::ram_base;
    EXPECT_EQ(m.h.x[20], 2u);
    EXPECT_EQ(m.h.x[10], static_cast<u32>(cpu::cause_ecall_m));
    EXPECT_EQ(m.h.x[11], b + 12);
    EXPECT_EQ(m.h.x[12], static_cast<u32>(cpu::cause_breakpoint));
    EXPECT_EQ(m.h.x[13], b + 24);  // mtval = pc of the ebreak
    EXPECT_EQ(m.h.mstatus & cpu::mstatus_bits::mie, 0u);
}

TEST(Traps, UserModeEcallAndPrivilegeChecks) {
    // M: mepc = user code, MPP = U, mret. U: try mstatus (illegal), then ecall.
    iss_machine m;
    const u32 user = iss_machine::ram_base + 0x200;
    m.load(handler,
           {csrr(21, mcause), csrr(22, mtval), csrr(23, mstatus), addi(20, 20, 1), csrr(24, mepc), addi(24, 24, 4),
            csrw(mepc, 24), addi(25, 0, 2), bne(21, 25, 8), mret(), csrw(mtvec, 0), ebreak()});
    m.load(user, {csrr(10, mstatus), ecall()});
    std::vector<u32> p;
    li(p, 1, handler);
    li(p, 2, user);
    li(p, 3, 0x1800);  // MPP
    p.insert(p.end(), {csrw(mtvec, 1), csrw(mepc, 2), csrrc(0, mstatus, 3), mret()});
    m.program(p);
    EXPECT_EQ(m.run(), brk_cause);  // the handler's final ebreak, after clearing mtvec
    ASSERT_EQ(m.exc_pcs.size(), 2u);
    EXPECT_EQ(m.exc_pcs[0], user);      // illegal csrr mstatus from U
    EXPECT_EQ(m.exc_pcs[1], user + 4);  // ecall from U
    EXPECT_EQ(m.h.x[21], static_cast<u32>(cpu::cause_ecall_u));
    EXPECT_EQ(m.h.x[20], 2u);
    EXPECT_EQ((m.h.x[23] >> 11) & 3, 0u);  // MPP = U in the handler
    EXPECT_EQ(m.h.priv, cpu::privilege::machine);
}

TEST(Traps, UserCountersGatedByMcounteren) {
    iss_machine m;
    const u32 user = iss_machine::ram_base + 0x200;
    m.load(user, {csrr(10, cycle), csrr(11, instret), csrr(12, utime)});
    m.h.priv = cpu::privilege::user;
    m.h.pc = user;
    m.h.mcounteren = 0x5;  // CY and IR, not TM
    EXPECT_EQ(m.run(), ill);
    EXPECT_EQ(m.h.pc, user + 8);
    EXPECT_EQ(m.h.x[11], 1u);
    iss_machine u;
    u.load(user, {mret()});
    u.h.priv = cpu::privilege::user;
    u.h.pc = user;
    EXPECT_EQ(u.run(), ill);  // mret from U
    iss_machine w;
    w.load(user, {wfi()});
    w.h.priv = cpu::privilege::user;
    w.h.pc = user;
    EXPECT_EQ(w.run(), ill);  // wfi from U
}

TEST(Traps, MretRestoresInterruptEnableAndPrivilege) {
    iss_machine m;
    std::vector<u32> p;
    li(p, 1, iss_machine::ram_base + 28);
    p.push_back(csrw(mepc, 1));      // 8
    li(p, 2, 0x1880);                // 12, 16: MPP = M, MPIE
    p.push_back(csrrs(0, mstatus, 2));  // 20
    p.push_back(mret());             // 24
    p.push_back(csrr(10, mstatus));  // 28
    p.push_back(ebreak());
    m.program(p);
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10] & 0x1888u, 0x88u);  // MIE = MPIE = 1, MPP = U
    EXPECT_EQ(m.h.priv, cpu::privilege::machine);
}

TEST(Interrupts, VectoredModeJumpsToBasePlusFourTimesCause) {
    iss_machine m;
    m.load(handler + 4 * 11, {csrr(10, mcause), csrr(11, mepc), csrw(mtvec, 0), ebreak()});
    std::vector<u32> p;
    li(p, 1, handler | 1);
    li(p, 2, (1u << 11) | (1u << 7));
    p.insert(p.end(), {csrw(mtvec, 1), csrw(mie, 2), csrrsi(0, mstatus, 8), nop(), nop(), ebreak()});
    m.program(p);
    m.h.mip = (1u << 11) | (1u << 7);  // external and timer pending: external wins
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 0x8000000bu);
    EXPECT_EQ(m.h.x[11], iss_machine::ram_base + 28);  // the instruction after the enabling csrrsi
    EXPECT_EQ(m.h.mstatus & cpu::mstatus_bits::mie, 0u);
    EXPECT_NE(m.h.mstatus & cpu::mstatus_bits::mpie, 0u);
}

TEST(Interrupts, DirectModeAndMaskedInMachineMode) {
    iss_machine m;
    m.load(handler, {csrr(10, mcause), csrw(mtvec, 0), ebreak()});
    std::vector<u32> p;
    li(p, 1, handler);
    li(p, 2, 1u << 3);
    p.insert(p.end(), {csrw(mtvec, 1), csrw(mie, 2), addi(12, 0, 1), csrrsi(0, mstatus, 8), addi(13, 0, 1), ebreak()});
    m.program(p);
    m.h.mip = 1u << 3;
    ASSERT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 0x80000003u);
    EXPECT_EQ(m.h.x[12], 1u);  // ran while MIE = 0
    EXPECT_EQ(m.h.x[13], 0u);  // interrupted right after MIE was set
}

TEST(Interrupts, WfiSleepsUnlessAnEnabledInterruptIsPending) {
    {
        iss_machine m;
        m.program({wfi(), addi(10, 0, 1), ebreak()});
        EXPECT_EQ(m.run(), stopped_in_wfi);
        EXPECT_EQ(m.h.pc, iss_machine::ram_base + 4);
        EXPECT_EQ(m.h.x[10], 0u);
    }
    {
        // Pending and enabled in mie but MIE = 0: WFI returns, no trap.
        iss_machine m;
        m.program({wfi(), addi(10, 0, 1), ebreak()});
        m.h.mie = m.h.mip = 1u << 7;
        EXPECT_EQ(m.run(), brk_cause);
        EXPECT_EQ(m.h.x[10], 1u);
    }
}

TEST(Traps, MisalignedMtvecTargetAndMepcAlignment) {
    iss_machine m;
    m.h.extensions = 0;  // mepc 4-byte aligned: without C (with C: iss_rvc_test)
    // mtvec = 6: mode 2 is reserved, legalised to direct, so it reads back 4.
    m.program({addi(1, 0, 7), csrw(mepc, 1), csrr(10, mepc), addi(2, 0, 6), csrw(mtvec, 2), csrr(11, mtvec),
               csrw(mtvec, 0), ebreak()});
    EXPECT_EQ(m.run(), brk_cause);
    EXPECT_EQ(m.h.x[10], 4u);
    EXPECT_EQ(m.h.x[11], 4u);
}
