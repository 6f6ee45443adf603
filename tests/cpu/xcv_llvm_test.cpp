// The xcvsimd and xcvbitmanip decoder against LLVM 19's RISC-V disassembler
// (+xcvsimd,+xcvbitmanip): every encoding of custom-3 and of the bit
// manipulation slots of custom-1/custom-2 (rd = a0, rs1 = a1, every value of
// the other fields), decoded by the ISS and printed back from the decoded
// slot, must be what LLVM prints; what one decodes the other must decode.
// Documented differences, each counted: encodings the CV32E40Pv2 RTL decoder
// (cv32e40p_decoder.sv) rejects, where the manual calls the bits unused and
// zero, but LLVM's decoder accepts (its assembler refuses most of them):
// - cv.bitrev with Is3 >= 4 (bits 29:27 not 0);
// - .sci shifts by more than the lane width - 1 (Imm6[5:4] resp. [5:3] not 0);
// - cv.extract/extractu/insert .h/.b with Imm6 beyond the last lane;
// - cv.shuffle.sci.h with Imm6 >= 4.
#include "cv_ops.h"
#include "disasm.h"
#include "isa.h"

#include <gtest/gtest.h>
#include <systemc>

#include <cstdio>
#include <sstream>
#include <string>

using namespace npu;

namespace {

const char* const abi[32] = {"zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
                             "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
                             "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

std::string reg(unsigned r) { return r == cpu::x_sink ? "zero" : abi[r]; }

// Operations whose .sci immediate LLVM prints (and the ISS extends) unsigned.
bool unsigned_imm(unsigned fn) {
    switch (fn) {
    case cpu::cv_v_avgu:
    case cpu::cv_v_minu:
    case cpu::cv_v_maxu:
    case cpu::cv_v_srl:
    case cpu::cv_v_sra:
    case cpu::cv_v_sll:
    case cpu::cv_v_dotup:
    case cpu::cv_v_sdotup:
    case cpu::cv_v_cmpgtu:
    case cpu::cv_v_cmpgeu:
    case cpu::cv_v_cmpltu:
    case cpu::cv_v_cmpleu: return true;
    default: return false;
    }
}

// The text of a decoded xcvsimd slot.
std::string simd_text(const cpu::insn& i) {
    static const char* const names[] = {
        "add",       "sub",       "avg",      "avgu",     "min",    "minu",   "max",      "maxu",
        "srl",       "sra",       "sll",      "or",       "xor",    "and",    "abs",      "dotup",
        "dotusp",    "dotsp",     "sdotup",   "sdotusp",  "sdotsp", "cmpeq",  "cmpne",    "cmpgt",
        "cmpge",     "cmplt",     "cmple",    "cmpgtu",   "cmpgeu", "cmpltu", "cmpleu",   "extract",
        "extractu",  "insert",    "shuffle",  "shuffle2", "pack",   "pack.h", "packhi.b", "packlo.b",
        "cplxmul.r", "cplxmul.i", "cplxconj", "subrotmj", "add",    "sub"};
    const unsigned fn = i.rm >> 1;
    const char* const w = (i.rm & 1) ? ".b" : ".h";
    const std::uint32_t imm = static_cast<std::uint32_t>(i.imm), imm6 = imm & 63, mode = imm >> 8 & 3,
                        extra = imm >> 12 & 3;
    const std::string rr = reg(i.rd) + ", " + reg(i.rs1);
    const std::string div = extra ? ".div" + std::to_string(1u << extra) : "";
    const std::string name = std::string("cv.") + names[fn];
    const int simm = static_cast<int>((imm6 ^ 32u) - 32u);
    switch (fn) {
    case cpu::cv_v_abs: return name + w + " " + rr;
    case cpu::cv_v_extract:
    case cpu::cv_v_extractu:
    case cpu::cv_v_insert: return name + w + " " + rr + ", " + std::to_string(imm6);
    case cpu::cv_v_shuffle:
        if (mode != cpu::cv_sci) return name + w + " " + rr + ", " + reg(i.rs2);
        if (i.rm & 1) return "cv.shufflei" + std::to_string(extra) + ".sci.b " + rr + ", " + std::to_string(imm6);
        return name + ".sci.h " + rr + ", " + std::to_string(imm6);
    case cpu::cv_v_shuffle2: return name + w + " " + rr + ", " + reg(i.rs2);
    case cpu::cv_v_pack:
    case cpu::cv_v_pack_h:
    case cpu::cv_v_packhi:
    case cpu::cv_v_packlo: return name + " " + rr + ", " + reg(i.rs2);
    case cpu::cv_v_cplxconj: return name + " " + rr;
    case cpu::cv_v_cplxmul_r:
    case cpu::cv_v_cplxmul_i:
    case cpu::cv_v_subrotmj:
    case cpu::cv_v_add_div:
    case cpu::cv_v_sub_div: return name + div + " " + rr + ", " + reg(i.rs2);
    default: break;
    }
    if (mode == cpu::cv_sci)
        return name + ".sci" + w + " " + rr + ", " + (unsigned_imm(fn) ? std::to_string(imm6) : std::to_string(simm));
    return name + (mode == cpu::cv_sc ? ".sc" : "") + w + " " + rr + ", " + reg(i.rs2);
}

// The text of a decoded xcvbitmanip slot.
std::string bitmanip_text(const cpu::insn& i) {
    static const char* const names[] = {"extract",  "extractu",  "insert",  "bclr",  "bset",  "bitrev",
                                        "extractr", "extractur", "insertr", "bclrr", "bsetr", "ror",
                                        "ff1",      "fl1",       "clb",     "cnt"};
    const std::string rr = std::string("cv.") + names[i.rm] + " " + reg(i.rd) + ", " + reg(i.rs1);
    if (i.rm <= cpu::cv_bitrev) return rr + ", " + std::to_string(i.imm >> 5) + ", " + std::to_string(i.imm & 31);
    if (i.rm >= cpu::cv_ff1) return rr;
    return rr + ", " + reg(i.rs2);
}

// Single spaces between tokens (the disassembler pads the mnemonic).
std::string squeeze(const std::string& s) {
    std::istringstream in(s);
    std::string out, tok;
    while (in >> tok) out += (out.empty() ? "" : " ") + tok;
    return out;
}

struct tally {
    unsigned compared = 0, mismatches = 0;
    std::string first;
    void mismatch(std::uint32_t raw, const std::string& llvm, const std::string& iss) {
        if (++mismatches <= 20) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "%08x", raw);
            first += std::string("\n  ") + hex + ": llvm '" + llvm + "', iss '" + iss + "'";
        }
    }
};

// Decodes `raw` both ways; `known_difference` says whether an encoding only
// LLVM decodes is one of the documented ones (and counts it).
template <class Known>
void compare(const platform::disassembler& dis, std::uint32_t raw, tally& t, Known known_difference) {
    const std::uint32_t pc = 0x1c001000;
    const std::string llvm = squeeze(dis.text(raw, pc));
    const bool llvm_valid = llvm.rfind("<unknown", 0) != 0;
    const cpu::cost_table costs;
    const cpu::insn i = cpu::decode(raw, pc, pc, 64, costs, cpu::ext_all);
    std::string iss = "<illegal>";
    if (i.op == cpu::op_cv_simd) iss = simd_text(i);
    if (i.op == cpu::op_cv_bitmanip) iss = bitmanip_text(i);
    if (i.op != cpu::op_illegal && i.op != cpu::op_cv_simd && i.op != cpu::op_cv_bitmanip) iss = "<other group>";
    if (llvm_valid && i.op == cpu::op_illegal && known_difference(raw)) return;
    if (!llvm_valid && i.op == cpu::op_illegal) return;
    if (llvm == iss) {
        ++t.compared;
        return;
    }
    t.mismatch(raw, llvm, iss);
}

}  // namespace

TEST(XcvVsLlvm, SimdEncodingsDecodeAsLlvmDecodesThem) {
    const platform::disassembler dis;
    tally t;
    unsigned shift_imm = 0, lane_imm = 0, shuffle_imm = 0;
    for (std::uint32_t hi = 0; hi < 4096; ++hi)
        for (std::uint32_t f3 = 0; f3 < 8; ++f3) {
            const std::uint32_t raw = hi << 20 | 11u << 15 | f3 << 12 | 10u << 7 | 0x7b;
            compare(dis, raw, t, [&](std::uint32_t r) {
                const std::uint32_t f5 = r >> 27, F = r >> 26 & 1, imm6 = (r >> 20 & 31) << 1 | (r >> 25 & 1);
                if (F) return false;
                if (f5 >= 8 && f5 <= 10 && (f3 == 6 || f3 == 7) && imm6 >= (f3 == 7 ? 8u : 16u))
                    return ++shift_imm, true;
                if (f5 == 23 && f3 < 6 && imm6 >= ((f3 & 1) ? 4u : 2u)) return ++lane_imm, true;
                if (f5 == 24 && f3 == 6 && imm6 >= 4) return ++shuffle_imm, true;
                return false;
            });
        }
    EXPECT_EQ(t.mismatches, 0u) << t.first;
    EXPECT_EQ(shift_imm, 3u * 48 + 3u * 56);  // srl/sra/sll: .h Imm6 16..63, .b 8..63
    EXPECT_EQ(lane_imm, 3u * 62 + 3u * 60);   // extract/extractu/insert: .h lanes 2..63, .b 4..63
    EXPECT_EQ(shuffle_imm, 60u);
    // 27 lane-wise groups x 256 (vector and .sc: 2 x 32 rs2 each, .sci: 2 x 64),
    // 3 shifts x 152 (.sci: 16 + 8), abs 2, extract/insert 18, shuffle 324,
    // shuffle2 64, pack 64, packhi/lo 64, cplxmul 256, cplxconj 1,
    // subrotmj 128, add/sub.div 2 x 96.
    EXPECT_EQ(t.compared, 8481u);
    std::printf("%u xcvsimd encodings identical; LLVM-only: %u shift, %u lane, %u shuffle immediates\n", t.compared,
                shift_imm, lane_imm, shuffle_imm);
}

TEST(XcvVsLlvm, BitManipulationEncodingsDecodeAsLlvmDecodesThem) {
    const platform::disassembler dis;
    tally t;
    unsigned bitrev_is3 = 0;
    // custom-2 funct3 0/1: every f2, Is3, Is2.
    for (std::uint32_t hi = 0; hi < 4096; ++hi)
        for (std::uint32_t f3 = 0; f3 < 2; ++f3) {
            const std::uint32_t raw = hi << 20 | 11u << 15 | f3 << 12 | 10u << 7 | 0x5b;
            compare(dis, raw, t, [&](std::uint32_t r) {
                if (f3 == 1 && r >> 30 == 3 && (r >> 25 & 31) >= 4) return ++bitrev_is3, true;
                return false;
            });
        }
    // custom-1 funct3 3, funct7 0x18..0x27 (the register forms), every rs2.
    for (std::uint32_t f7 = 0x18; f7 <= 0x27; ++f7)
        for (std::uint32_t rs2 = 0; rs2 < 32; ++rs2)
            compare(dis, f7 << 25 | rs2 << 20 | 11u << 15 | 3u << 12 | 10u << 7 | 0x2b, t,
                    [](std::uint32_t) { return false; });
    EXPECT_EQ(t.mismatches, 0u) << t.first;
    EXPECT_EQ(bitrev_is3, 28u * 32);  // Is3 4..31, every Is2
    // extract/extractu/insert 3 x 1024, bclr/bset 2 x 1024, bitrev 4 x 32,
    // six register forms x 32 rs2, ff1/fl1/clb/cnt 4.
    EXPECT_EQ(t.compared, 5444u);
    std::printf("%u xcvbitmanip encodings identical; LLVM-only: %u cv.bitrev with Is3 >= 4\n", t.compared, bitrev_is3);
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
