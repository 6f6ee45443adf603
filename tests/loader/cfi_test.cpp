// platform/cfi.h: the .debug_frame reader against LLVM's reading of the
// same bytes (rule_of_fde), on hand-made call-frame programs (every opcode
// the reader follows, and what it must leave to LLVM) and, given firmware
// ELFs on the command line, at every address of their FDEs.
#include "cfi.h"
#include "elf_image.h"

#include <llvm/DebugInfo/DWARF/DWARFDataExtractor.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>
#include <llvm/Support/Casting.h>
#include <llvm/TargetParser/Triple.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace npu::platform;

namespace {

std::vector<std::string> g_elfs;  // firmware images from the command line

// LLVM's rule at `lookup` from the same section bytes: its first FDE
// covering the address, as call_chain_capture's fallback finds it.
bool llvm_rule(std::string_view section, std::uint32_t lookup, unwind_rule& out) {
    llvm::DWARFDebugFrame frames(llvm::Triple::riscv32, /*IsEH=*/false);
    llvm::DWARFDataExtractor data(llvm::StringRef(section.data(), section.size()), /*IsLittleEndian=*/true, 4);
    if (llvm::Error e = frames.parse(data)) {
        llvm::consumeError(std::move(e));
        return false;
    }
    for (const llvm::dwarf::FrameEntry& e : frames.entries()) {
        const auto* fde = llvm::dyn_cast<llvm::dwarf::FDE>(&e);
        if (fde && lookup >= fde->getInitialLocation() && lookup - fde->getInitialLocation() < fde->getAddressRange()) {
            out = rule_of_fde(*fde, lookup);
            return true;
        }
    }
    return false;
}

std::string describe(const unwind_rule& r) {
    if (!r.ok) return "(no rule)";
    std::string s = "cfa x" + std::to_string(r.cfa_reg) + "+" + std::to_string(r.cfa_offset);
    for (const auto& v : r.saved)
        s += " x" + std::to_string(v.reg) + (v.is_value ? "=cfa" : "@cfa") + std::to_string(v.offset);
    return s;
}

// A .debug_frame of one CIE (version 3, code alignment 2, data alignment
// -4, return address x1, initial program def_cfa sp+0) and one FDE over
// [0x1000, 0x1000 + range) with `program`.
std::string section(const std::string& program, std::uint32_t range = 0x100, const std::string& cie_program = "\x0c\x02\x00") {
    auto u32 = [](std::uint32_t v) {
        std::string s(4, '\0');
        for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
        return s;
    };
    std::string cie_body = u32(0xffffffffu) + std::string("\x03", 1) + std::string("\0", 1) + "\x02" + "\x7c" + "\x01" + cie_program;
    while (cie_body.size() % 4) cie_body += '\0';  // DW_CFA_nop padding
    std::string out = u32(static_cast<std::uint32_t>(cie_body.size())) + cie_body;
    std::string fde_body = u32(0) + u32(0x1000) + u32(range) + program;
    while (fde_body.size() % 4) fde_body += '\0';
    return out + u32(static_cast<std::uint32_t>(fde_body.size())) + fde_body;
}

// Compares the reader with LLVM at every address of [0x1000, 0x1000 + range)
// and returns the reader's rule at `probe`.
unwind_rule agree_everywhere(const std::string& sec, std::uint32_t probe, std::uint32_t range = 0x100) {
    debug_frame_reader reader(sec);
    unwind_rule at_probe;
    unsigned compared = 0;
    for (std::uint32_t a = 0x1000; a < 0x1000 + range; ++a) {
        unwind_rule mine, theirs;
        EXPECT_EQ(reader.rule_at(a, mine), debug_frame_reader::result::found) << std::hex << a;
        EXPECT_TRUE(llvm_rule(sec, a, theirs)) << std::hex << a;
        EXPECT_EQ(mine, theirs) << "at 0x" << std::hex << a << ": reader " << describe(mine) << ", LLVM "
                                << describe(theirs);
        if (a == probe) at_probe = mine;
        ++compared;
    }
    EXPECT_EQ(compared, range);
    return at_probe;
}

TEST(Cfi, PrologueAndEpilogue) {
    // addi sp,-16 (4 B) ; sw ra,12(sp) ; sw s0,8(sp) ; addi s0,sp,16 ; ... ;
    // the epilogue restores the CFA and the registers.
    const std::string prog = std::string("\x42\x0e\x10", 3)   // advance 4, def_cfa_offset 16
                             + "\x42\x81\x01\x88\x02"           // advance 4, x1 @ cfa-4, x8 @ cfa-8
                             + "\x42\x0c\x08\x00"               // advance 4, def_cfa s0+0
                             + std::string("\x50\x0c\x02\x10", 4)  // advance 32, def_cfa sp+16
                             + "\x41\xc1\xc8"                   // advance 2, restore x1, x8
                             + std::string("\x41\x0e\x00", 3);  // advance 2, def_cfa_offset 0
    const unwind_rule r = agree_everywhere(section(prog), 0x1008);
    ASSERT_TRUE(r.ok);
    EXPECT_EQ(r.cfa_reg, 2);
    EXPECT_EQ(r.cfa_offset, 16);
    ASSERT_EQ(r.saved.size(), 2u);
    EXPECT_EQ(r.saved[0].reg, 1);
    EXPECT_EQ(r.saved[0].offset, -4);
    EXPECT_FALSE(r.saved[0].is_value);
}

TEST(Cfi, LongAdvancesRememberRestoreAndSignedForms) {
    const std::string prog = std::string("\x02\x03", 2)                  // advance_loc1 3*2
                             + std::string("\x0e\x20", 2)                // def_cfa_offset 32
                             + std::string("\x03\x04\x00", 3)            // advance_loc2 4*2
                             + "\x0a"                                    // remember_state
                             + std::string("\x11\x09\x7e", 3)            // offset_extended_sf x9, -2*-4 = 8
                             + std::string("\x14\x12\x01", 3)            // val_offset x18, 1*-4
                             + std::string("\x04\x05\x00\x00\x00", 5)    // advance_loc4 5*2
                             + std::string("\x12\x08\x7c", 3)            // def_cfa_sf s0, -4*-4 = 16
                             + std::string("\x05\x13\x03", 3)            // offset_extended x19, 3*-4
                             + "\x42"                                    // advance 4*2
                             + "\x0b"                                    // restore_state
                             + std::string("\x13\x7e", 2)                // def_cfa_offset_sf -2*-4 = 8
                             + std::string("\x15\x14\x02", 3)            // val_offset_sf x20, 2*-4
                             + std::string("\x09\x15\x16", 3)            // register x21 in x22 (skipped)
                             + std::string("\x07\x17\x08\x18", 4)        // undefined x23, same_value x24
                             + std::string("\x2e\x10", 2)                // GNU_args_size
                             + "\x41" + std::string("\x06\x09", 2)       // advance 2, restore_extended x9
                             + std::string("\x0d\x08", 2);               // def_cfa_register s0
    agree_everywhere(section(prog), 0x1000);
}

TEST(Cfi, WhatTheReaderLeavesToLlvm) {
    unwind_rule r;
    // A DWARF expression CFA: the reader does not follow it.
    EXPECT_EQ(debug_frame_reader(section(std::string("\x42\x0f\x01\x50", 4))).rule_at(0x1008, r),
              debug_frame_reader::result::unsupported);
    // restore_state with nothing remembered.
    EXPECT_EQ(debug_frame_reader(section("\x42\x0b")).rule_at(0x1008, r), debug_frame_reader::result::unsupported);
    // Before the expression the rule is read.
    EXPECT_EQ(debug_frame_reader(section(std::string("\x42\x0f\x01\x50", 4))).rule_at(0x1002, r),
              debug_frame_reader::result::found);
    // No FDE covers the address.
    EXPECT_EQ(debug_frame_reader(section("")).rule_at(0x2000, r), debug_frame_reader::result::no_fde);
    // Every truncation of a section: no crash, no out-of-bounds read (the
    // sanitizer build runs this), and never a rule LLVM would not give.
    const std::string whole = section(std::string("\x42\x0e\x10\x42\x81\x01\x88\x02", 8));
    for (std::size_t n = 0; n < whole.size(); ++n) {
        const std::string cut = whole.substr(0, n);
        debug_frame_reader reader(cut);
        unwind_rule mine, theirs;
        if (reader.rule_at(0x1008, mine) == debug_frame_reader::result::found && llvm_rule(cut, 0x1008, theirs)) {
            EXPECT_EQ(mine, theirs) << "cut at " << n;
        }
    }
    // A length past the section's end, and 64-bit DWARF: nothing indexed.
    EXPECT_TRUE(debug_frame_reader(std::string("\xf0\xff\x00\x00", 4) + whole).ranges().empty());
    EXPECT_TRUE(debug_frame_reader(std::string("\xff\xff\xff\xff", 4) + whole).ranges().empty());
    // Only a section read to its end says "no FDE" for LLVM too.
    EXPECT_TRUE(debug_frame_reader(whole).indexes_all());
    EXPECT_FALSE(debug_frame_reader(std::string("\xf0\xff\x00\x00", 4) + whole).indexes_all());
    EXPECT_FALSE(debug_frame_reader(whole.substr(0, whole.size() - 6)).indexes_all());
}

// Every address of every FDE of the firmware images given on the command
// line (ctest loader.cfi_firmware passes the tree's): the reader must say
// what LLVM says, and must read all of them itself (the fast path).
TEST(CfiFirmware, EveryAddressAgreesWithLlvm) {
    if (g_elfs.empty()) GTEST_SKIP() << "no firmware ELF on the command line";
    std::uint64_t compared = 0;
    for (const std::string& path : g_elfs) {
        const elf_image img = elf_image::load(path);
        const std::string_view sec = img.debug_frame();
        ASSERT_FALSE(sec.empty()) << path << " has no .debug_frame";
        debug_frame_reader reader(sec);
        const auto ranges = reader.ranges();
        ASSERT_FALSE(ranges.empty()) << path;
        // Read to its end: an address outside every FDE is settled without LLVM.
        ASSERT_TRUE(reader.indexes_all()) << path;
        llvm::DWARFDebugFrame frames(llvm::Triple::riscv32, false);
        llvm::DWARFDataExtractor data(llvm::StringRef(sec.data(), sec.size()), true, 4);
        ASSERT_FALSE(static_cast<bool>(frames.parse(data))) << path;
        for (const auto& rg : ranges)
            for (std::uint32_t a = rg.begin; a < rg.end; a += 2) {
                unwind_rule mine, theirs;
                ASSERT_EQ(reader.rule_at(a, mine), debug_frame_reader::result::found) << path << " 0x" << std::hex << a;
                const llvm::dwarf::FDE* fde = nullptr;
                for (const llvm::dwarf::FrameEntry& e : frames.entries()) {
                    const auto* f = llvm::dyn_cast<llvm::dwarf::FDE>(&e);
                    if (f && a >= f->getInitialLocation() && a - f->getInitialLocation() < f->getAddressRange()) {
                        fde = f;
                        break;
                    }
                }
                ASSERT_NE(fde, nullptr) << path << " 0x" << std::hex << a;
                theirs = rule_of_fde(*fde, a);
                ASSERT_EQ(mine, theirs) << path << " at 0x" << std::hex << a << ": reader " << describe(mine)
                                        << ", LLVM " << describe(theirs);
                ++compared;
            }
    }
    EXPECT_GT(compared, 1000u);
    std::printf("compared %llu addresses in %zu images\n", static_cast<unsigned long long>(compared), g_elfs.size());
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    for (int i = 1; i < argc; ++i) g_elfs.emplace_back(argv[i]);
    return RUN_ALL_TESTS();
}
