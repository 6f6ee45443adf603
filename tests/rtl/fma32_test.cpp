// The RTL array's fp32 cell operation (rtl/sa/sa_pkg.sv fma32, Verilated
// alone as sa_fma32) against the host's fmaf in round-to-nearest-even: bit
// for bit on random operands weighted towards the hard cases (subnormals,
// infinities, NaN, signed zeros, exponents that overflow or underflow, near
// cancellation), NaN results compared as the canonical NaN.
#include "Vsa_fma32.h"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

namespace {

std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float flt(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

std::uint32_t reference(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    const float r = std::fmaf(flt(a), flt(b), flt(c));
    return std::isnan(r) ? 0x7fc00000u : bits(r);
}

struct fma_model {
    Vsa_fma32 top;
    std::uint32_t operator()(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        top.a = a;
        top.b = b;
        top.c = c;
        top.eval();
        return top.d;
    }
};

TEST(RtlFma32, SpecialValues) {
    std::fesetround(FE_TONEAREST);
    fma_model fma;
    const std::uint32_t v[] = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
                               0x7f800001, 0xffc00001, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff,
                               0xff7fffff, 0x33800000, 0x4b800000, 0x34000000, 0x3f800001, 0x5f800000, 0x1f800000};
    for (auto a : v)
        for (auto b : v)
            for (auto c : v)
                ASSERT_EQ(fma(a, b, c), reference(a, b, c)) << std::hex << "a=" << a << " b=" << b << " c=" << c;
}

TEST(RtlFma32, RandomOperandsBitExact) {
    std::fesetround(FE_TONEAREST);
    fma_model fma;
    std::mt19937_64 rng(18);
    auto operand = [&] {
        std::uint32_t u = static_cast<std::uint32_t>(rng());
        switch (rng() % 8) {
        case 0: u &= 0x807fffffu; break;                                               // subnormal or zero
        case 1: u = (u & 0x80000000u) | 0x7f800000u | (rng() % 2 ? u & 0x7fffff : 0); break;  // inf or NaN
        case 2: u = (u & 0x8000000fu) | std::uint32_t(rng() % 3 + 126) << 23; break;   // near 1, few bits
        case 3: u = (u & 0x807fffffu) | std::uint32_t(rng() % 40 + 100) << 23; break;  // products that underflow
        default: break;
        }
        return u;
    };
    long bad = 0;
    for (long i = 0; i < 2000000; ++i) {
        const std::uint32_t a = operand(), b = operand();
        // One in four: an addend that (nearly) cancels the product.
        const std::uint32_t c = i % 4 == 0 ? bits(-(flt(a) * flt(b))) ^ std::uint32_t(rng() % 4) : operand();
        const std::uint32_t got = fma(a, b, c), want = reference(a, b, c);
        if (got != want && ++bad <= 10)
            ADD_FAILURE() << std::hex << "a=" << a << " b=" << b << " c=" << c << " rtl=" << got << " fmaf=" << want;
    }
    EXPECT_EQ(bad, 0);
}

}  // namespace
