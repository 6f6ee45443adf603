// CORE-V xcvalu / xcvmac arithmetic (see cv_ops.h for the sources).
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

}  // namespace

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
