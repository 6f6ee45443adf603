// CORE-V xcvalu / xcvmac / xcvbitmanip arithmetic (see cv_ops.h for the sources).
#include "cv_ops.h"

namespace npu::cpu {

namespace {

std::int32_t s32(std::uint32_t v) { return static_cast<std::int32_t>(v); }
std::uint32_t u32(std::int64_t v) { return static_cast<std::uint32_t>(v); }

// 2^(n-1), and 0 for n = 0: the manual's rounding term.
std::uint32_t round_term(std::uint32_t n) { return n ? 1u << (n - 1) : 0u; }

// Shift right by n (0..31), arithmetic or logical.
std::uint32_t shr(std::uint32_t v, std::uint32_t n, bool logical) {
    return logical ? v >> n : static_cast<std::uint32_t>(s32(v) >> n);
}

// Clamps the signed value v to [lo, hi].
std::uint32_t clamp(std::int32_t v, std::int64_t lo, std::int64_t hi) {
    if (v <= lo) return u32(lo);
    if (v >= hi) return u32(hi);
    return static_cast<std::uint32_t>(v);
}

// The low n bits (n = 0..32).
std::uint32_t low_mask(std::uint32_t n) { return n >= 32 ? ~0u : (1u << n) - 1; }

// cv.bitrev: drop the top `skip` bits, then reverse the order of the groups
// of g bits taken from the top (the manual's examples: for g = 3 the ten
// groups of bits 31:2 land in bits 29:0, bits 31:30 are 0).
std::uint32_t bit_reverse(std::uint32_t v, unsigned g, unsigned skip) {
    v <<= skip;
    std::uint32_t out = 0;
    for (unsigned k = 0; k < 32 / g; ++k) out |= ((v >> (32 - (k + 1) * g)) & low_mask(g)) << (k * g);
    return out;
}

}  // namespace

std::uint32_t cv_bit_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm) {
    switch (fn) {
    case cv_ror: return (a >> (b & 31)) | (a << ((32 - (b & 31)) & 31));
    case cv_ff1: return a ? static_cast<std::uint32_t>(__builtin_ctz(a)) : 32;
    case cv_fl1: return a ? 31 - static_cast<std::uint32_t>(__builtin_clz(a)) : 32;
    // Leading bits equal to bit 31, minus one; 0 for 0.
    case cv_clb: {
        if (a == 0) return 0;
        const std::uint32_t v = s32(a) < 0 ? ~a : a;
        return (v ? static_cast<std::uint32_t>(__builtin_clz(v)) : 32) - 1;
    }
    case cv_cnt: return static_cast<std::uint32_t>(__builtin_popcount(a));
    case cv_bitrev: return bit_reverse(a, (imm >> 5) == 3 ? 1 : (imm >> 5) + 1, imm & 31);
    default: break;
    }
    // The field: Is3 + 1 bits at bit Is2, up to bit 31.
    const std::uint32_t spec = fn >= cv_extractr ? b : imm;
    const std::uint32_t pos = spec & 31, top = (spec >> 5 & 31) + pos;
    const std::uint32_t len = (top > 31 ? 31 : top) - pos + 1;
    const std::uint32_t field = low_mask(len) << pos;
    switch (fn) {
    case cv_extract:
    case cv_extractr: {
        const std::uint32_t v = (a >> pos) & low_mask(len), sign = 1u << (len - 1);
        return (v ^ sign) - sign;
    }
    case cv_extractu:
    case cv_extractur: return (a >> pos) & low_mask(len);
    case cv_insert:
    case cv_insertr: return (d & ~field) | ((a << pos) & field);
    case cv_bclr:
    case cv_bclrr: return a & ~field;
    default: return a | field;  // cv_bset, cv_bsetr
    }
}

std::uint32_t cv_alu_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm) {
    switch (fn) {
    case cv_abs: return s32(a) < 0 ? 0u - a : a;
    case cv_slet: return s32(a) <= s32(b);
    case cv_sletu: return a <= b;
    case cv_min: return s32(a) < s32(b) ? a : b;
    case cv_minu: return a < b ? a : b;
    case cv_max: return s32(a) < s32(b) ? b : a;
    case cv_maxu: return a < b ? b : a;
    case cv_exths: return u32(static_cast<std::int16_t>(a));
    case cv_exthz: return a & 0xffffu;
    case cv_extbs: return u32(static_cast<std::int8_t>(a));
    case cv_extbz: return a & 0xffu;
    // The manual: with Is2 = 0 the bounds are -1 and 0.
    case cv_clip:
        return imm ? clamp(s32(a), -(std::int64_t(1) << (imm - 1)), (std::int64_t(1) << (imm - 1)) - 1)
                   : clamp(s32(a), -1, 0);
    case cv_clipu: return clamp(s32(a), 0, imm ? (std::int64_t(1) << (imm - 1)) - 1 : 0);
    case cv_clipr: return clamp(s32(a), -std::int64_t(s32(b)) - 1, s32(b));
    case cv_clipur: return clamp(s32(a), 0, s32(b));
    default: break;
    }
    if (fn >= cv_addn && fn <= cv_suburn) {
        const unsigned k = fn - cv_addn;
        const std::uint32_t sum = (k & 4 ? a - b : a + b) + (k & 2 ? round_term(imm) : 0);
        return shr(sum, imm, k & 1);
    }
    const unsigned k = fn - cv_addnr;  // cv_addnr .. cv_suburnr
    const std::uint32_t n = b & 31;
    const std::uint32_t sum = (k & 4 ? d - a : d + a) + (k & 2 ? round_term(n) : 0);
    return shr(sum, n, k & 1);
}

std::uint32_t cv_mac_op(unsigned fn, std::uint32_t a, std::uint32_t b, std::uint32_t d, std::uint32_t imm) {
    if (fn == cv_mac) return d + a * b;
    if (fn == cv_msu) return d - a * b;
    const unsigned k = fn - cv_mulsn;
    const bool high = k & 1, rnd = k & 2, unsig = k & 4, acc = k & 8;
    const std::uint32_t x = high ? a >> 16 : a & 0xffff, y = high ? b >> 16 : b & 0xffff;
    const std::uint32_t prod = unsig ? x * y
                                     : static_cast<std::uint32_t>(std::int32_t(static_cast<std::int16_t>(x)) *
                                                                  std::int32_t(static_cast<std::int16_t>(y)));
    const std::uint32_t sum = prod + (acc ? d : 0) + (rnd ? round_term(imm) : 0);
    return shr(sum, imm, unsig);
}

}  // namespace npu::cpu
