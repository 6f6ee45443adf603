// Every 16-bit encoding, expanded by the ISS (expand_rvc), against LLVM's
// RISC-V disassembler (the +c decoder of LLVM 19, printing the expansion):
// an independent reading of the C extension's tables. Both must agree on
// which halfwords are instructions and, for those, on the 32-bit
// instruction they stand for. Documented differences, each counted:
// - HINTs, which LLVM prints as `c.*` and the ISS expands to the no-op they
//   are (a write of x0, addi rd, rd, 0, a shift by 0): checked to be no-ops;
// - c.mv is `add rd, x0, rs2` (the spec's expansion), which LLVM prints as
//   `add rd, zero, rs2` while it prints c.mv itself as `mv rd, rs2`;
// - 0x0000: LLVM names it `unimp`; it is the defined illegal instruction;
// - c.slli/c.srli/c.srai with shamt[5] = 1: LLVM 19 accepts them on RV32, the spec reserves
//   these code points for custom extensions on RV32C (illegal here);
// - c.lui with nzimm = 0 (rd != x2): LLVM 19 decodes `lui rd, 0`, the spec
//   reserves these code points (illegal here).
#include "disasm.h"
#include "isa.h"

#include <gtest/gtest.h>
#include <systemc>

#include <cstdio>
#include <string>

using npu::cpu::expand_rvc;

TEST(RvcVsLlvm, EveryHalfwordExpandsToWhatLlvmDecodes) {
    const npu::platform::disassembler dis;
    const std::uint32_t pc = 0x1c001000;
    unsigned compared = 0, hints = 0, unimp = 0, shamt5_rv64 = 0, lui_0 = 0, mismatches = 0;
    std::string first;
    for (std::uint32_t c = 0; c < 0x10000; ++c) {
        if ((c & 3) == 3) continue;
        const std::string llvm = dis.text(c, pc);
        const bool llvm_valid = llvm.rfind("<unknown", 0) != 0;
        const std::uint32_t e = expand_rvc(static_cast<std::uint16_t>(c));
        std::string ours = e ? dis.text(e, pc) : "<illegal>";
        if (ours.rfind("add     ", 0) == 0 && ours.find(", zero, ") != std::string::npos && llvm.rfind("mv", 0) == 0) {
            ours = "mv      " + ours.substr(8);
            ours.erase(ours.find(" zero,"), 6);
        }
        bool ok = false;
        if (!llvm_valid || !e) {
            ok = !llvm_valid && !e;
            if (c == 0 && llvm == "unimp") ok = true, ++unimp;
            const bool shamt5 = (c & 0xf003) == 0x1002 || (c & 0xfc03) == 0x9001 || (c & 0xfc03) == 0x9401;
            if (shamt5 && llvm.rfind("c.s", 0) == 0 && !e) ok = true, ++shamt5_rv64;
            if ((c & 0xf07f) == 0x6001 && ((c >> 7) & 31) != 2 && !e) ok = true, ++lui_0;
        } else if (llvm == ours) {
            ok = true;
            ++compared;
        } else if (llvm.rfind("c.", 0) == 0) {
            const std::uint32_t opc = e & 0x7f, rd = (e >> 7) & 31, rs1 = (e >> 15) & 31, f3 = (e >> 12) & 7;
            const bool writes_x0 = (opc == 0x13 || opc == 0x33 || opc == 0x37) && rd == 0;
            const bool add_0 = opc == 0x13 && f3 == 0 && rd == rs1 && (e >> 20) == 0;
            const bool shift_by_0 = opc == 0x13 && (f3 == 1 || f3 == 5) && ((e >> 20) & 31) == 0 && rd == rs1;
            ok = writes_x0 || add_0 || shift_by_0;
            hints += ok;
        }
        if (!ok && ++mismatches <= 20)
            first += "\n  " + std::to_string(c) + ": llvm '" + llvm + "', iss '" + ours + "'";
    }
    EXPECT_EQ(mismatches, 0u) << first;
    EXPECT_EQ(unimp, 1u);
    EXPECT_EQ(shamt5_rv64, 1024u + 2 * 256);  // c.slli: 32 rd x 32 amounts; c.srli/c.srai: 8 rd' x 32
    EXPECT_EQ(lui_0, 31u);
    EXPECT_GT(compared, 30000u);   // most of the 49152 halfwords are instructions
    std::printf("%u expansions identical, %u HINTs, %u shifts with shamt[5]\n", compared, hints, shamt5_rv64);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
