// F extension on the pure ISS: every expected value below was derived by
// hand (or with exact rational arithmetic, see the comments) from the IEEE
// 754 rules and the RISC-V F chapter, not from the code under test.
#include "iss_machine.h"

#include "fpu.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cstring>
#include <random>

using namespace npu;
using namespace npu::test;
using namespace npu::test::rv;

namespace {

enum : u32 { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };
constexpr u32 modes[5] = {rne, rtz, rdn, rup, rmm};
const char* const mode_names[5] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

constexpr u32 one = 0x3f800000, two = 0x40000000, three = 0x40400000, half = 0x3f000000;
constexpr u32 pinf = 0x7f800000, ninf = 0xff800000, qnan = 0x7fc00000, snan = 0x7f800001;
constexpr u32 pzero = 0, nzero = 0x80000000;

struct result {
    u32 value;  // f10 or x10
    u32 flags;
    u32 cause;  // cause_breakpoint when the instruction completed
};

// Executes one instruction with f1..f3 / x1 preset and frm; rd is 10.
result exec(u32 insn, u32 a, u32 b = 0, u32 c = 0, u32 frm = 0, bool int_rd = false, u32 x1 = 0) {
    iss_machine m;
    m.program({insn, ebreak()});
    m.h.f[1] = a;
    m.h.f[2] = b;
    m.h.f[3] = c;
    m.h.x[1] = x1;
    m.h.frm = frm;
    const u32 cause = m.run();
    return {int_rd ? m.h.x[10] : m.h.f[10], m.h.fflags, cause};
}

// Checks `make(rm)` in all five static modes and, with rm = dyn, through frm.
template <typename Make>
void all_modes(const char* what, Make make, u32 a, u32 b, u32 c, const u32 (&expect)[5], u32 flags, bool int_rd = false,
               u32 x1 = 0) {
    for (int k = 0; k < 5; ++k) {
        for (bool dynamic : {false, true}) {
            const result r = exec(make(dynamic ? dyn : modes[k]), a, b, c, dynamic ? modes[k] : 0, int_rd, x1);
            EXPECT_EQ(r.cause, static_cast<u32>(cpu::cause_breakpoint));
            EXPECT_EQ(r.value, expect[k]) << what << " " << mode_names[k] << (dynamic ? " (frm)" : "") << std::hex
                                          << " got 0x" << r.value << " want 0x" << expect[k];
            EXPECT_EQ(r.flags, flags) << what << " " << mode_names[k];
        }
    }
}

}  // namespace

TEST(Fpu, AddRoundingModes) {
    auto op = [](u32 rm) { return fadd(10, 1, 2, rm); };
    // 1 + 2^-24: exactly halfway between 1 and 1 + 2^-23.
    all_modes("1+2^-24", op, one, 0x33800000, 0, {one, one, one, 0x3f800001, 0x3f800001}, NX);
    all_modes("-1-2^-24", op, 0xbf800000, 0xb3800000, 0, {0xbf800000, 0xbf800000, 0xbf800001, 0xbf800000, 0xbf800001},
              NX);
    // (1 + 2^-23) + 2^-24: halfway, the even neighbour is the upper one.
    all_modes("1+3*2^-24", op, 0x3f800001, 0x33800000, 0, {0x3f800002, 0x3f800001, 0x3f800001, 0x3f800002, 0x3f800002},
              NX);
    // 1 + 1.5 * 2^-24: above halfway.
    all_modes("1+1.5*2^-24", op, one, 0x33c00000, 0, {0x3f800001, one, one, 0x3f800001, 0x3f800001}, NX);
    all_modes("1.5+0.25 exact", op, 0x3fc00000, 0x3e800000, 0,
              {0x3fe00000, 0x3fe00000, 0x3fe00000, 0x3fe00000, 0x3fe00000}, 0);
    // x + (-x) is +0, except -0 when rounding down.
    all_modes("1-1", op, one, 0xbf800000, 0, {pzero, pzero, nzero, pzero, pzero}, 0);
    all_modes(
        "fsub 1-1", [](u32 rm) { return fsub(10, 1, 2, rm); }, one, one, 0, {pzero, pzero, nzero, pzero, pzero}, 0);
}

TEST(Fpu, MulDivSqrtRoundingModes) {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: a tie; the lower neighbour is even.
    all_modes(
        "mul tie", [](u32 rm) { return fmul(10, 1, 2, rm); }, 0x3f800800, 0x3f800800, 0,
        {0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801001}, NX);
    // 1/3 = 1.0101..b * 2^-2: the dropped bits are 1010... (above half).
    all_modes(
        "1/3", [](u32 rm) { return fdiv(10, 1, 2, rm); }, one, three, 0,
        {0x3eaaaaab, 0x3eaaaaaa, 0x3eaaaaaa, 0x3eaaaaab, 0x3eaaaaab}, NX);
    all_modes(
        "-1/3", [](u32 rm) { return fdiv(10, 1, 2, rm); }, 0xbf800000, three, 0,
        {0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab, 0xbeaaaaaa, 0xbeaaaaab}, NX);
    // sqrt(2) = 0x1.6a09e667f3bcd..p0: next bit after 23 fraction bits is 0.
    all_modes(
        "sqrt 2", [](u32 rm) { return fsqrt(10, 1, rm); }, two, 0, 0,
        {0x3fb504f3, 0x3fb504f3, 0x3fb504f3, 0x3fb504f4, 0x3fb504f3}, NX);
    all_modes("sqrt 4", [](u32 rm) { return fsqrt(10, 1, rm); }, 0x40800000, 0, 0, {two, two, two, two, two}, 0);
    all_modes("sqrt -0", [](u32 rm) { return fsqrt(10, 1, rm); }, nzero, 0, 0, {nzero, nzero, nzero, nzero, nzero}, 0);
}

TEST(Fpu, OverflowPerMode) {
    auto op = [](u32 rm) { return fmul(10, 1, 2, rm); };
    // Round-toward-zero-like modes give the largest finite number instead of infinity.
    all_modes("max*2", op, 0x7f7fffff, two, 0, {pinf, 0x7f7fffff, 0x7f7fffff, pinf, pinf}, OF | NX);
    all_modes("-max*2", op, 0xff7fffff, two, 0, {ninf, 0xff7fffff, ninf, 0xff7fffff, ninf}, OF | NX);
}

TEST(Fpu, UnderflowIsDetectedAfterRounding) {
    auto op = [](u32 rm) { return fmul(10, 1, 2, rm); };
    // (1 + 2^-23) * (2^-126 - 2^-149) = 2^-126 (1 - 2^-46): rounding up gives the
    // smallest normal, which is not tiny after rounding -> NX only.
    for (int k : {0, 3, 4}) {
        const result r = exec(op(modes[k]), 0x3f800001, 0x007fffff);
        EXPECT_EQ(r.value, 0x00800000u) << mode_names[k];
        EXPECT_EQ(r.flags, NX) << mode_names[k];
    }
    for (int k : {1, 2}) {
        const result r = exec(op(modes[k]), 0x3f800001, 0x007fffff);
        EXPECT_EQ(r.value, 0x007fffffu) << mode_names[k];
        EXPECT_EQ(r.flags, UF | NX) << mode_names[k];
    }
    // 2^-149 * 0.5 = 2^-150: halfway between 0 and the smallest subnormal.
    all_modes("2^-150", op, 0x00000001, half, 0, {pzero, pzero, pzero, 0x00000001, 0x00000001}, UF | NX);
    // An exact subnormal result raises nothing.
    all_modes("2^-127 exact", op, 0x00800000, half, 0, {0x00400000, 0x00400000, 0x00400000, 0x00400000, 0x00400000}, 0);
}

TEST(Fpu, InvalidAndDivideByZeroGiveCanonicalNaNAndFlags) {
    for (u32 rm : {rne, rmm}) {
        EXPECT_EQ(exec(fsub(10, 1, 2, rm), pinf, pinf).value, qnan);
        EXPECT_EQ(exec(fsub(10, 1, 2, rm), pinf, pinf).flags, NV);
        EXPECT_EQ(exec(fadd(10, 1, 2, rm), pinf, ninf).flags, NV);
        EXPECT_EQ(exec(fmul(10, 1, 2, rm), pzero, pinf).value, qnan);
        EXPECT_EQ(exec(fmul(10, 1, 2, rm), pzero, pinf).flags, NV);
        EXPECT_EQ(exec(fdiv(10, 1, 2, rm), pzero, pzero).value, qnan);
        EXPECT_EQ(exec(fdiv(10, 1, 2, rm), pinf, ninf).flags, NV);
        EXPECT_EQ(exec(fsqrt(10, 1, rm), 0xbf800000).value, qnan);
        EXPECT_EQ(exec(fsqrt(10, 1, rm), 0xbf800000).flags, NV);
        const result dz = exec(fdiv(10, 1, 2, rm), one, nzero);
        EXPECT_EQ(dz.value, ninf);
        EXPECT_EQ(dz.flags, DZ);
        EXPECT_EQ(exec(fdiv(10, 1, 2, rm), 0xbf800000, pzero).value, ninf);
        // inf / 0 is exact infinity: no DZ.
        EXPECT_EQ(exec(fdiv(10, 1, 2, rm), pinf, pzero).flags, 0u);
    }
}

TEST(Fpu, NaNPayloadsAreCanonicalisedByArithmeticOnly) {
    const u32 payload_q = 0x7fc12345, payload_s = 0x7f812345, neg_q = 0xffc00001;
    for (u32 rm : {rne, rtz, rmm}) {
        const result q = exec(fadd(10, 1, 2, rm), payload_q, one);
        EXPECT_EQ(q.value, qnan);
        EXPECT_EQ(q.flags, 0u);
        const result s = exec(fmul(10, 1, 2, rm), one, payload_s);
        EXPECT_EQ(s.value, qnan);
        EXPECT_EQ(s.flags, NV);
        EXPECT_EQ(exec(fdiv(10, 1, 2, rm), neg_q, one).value, qnan);
        EXPECT_EQ(exec(fsqrt(10, 1, rm), payload_q).value, qnan);
        EXPECT_EQ(exec(fsqrt(10, 1, rm), payload_s).flags, NV);
    }
    // Sign injection and moves are bit operations: payloads survive, no flags.
    const result sg = exec(fsgnjn(10, 1, 2), payload_s, one);
    EXPECT_EQ(sg.value, 0xff812345u);
    EXPECT_EQ(sg.flags, 0u);
    EXPECT_EQ(exec(fsgnj(10, 1, 2), payload_q, ninf).value, 0xffc12345u);
    EXPECT_EQ(exec(fsgnjx(10, 1, 2), 0xffc12345, ninf).value, 0x7fc12345u);
    EXPECT_EQ(exec(fmv_x_w(10, 1), payload_s, 0, 0, 0, true).value, payload_s);
    EXPECT_EQ(exec(fmv_w_x(10, 1), 0, 0, 0, 0, false, payload_s).value, payload_s);
    // flw / fsw move the bits unchanged.
    iss_machine m;
    std::vector<u32> p;
    li(p, 1, iss_machine::data);
    p.insert(p.end(), {flw(4, 1, 0), fsw(4, 1, 4), ebreak()});
    m.program(p);
    m.mem.set_word(iss_machine::data, payload_s);
    ASSERT_EQ(m.run(), static_cast<u32>(cpu::cause_breakpoint));
    EXPECT_EQ(m.h.f[4], payload_s);
    EXPECT_EQ(m.mem.word(iss_machine::data + 4), payload_s);
    EXPECT_EQ(m.h.fflags, 0u);
}

TEST(Fpu, FusedMultiplyAddRoundsOnce) {
    // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; a separate multiply would round to 0.
    all_modes(
        "fma exact", [](u32 rm) { return fmadd(10, 1, 2, 3, rm); }, 0x3f800001, 0x3f7ffffe, 0xbf800000,
        {0xa8800000, 0xa8800000, 0xa8800000, 0xa8800000, 0xa8800000}, 0);
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 = 2^-22 (1 + 2^-24): a tie in the result's binade.
    all_modes(
        "fma tie", [](u32 rm) { return fmadd(10, 1, 2, 3, rm); }, 0x3f800001, 0x3f800001, 0xbf800000,
        {0x34800000, 0x34800000, 0x34800000, 0x34800001, 0x34800001}, NX);
    all_modes(
        "fma mul tie", [](u32 rm) { return fmadd(10, 1, 2, 3, rm); }, 0x3f800800, 0x3f800800, pzero,
        {0x3f801000, 0x3f801000, 0x3f801000, 0x3f801001, 0x3f801001}, NX);
    // Sign variants: 2*3 +- 1.
    EXPECT_EQ(exec(fmadd(10, 1, 2, 3), two, three, one).value, 0x40e00000u);   // 7
    EXPECT_EQ(exec(fmsub(10, 1, 2, 3), two, three, one).value, 0x40a00000u);   // 5
    EXPECT_EQ(exec(fnmsub(10, 1, 2, 3), two, three, one).value, 0xc0a00000u);  // -5
    EXPECT_EQ(exec(fnmadd(10, 1, 2, 3), two, three, one).value, 0xc0e00000u);  // -7
    // Exact zero: +0 unless rounding down; (-0) + (-0) stays -0.
    all_modes(
        "fma 1*1-1", [](u32 rm) { return fmadd(10, 1, 2, 3, rm); }, one, one, 0xbf800000,
        {pzero, pzero, nzero, pzero, pzero}, 0);
    EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rmm), nzero, one, nzero).value, nzero);
    // Invalid: inf * 0 (even with a quiet NaN addend), inf - inf, sNaN.
    for (u32 rm : {rne, rmm}) {
        const result a = exec(fmadd(10, 1, 2, 3, rm), pinf, pzero, qnan);
        EXPECT_EQ(a.value, qnan);
        EXPECT_EQ(a.flags, NV);
        EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rm), pinf, one, ninf).flags, NV);
        EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rm), one, one, snan).flags, NV);
        EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rm), one, one, qnan).flags, 0u);
        EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rm), 0x7f7fffff, two, pzero).flags, OF | NX);
    }
}

TEST(Fpu, ConvertToIntegerRoundingAndSaturation) {
    auto w = [](u32 rm) { return fcvt_w_s(10, 1, rm); };
    auto wu = [](u32 rm) { return fcvt_wu_s(10, 1, rm); };
    all_modes("2.5", w, 0x40200000, 0, 0, {2, 2, 2, 3, 3}, NX, true);
    all_modes("-2.5", w, 0xc0200000, 0, 0, {u32(-2), u32(-2), u32(-3), u32(-2), u32(-3)}, NX, true);
    all_modes("3.5", w, 0x40600000, 0, 0, {4, 3, 3, 4, 4}, NX, true);
    all_modes("-0.5", w, 0xbf000000, 0, 0, {0, 0, u32(-1), 0, u32(-1)}, NX, true);
    all_modes("exact -2^31", w, 0xcf000000, 0, 0, {0x80000000, 0x80000000, 0x80000000, 0x80000000, 0x80000000}, 0,
              true);
    struct sat {
        u32 in, w_out, wu_out;
    };
    // Out of range and NaN: the RISC-V table, NV and no NX.
    for (const sat& s :
         {sat{qnan, 0x7fffffff, 0xffffffff}, sat{snan, 0x7fffffff, 0xffffffff}, sat{0xffc00000, 0x7fffffff, 0xffffffff},
          sat{pinf, 0x7fffffff, 0xffffffff}, sat{ninf, 0x80000000, 0},
          sat{0x4f000000 /* 2^31 */, 0x7fffffff, 0x80000000}, sat{0xcf000001 /* -2^31-256 */, 0x80000000, 0},
          sat{0x4f800000 /* 2^32 */, 0x7fffffff, 0xffffffff}, sat{0xbf800000 /* -1 */, 0xffffffff, 0}}) {
        for (u32 rm : modes) {
            const result rw = exec(w(rm), s.in, 0, 0, 0, true);
            const result ru = exec(wu(rm), s.in, 0, 0, 0, true);
            EXPECT_EQ(rw.value, s.w_out) << std::hex << s.in;
            EXPECT_EQ(ru.value, s.wu_out) << std::hex << s.in;
            const bool w_valid = s.in == 0xbf800000;
            const bool wu_valid = s.in == 0x4f000000;
            EXPECT_EQ(rw.flags, w_valid ? 0u : NV) << std::hex << s.in;
            EXPECT_EQ(ru.flags, wu_valid ? 0u : NV) << std::hex << s.in;
        }
    }
    // wu: negative values that round to 0 are fine (NX), those rounding to -1 are invalid.
    for (u32 rm : modes) EXPECT_EQ(exec(wu(rm), 0xbf000000, 0, 0, 0, true).value, 0u);
    EXPECT_EQ(exec(wu(rtz), 0xbf000000, 0, 0, 0, true).flags, NX);
    EXPECT_EQ(exec(wu(rne), 0xbf000000, 0, 0, 0, true).flags, NX);
    EXPECT_EQ(exec(wu(rdn), 0xbf000000, 0, 0, 0, true).flags, NV);
    EXPECT_EQ(exec(wu(rmm), 0xbf000000, 0, 0, 0, true).flags, NV);
    EXPECT_EQ(exec(wu(rne), 0x4f7fffff, 0, 0, 0, true).value, 0xffffff00u);
    EXPECT_EQ(exec(wu(rup), 0x3fc00000, 0, 0, 0, true).value, 2u);
    EXPECT_EQ(exec(w(rne), 0x4effffff, 0, 0, 0, true).value, 2147483520u);
}

TEST(Fpu, ConvertFromInteger) {
    auto w = [](u32 rm) { return fcvt_s_w(10, 1, rm); };
    auto wu = [](u32 rm) { return fcvt_s_wu(10, 1, rm); };
    // 2^24 + 1 is halfway between 2^24 (even) and 2^24 + 2.
    all_modes("2^24+1", w, 0, 0, 0, {0x4b800000, 0x4b800000, 0x4b800000, 0x4b800001, 0x4b800001}, NX, false, 16777217);
    all_modes("-(2^24+1)", w, 0, 0, 0, {0xcb800000, 0xcb800000, 0xcb800001, 0xcb800000, 0xcb800001}, NX, false,
              u32(-16777217));
    all_modes("INT_MIN", w, 0, 0, 0, {0xcf000000, 0xcf000000, 0xcf000000, 0xcf000000, 0xcf000000}, 0, false,
              0x80000000u);
    all_modes("0", w, 0, 0, 0, {0, 0, 0, 0, 0}, 0, false, 0);
    all_modes("u 2^32-1", wu, 0, 0, 0, {0x4f800000, 0x4f7fffff, 0x4f7fffff, 0x4f800000, 0x4f800000}, NX, false,
              0xffffffffu);
    all_modes("u 2^31", wu, 0, 0, 0, {0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000, 0x4f000000}, 0, false,
              0x80000000u);
}

TEST(Fpu, MinMaxSignedZeroAndNaNs) {
    struct mm {
        u32 a, b, min, max, flags;
    };
    for (const mm& c :
         {mm{nzero, pzero, nzero, pzero, 0}, mm{pzero, nzero, nzero, pzero, 0}, mm{0xbf800000, two, 0xbf800000, two, 0},
          mm{ninf, 0xbf800000, ninf, 0xbf800000, 0}, mm{0x7fc00001, one, one, one, 0}, mm{one, qnan, one, one, 0},
          mm{snan, one, one, one, NV}, mm{one, 0xff800001, one, one, NV}, mm{qnan, 0xffc12345, qnan, qnan, 0},
          mm{snan, qnan, qnan, qnan, NV}}) {
        const result lo = exec(fmin(10, 1, 2), c.a, c.b);
        const result hi = exec(fmax(10, 1, 2), c.a, c.b);
        EXPECT_EQ(lo.value, c.min) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(hi.value, c.max) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(lo.flags, c.flags) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(hi.flags, c.flags) << std::hex << c.a << " " << c.b;
    }
}

TEST(Fpu, ComparisonsQuietAndSignaling) {
    struct cmp {
        u32 a, b, eq, lt, le, eq_flags, order_flags;
    };
    for (const cmp& c :
         {cmp{one, two, 0, 1, 1, 0, 0}, cmp{two, one, 0, 0, 0, 0, 0}, cmp{one, one, 1, 0, 1, 0, 0},
          cmp{nzero, pzero, 1, 0, 1, 0, 0}, cmp{ninf, pinf, 0, 1, 1, 0, 0}, cmp{qnan, one, 0, 0, 0, 0, NV},
          cmp{one, snan, 0, 0, 0, NV, NV}, cmp{qnan, qnan, 0, 0, 0, 0, NV}}) {
        const result e = exec(feq(10, 1, 2), c.a, c.b, 0, 0, true);
        const result l = exec(flt(10, 1, 2), c.a, c.b, 0, 0, true);
        const result le = exec(fle(10, 1, 2), c.a, c.b, 0, 0, true);
        EXPECT_EQ(e.value, c.eq) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(l.value, c.lt) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(le.value, c.le) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(e.flags, c.eq_flags) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(l.flags, c.order_flags) << std::hex << c.a << " " << c.b;
        EXPECT_EQ(le.flags, c.order_flags) << std::hex << c.a << " " << c.b;
    }
}

TEST(Fpu, Classify) {
    const std::pair<u32, u32> cases[] = {{ninf, 1u << 0},       {0xbf800000, 1u << 1}, {0x80000001, 1u << 2},
                                         {nzero, 1u << 3},      {pzero, 1u << 4},      {0x007fffff, 1u << 5},
                                         {one, 1u << 6},        {pinf, 1u << 7},       {snan, 1u << 8},
                                         {0xff800001, 1u << 8}, {qnan, 1u << 9},       {0xffffffff, 1u << 9}};
    for (const auto& c : cases) {
        const result r = exec(fclass(10, 1), c.first, 0, 0, 0, true);
        EXPECT_EQ(r.value, c.second) << std::hex << c.first;
        EXPECT_EQ(r.flags, 0u);
    }
}

TEST(Fpu, InvalidRoundingModesAreIllegal) {
    for (u32 rm : {5u, 6u}) {
        const result r = exec(fadd(10, 1, 2, rm), one, one);
        EXPECT_EQ(r.cause, static_cast<u32>(cpu::cause_illegal));
        EXPECT_EQ(exec(fcvt_w_s(10, 1, rm), one).cause, static_cast<u32>(cpu::cause_illegal));
        EXPECT_EQ(exec(fmadd(10, 1, 2, 3, rm), one).cause, static_cast<u32>(cpu::cause_illegal));
    }
    for (u32 frm : {5u, 6u, 7u}) {
        iss_machine m;
        m.program({fadd(10, 1, 2, dyn)});
        m.h.frm = frm;
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_illegal));
        EXPECT_EQ(m.h.exc_tval, fadd(10, 1, 2, dyn));
    }
    // Instructions without a rounding mode ignore frm.
    EXPECT_EQ(exec(fmin(10, 1, 2), one, two, 0, 7).value, one);
}

TEST(Fpu, FsOffMakesFpIllegalAndWritesSetDirty) {
    for (u32 insn : {fadd(10, 1, 2, rne), flw(1, 0, 0), fsw(1, 0, 0), fmv_x_w(10, 1), fmv_w_x(1, 10), csrr(10, fflags),
                     csrw(frm, 0), csrr(10, fcsr), fclass(10, 1)}) {
        iss_machine m;
        m.h.mstatus &= ~cpu::mstatus_bits::fs;
        m.program({insn});
        EXPECT_EQ(m.run(), static_cast<u32>(cpu::cause_illegal)) << std::hex << insn;
        EXPECT_EQ(m.h.exc_tval, insn);
    }
    iss_machine m;
    m.program({csrr(11, mstatus), fadd(10, 1, 2, rne), csrr(12, mstatus), ebreak()});
    ASSERT_EQ(m.run(), static_cast<u32>(cpu::cause_breakpoint));
    EXPECT_EQ((m.h.x[11] >> 13) & 3, 1u);  // Initial
    EXPECT_EQ((m.h.x[12] >> 13) & 3, 3u);  // Dirty
    EXPECT_EQ(m.h.x[12] >> 31, 1u);        // SD
    EXPECT_EQ(m.h.x[11] >> 31, 0u);
}

TEST(Fpu, FlagsAccrueAndFcsrLayout) {
    iss_machine m;
    m.program({addi(5, 0, 3), csrw(frm, 5), fadd(10, 1, 2, rne), fdiv(11, 1, 3, rne), csrr(12, fcsr), csrr(13, fflags),
               csrrwi(14, fflags, 0), csrr(15, fflags), addi(6, 0, 0x7f), csrw(fcsr, 6), csrr(16, frm),
               csrr(17, fflags), csrr(18, fcsr), ebreak()});
    m.h.f[1] = one;
    m.h.f[2] = 0x33800000;
    m.h.f[3] = pzero;
    ASSERT_EQ(m.run(), static_cast<u32>(cpu::cause_breakpoint));
    EXPECT_EQ(m.h.x[12], (3u << 5) | NX | DZ);
    EXPECT_EQ(m.h.x[13], NX | DZ);
    EXPECT_EQ(m.h.x[14], NX | DZ);
    EXPECT_EQ(m.h.x[15], 0u);
    EXPECT_EQ(m.h.x[16], 3u);     // 0x7f >> 5
    EXPECT_EQ(m.h.x[17], 0x1fu);
    EXPECT_EQ(m.h.x[18], 0x7fu);
}

// round_to_f32 (the RMM back end) against the host's own binary64 -> binary32
// conversion in the four modes the host implements, on random values that
// cover normal, subnormal, overflow and halfway cases.
TEST(Fpu, RoundToF32MatchesHostConversionInHostModes) {
    std::mt19937_64 rng(12345);
    const int host_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
    for (int i = 0; i < 200000; ++i) {
        // exponent in [-160, 130], random 52-bit fraction; every 4th value is a tie.
        const int e = static_cast<int>(rng() % 291) - 160;
        std::uint64_t frac = rng() & ((1ull << 52) - 1);
        if (i % 4 == 0) frac = (frac & ~((1ull << 29) - 1)) | (1ull << 28);
        const std::uint64_t bits = (rng() & 1ull) << 63 | std::uint64_t(e + 1023) << 52 | frac;
        double v;
        std::memcpy(&v, &bits, 8);
        for (int k = 0; k < 4; ++k) {
            std::fesetround(host_modes[k]);
            std::feclearexcept(FE_ALL_EXCEPT);
            volatile double vv = v;
            volatile float hf = static_cast<float>(vv);
            const int hx = std::fetestexcept(FE_ALL_EXCEPT);
            std::fesetround(FE_TONEAREST);
            u32 want;
            const float hfv = hf;
            std::memcpy(&want, &hfv, 4);
            u32 want_flags = 0;
            if (hx & FE_INEXACT) want_flags |= NX;
            if (hx & FE_UNDERFLOW) want_flags |= UF;
            if (hx & FE_OVERFLOW) want_flags |= OF;
            u32 flags = 0;
            const u32 got = cpu::fpu::round_to_f32(v, false, modes[k], flags);
            ASSERT_EQ(got, want) << mode_names[k] << " " << std::hexfloat << v;
            ASSERT_EQ(flags, want_flags) << mode_names[k] << " " << std::hexfloat << v;
        }
    }
}

// The RNE path without MXCSR writes (fpu.cpp) against the MXCSR path, which
// the hand-derived cases above check: the same value and flags for every
// operand, whichever path takes it. Operands: random bit patterns (every
// class), sums that cancel, products and sums near FLT_MIN and FLT_MAX, and
// fma addends far below the product (its rounded-to-odd branch).
TEST(Fpu, RneFastPathMatchesTheMxcsrPath) {
    namespace fpu = cpu::fpu;
    fpu::set_rne_fast_path(true);
    ASSERT_TRUE(fpu::rne_fast_path()) << "the host's MXCSR is not the IEEE default: nothing to compare";
    std::mt19937_64 rng(2026);
    auto any = [&] { return static_cast<u32>(rng()); };
    // Sign, exponent and fraction chosen: exponent bits in [lo, hi].
    auto with_exp = [&](unsigned lo, unsigned hi) {
        const u32 e = lo + static_cast<u32>(rng() % (hi - lo + 1));
        return static_cast<u32>(rng() & 0x807fffffu) | (e << 23);
    };
    auto near = [&](u32 x) {  // x's neighbour a few ulps away, either sign
        return (x + static_cast<u32>(rng() % 7) - 3u) ^ (rng() & 1 ? 0x80000000u : 0u);
    };
    struct outcome {
        u32 add, sub, mul, fma, fadd, fsub, fmul, ffma;
    };
    auto run = [](u32 a, u32 b, u32 c) {
        outcome o{};
        o.add = fpu::add(a, b, rne, o.fadd);
        o.sub = fpu::sub(a, b, rne, o.fsub);
        o.mul = fpu::mul(a, b, rne, o.fmul);
        o.fma = fpu::fma(a, b, c, rne, o.ffma);
        return o;
    };
    std::uint64_t cases = 0;
    for (int i = 0; i < 400000; ++i) {
        u32 a, b, c;
        switch (i % 6) {
        case 0: a = any(), b = any(), c = any(); break;
        case 1: a = with_exp(1, 254), b = near(a), c = with_exp(1, 254); break;  // cancellation
        case 2: a = with_exp(1, 70), b = with_exp(1, 70), c = with_exp(0, 30); break;  // products near FLT_MIN
        case 3: a = with_exp(180, 254), b = with_exp(180, 254), c = with_exp(200, 254); break;  // near FLT_MAX
        case 4: a = with_exp(100, 150), b = with_exp(100, 150), c = with_exp(40, 100); break;  // c far below a*b
        default: {
            a = with_exp(110, 140), b = with_exp(110, 140);
            const float p = [&] { float x, y; std::memcpy(&x, &a, 4); std::memcpy(&y, &b, 4); return -(x * y); }();
            std::memcpy(&c, &p, 4);
            c = near(c) | (c & 0x80000000u);  // fma cancels to a few ulps of a*b
            break;
        }
        }
        fpu::set_rne_fast_path(true);
        const outcome fast = run(a, b, c);
        fpu::set_rne_fast_path(false);
        const outcome slow = run(a, b, c);
        ASSERT_EQ(fast.add, slow.add) << std::hex << a << " + " << b;
        ASSERT_EQ(fast.fadd, slow.fadd) << std::hex << a << " + " << b;
        ASSERT_EQ(fast.sub, slow.sub) << std::hex << a << " - " << b;
        ASSERT_EQ(fast.fsub, slow.fsub) << std::hex << a << " - " << b;
        ASSERT_EQ(fast.mul, slow.mul) << std::hex << a << " * " << b;
        ASSERT_EQ(fast.fmul, slow.fmul) << std::hex << a << " * " << b;
        ASSERT_EQ(fast.fma, slow.fma) << std::hex << a << " * " << b << " + " << c;
        ASSERT_EQ(fast.ffma, slow.ffma) << std::hex << a << " * " << b << " + " << c;
        ++cases;
    }
    // Directed: the cases where a fast path's shortcut would go wrong.
    // fma onto a float midpoint: 3 * (1 + 2^-23) = (3 + 2^-22) + 2^-23, the
    // midpoint of two floats; an addend of -+2^-60 decides the rounding (a
    // binary64 sum that is not exact, rounded to odd on the right side).
    const u32 m3 = 0x40400000u, one_ulp = 0x3f800001u, tiny = 0x21800000u;  // 2^-60
    // fmul whose result rounds up to FLT_MIN but is tiny after rounding
    // ((1 - 2^-24) * 2^-126: UF and NX), and one just above it.
    const u32 below_one = 0x3f7fffffu, flt_min = 0x00800000u;
    struct vec {
        u32 a, b, c;
    } directed[] = {{m3, one_ulp, tiny},          {m3, one_ulp, tiny | 0x80000000u},
                    {m3 | 0x80000000u, one_ulp, tiny}, {below_one, flt_min, 0},
                    {below_one, flt_min | 0x80000000u, flt_min}, {0x3f800001u, flt_min, 0},
                    {0x7f7fffffu, 0x3f800001u, 0}, {0x7f7fffffu, 0x7f7fffffu, 0x80000000u},
                    // exact zeros and their signs; an underflow to zero
                    {0, 0x80000000u, 0x80000000u}, {0x80000000u, 0x80000000u, 0x80000000u},
                    {0x80000000u, 0, 0}, {one, 0x80000000u, 0x80000000u}, {one, one | 0x80000000u, one},
                    {0x80000000u, two, 0}, {0x00000001u, 0x00000001u, 0x80000000u},
                    {0x00800000u, 0x00800000u, 0x80000000u}};
    u32 flags_seen = 0;
    for (const vec& v : directed) {
        fpu::set_rne_fast_path(true);
        const outcome fast = run(v.a, v.b, v.c);
        fpu::set_rne_fast_path(false);
        const outcome slow = run(v.a, v.b, v.c);
        EXPECT_EQ(fast.mul, slow.mul) << std::hex << v.a << " * " << v.b;
        EXPECT_EQ(fast.fmul, slow.fmul) << std::hex << v.a << " * " << v.b;
        EXPECT_EQ(fast.fma, slow.fma) << std::hex << v.a << " * " << v.b << " + " << v.c;
        EXPECT_EQ(fast.ffma, slow.ffma) << std::hex << v.a << " * " << v.b << " + " << v.c;
        flags_seen |= slow.fmul | slow.ffma;
    }
    // The directed fma's two signs round apart (3 + 2^-22 and 3 + 2^-21).
    fpu::set_rne_fast_path(true);
    u32 f1 = 0, f2 = 0;
    EXPECT_EQ(fpu::fma(m3, one_ulp, tiny | 0x80000000u, rne, f1), 0x40400001u);
    EXPECT_EQ(fpu::fma(m3, one_ulp, tiny, rne, f2), 0x40400002u);
    EXPECT_EQ(flags_seen & (UF | OF | NX), UF | OF | NX);
    EXPECT_EQ(cases, 400000u);
}

