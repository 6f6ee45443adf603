// Exact RISC-V single precision; design notes in fpu.h.
#include "fpu.h"

#include <xmmintrin.h>

#include <cmath>
#include <cstring>

namespace npu::cpu::fpu {

namespace {

// Same-size bit reinterpretation (std::bit_cast is C++20).
template <class To, class From>
To bits_as(From v) {
    static_assert(sizeof(To) == sizeof(From), "bit cast between different sizes");
    To r;
    std::memcpy(&r, &v, sizeof r);
    return r;
}
float as_f(std::uint32_t b) { return bits_as<float>(b); }
std::uint32_t as_u(float f) { return bits_as<std::uint32_t>(f); }
double as_d(std::uint64_t b) { return bits_as<double>(b); }
std::uint64_t as_u64(double d) { return bits_as<std::uint64_t>(d); }

// MXCSR rounding control for a RISC-V mode (RMM handled separately).
unsigned mx_rc(unsigned rm) {
    switch (rm) {
    case rtz: return 0x6000;
    case rdn: return 0x2000;
    case rup: return 0x4000;
    default: return 0;
    }
}

// x86 exception bits -> fflags (the denormal-operand bit has no RISC-V twin).
std::uint32_t from_mx(unsigned s) {
    std::uint32_t f = 0;
    if (s & 0x01) f |= nv;
    if (s & 0x04) f |= dz;
    if (s & 0x08) f |= of;
    if (s & 0x10) f |= uf;
    if (s & 0x20) f |= nx;
    return f;
}

// Runs `op` with the host in rounding mode `rc` and the exception bits
// cleared, returns the raised fflags. The empty asm statements pin the
// operands and the result between the MXCSR writes: without them the
// compiler could move the arithmetic across _mm_setcsr.
// The operation runs with every exception masked, FTZ and DAZ off (IEEE
// subnormals whatever the host process set) and the given rounding.
constexpr unsigned mx_ieee = 0x1f80;
struct host_scope {
    unsigned saved;
    explicit host_scope(unsigned rc) : saved(_mm_getcsr()) { _mm_setcsr(mx_ieee | rc); }
    std::uint32_t finish() {
        const unsigned s = _mm_getcsr();
        _mm_setcsr(saved);
        return from_mx(s);
    }
};

template <typename T>
inline void pin(T& v) {
    asm volatile("" : "+x"(v));
}

std::uint32_t nan_fix(std::uint32_t r) { return is_nan(r) ? canonical_nan : r; }

enum class bop { add, sub, mul, div };

std::uint32_t host_binary(bop o, std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags) {
    float x = as_f(a), y = as_f(b), r;
    host_scope s(mx_rc(rm));
    pin(x);
    pin(y);
    switch (o) {
    case bop::add: r = x + y; break;
    case bop::sub: r = x - y; break;
    case bop::mul: r = x * y; break;
    default: r = x / y; break;
    }
    pin(r);
    flags |= s.finish();
    return nan_fix(as_u(r));
}

// binary64 result of `op` on exact inputs, rounded to odd: computed toward
// zero, the last bit forced to 1 when inexact. 53 >= 24 + 2 bits makes the
// following rounding to binary32 equal to a single rounding of the exact value.
struct odd_result {
    double v;
    bool sticky;
    std::uint32_t flags;  // NV / DZ of the binary64 operation
};

template <typename F>
odd_result to_odd(F op) {
    host_scope s(0x6000);
    double r = op();
    pin(r);
    const unsigned mx = _mm_getcsr();
    _mm_setcsr(s.saved);
    odd_result o{r, (mx & 0x20) != 0, from_mx(mx) & (nv | dz)};
    if (o.sticky && std::isfinite(r)) o.v = as_d(as_u64(r) | 1);
    return o;
}

std::uint32_t finish_rmm(const odd_result& o, std::uint32_t& flags) {
    flags |= o.flags;
    if (std::isnan(o.v)) return canonical_nan;
    if (std::isinf(o.v)) return o.v < 0 ? 0xff800000u : 0x7f800000u;
    return round_to_f32(o.v, o.sticky, rmm, flags);
}

// NaN inputs never reach the binary64 path's rounding: they produce the
// canonical NaN and NV when signalling, like the host path.
bool nan_in(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (!is_nan(a) && !is_nan(b)) return false;
    if (is_snan(a) || is_snan(b)) flags |= nv;
    return true;
}

}  // namespace

std::uint32_t round_to_f32(double v, bool sticky, unsigned rm, std::uint32_t& flags) {
    const std::uint64_t bits = as_u64(v);
    const std::uint32_t sign = static_cast<std::uint32_t>(bits >> 63) << 31;
    const int bexp = static_cast<int>((bits >> 52) & 0x7ff);
    std::uint64_t m = bits & ((1ull << 52) - 1);
    if (bexp == 0 && m == 0) {
        if (sticky) flags |= nx | uf;  // cannot happen for round-to-odd values; kept total
        return sign;
    }
    int e;  // value = m * 2^(e - 52), m has 53 significant bits
    if (bexp == 0) {
        // binary64 subnormals are far below binary32's range: normalise anyway.
        e = -1022;
        while (!(m & (1ull << 52))) {
            m <<= 1;
            --e;
        }
    } else {
        m |= 1ull << 52;
        e = bexp - 1023;
    }
    const bool neg = sign != 0;
    // Whether to round a magnitude up, from the dropped bits.
    auto round_up = [&](std::uint64_t kept, std::uint64_t rem, std::uint64_t half, bool rem_sticky) {
        const bool above = rem > half || (rem == half && rem_sticky);
        const bool exact_half = rem == half && !rem_sticky;
        const bool any = rem != 0 || rem_sticky;
        switch (rm) {
        case rne: return above || (exact_half && (kept & 1));
        case rmm: return above || exact_half;
        case rtz: return false;
        case rdn: return any && neg;
        default: return any && !neg;  // rup
        }
    };
    // Splits m at `shift` bits (shift >= 1) into kept, remainder, half.
    auto split = [&](int shift, std::uint64_t& kept, std::uint64_t& rem, std::uint64_t& half) {
        if (shift >= 60) {
            kept = 0;
            rem = 1;  // nonzero but below half: m < 2^53 <= half
            half = 2;
            return;
        }
        kept = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    };
    std::uint64_t kept, rem, half;
    // Tininess after rounding: round as if the exponent range were unbounded.
    bool tiny = e < -126;
    if (e == -127) {
        split(29, kept, rem, half);
        if (kept + round_up(kept, rem, half, sticky) == (1ull << 24)) tiny = false;
    }
    const int shift = e >= -126 ? 29 : 29 + (-126 - e);
    split(shift, kept, rem, half);
    const bool inexact = rem != 0 || sticky;
    kept += round_up(kept, rem, half, sticky);
    int exp_field;
    if (e >= -126) {
        if (kept == (1ull << 24)) {
            kept >>= 1;
            ++e;
        }
        exp_field = e + 127;
    } else {
        // Subnormal encoding; a carry into bit 23 yields the smallest normal.
        exp_field = 0;
    }
    if (inexact) flags |= nx;
    if (tiny && inexact) flags |= uf;
    if (exp_field >= 255) {
        flags |= of | nx;
        const bool to_inf = rm == rne || rm == rmm || (rm == rup && !neg) || (rm == rdn && neg);
        return sign | (to_inf ? 0x7f800000u : 0x7f7fffffu);
    }
    if (exp_field == 0) return sign | static_cast<std::uint32_t>(kept);
    return sign | (static_cast<std::uint32_t>(exp_field) << 23) | (static_cast<std::uint32_t>(kept) & 0x7fffff);
}

namespace {
// RMM for a binary op the host has no mode for: compute in double with
// round-to-odd, then round the result to float with ties away from zero.
template <class Op>
std::uint32_t rmm_binary(std::uint32_t a, std::uint32_t b, std::uint32_t& flags, Op op) {
    if (nan_in(a, b, flags)) return canonical_nan;
    const double x = as_f(a), y = as_f(b);
    return finish_rmm(to_odd([&] {
                          double xx = x, yy = y;
                          pin(xx);
                          pin(yy);
                          return op(xx, yy);
                      }),
                      flags);
}
// --- RNE without touching MXCSR ------------------------------------------------
// The common case -- round to nearest even, finite operands, a normal result
// -- computed in binary64 with the host's own rounding (RNE), with no MXCSR
// write: each host_scope is two LDMXCSR, microcoded and serialising on the
// host (the four operations through it were about 13 % of a DS-CNN training
// run's host time). Exact because:
//  - a binary32 product is exact in binary64 (24 + 24 bits <= 53);
//  - a sum's binary64 rounding error is known exactly (TwoSum): when it is
//    zero, the binary64 value is the exact value, and its conversion to
//    binary32 is the single RNE rounding; when it is not, the exact value
//    rounded to odd in binary64 (truncated, last bit set) is, rounded to
//    binary32, the exact value rounded once (53 >= 24 + 2 bits);
//  - a result whose magnitude is above FLT_MIN is not tiny after rounding
//    (RISC-V's rule), and a finite one did not overflow: the only flag is NX,
//    raised when the binary32 result differs from the exact value.
// An exact zero (an operand zero, or a sum that cancels) is the host's too:
// binary64 gives it the sign IEEE RNE does (-0 only from -0 + -0), and it
// raises nothing. Anything else (a NaN or an infinity in, an infinity,
// FLT_MIN, a subnormal or an underflow to zero out) takes the MXCSR path,
// whose flags cover every case. Valid
// only while the host runs binary64 arithmetic in RNE with FTZ and DAZ off,
// as a process starts (and as host_scope leaves it): checked once
// (fast_rne_ok), tests compare the two paths (fpu::set_rne_fast_path).
bool host_runs_ieee_rne() { return (_mm_getcsr() & 0xffc0u) == mx_ieee; }
bool fast_rne_ok = host_runs_ieee_rne();

bool finite32(std::uint32_t a) { return (a & 0x7f800000u) != 0x7f800000u; }
// Normal, above FLT_MIN in magnitude, finite.
bool plain_result(std::uint32_t r) {
    const std::uint32_t m = r & 0x7fffffffu;
    return m > 0x00800000u && m < 0x7f800000u;
}

// v, the exact value or the exact value rounded to odd, to binary32: false
// if the result is neither plain nor an exact zero.
bool rne_finish(double v, std::uint32_t& out, std::uint32_t& flags) {
    const float r = static_cast<float>(v);
    const std::uint32_t ru = as_u(r);
    if (!plain_result(ru) && v != 0) return false;
    // (A rounded-to-odd v has its last bit set: never a binary32 value.)
    if (static_cast<double>(r) != v) flags |= nx;
    out = ru;
    return true;
}

// The exact x + y, as s + e (Knuth's TwoSum, for any order of magnitude; no
// FMA contraction in this file, CMakeLists.txt), rounded to binary32: false
// if the result is neither plain nor an exact zero.
bool rne_sum(double x, double y, std::uint32_t& out, std::uint32_t& flags) {
    const double s = x + y;
    const double yv = s - x;
    const double e = (x - (s - yv)) + (y - yv);
    double v = s;
    if (e != 0) {
        // Rounded to odd: truncate toward zero (one ulp down when the error
        // points to zero), then set the last bit.
        std::uint64_t bits = as_u64(s);
        if ((e < 0) != (s < 0)) --bits;
        v = as_d(bits | 1);
    }
    return rne_finish(v, out, flags);
}

bool rne_add(std::uint32_t a, std::uint32_t b, std::uint32_t& out, std::uint32_t& flags) {
    if (!fast_rne_ok || !finite32(a) || !finite32(b)) return false;
    return rne_sum(as_f(a), as_f(b), out, flags);
}

bool rne_mul(std::uint32_t a, std::uint32_t b, std::uint32_t& out, std::uint32_t& flags) {
    if (!fast_rne_ok || !finite32(a) || !finite32(b)) return false;
    return rne_finish(static_cast<double>(as_f(a)) * static_cast<double>(as_f(b)), out, flags);  // exact product
}

bool rne_fma(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t& out, std::uint32_t& flags) {
    if (!fast_rne_ok || !finite32(a) || !finite32(b) || !finite32(c)) return false;
    const double p = static_cast<double>(as_f(a)) * static_cast<double>(as_f(b));  // exact
    return rne_sum(p, as_f(c), out, flags);
}

}  // namespace

void set_rne_fast_path(bool on) { fast_rne_ok = on && host_runs_ieee_rne(); }
bool rne_fast_path() { return fast_rne_ok; }

std::uint32_t add(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags) {
    std::uint32_t r;
    if (rm == rne && rne_add(a, b, r, flags)) return r;
    if (rm != rmm) return host_binary(bop::add, a, b, rm, flags);
    // An exact zero sum is +0 in RMM like in RNE (only RDN gives -0).
    return rmm_binary(a, b, flags, [](double x, double y) { return x + y; });
}

std::uint32_t sub(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags) {
    std::uint32_t r;
    if (rm == rne && rne_add(a, b ^ 0x80000000u, r, flags)) return r;
    if (rm != rmm) return host_binary(bop::sub, a, b, rm, flags);
    if (nan_in(a, b, flags)) return canonical_nan;
    return add(a, b ^ 0x80000000u, rm, flags);
}

std::uint32_t mul(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags) {
    std::uint32_t r;
    if (rm == rne && rne_mul(a, b, r, flags)) return r;
    if (rm != rmm) return host_binary(bop::mul, a, b, rm, flags);
    return rmm_binary(a, b, flags, [](double x, double y) { return x * y; });
}

std::uint32_t div(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags) {
    if (rm != rmm) return host_binary(bop::div, a, b, rm, flags);
    return rmm_binary(a, b, flags, [](double x, double y) { return x / y; });
}

std::uint32_t sqrt(std::uint32_t a, unsigned rm, std::uint32_t& flags) {
    if (rm != rmm) {
        float x = as_f(a), r;
        host_scope s(mx_rc(rm));
        pin(x);
        r = _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)));
        pin(r);
        flags |= s.finish();
        return nan_fix(as_u(r));
    }
    if (nan_in(a, a, flags)) return canonical_nan;
    const double x = as_f(a);
    return finish_rmm(to_odd([&] {
                          double xx = x;
                          pin(xx);
                          return std::sqrt(xx);
                      }),
                      flags);
}

std::uint32_t fma(std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned rm, std::uint32_t& flags) {
    // inf*0 is invalid even when c is a quiet NaN (RISC-V, unlike IEEE's optional rule).
    const bool inf_times_zero = ((a & 0x7fffffffu) == 0x7f800000u && (b & 0x7fffffffu) == 0) ||
                                ((b & 0x7fffffffu) == 0x7f800000u && (a & 0x7fffffffu) == 0);
    if (is_nan(a) || is_nan(b) || is_nan(c)) {
        if (is_snan(a) || is_snan(b) || is_snan(c) || inf_times_zero) flags |= nv;
        return canonical_nan;
    }
    std::uint32_t fast;
    if (rm == rne && rne_fma(a, b, c, fast, flags)) return fast;
    if (rm != rmm) {
        float x = as_f(a), y = as_f(b), z = as_f(c), r;
        host_scope s(mx_rc(rm));
        pin(x);
        pin(y);
        pin(z);
        r = std::fmaf(x, y, z);
        pin(r);
        flags |= s.finish();
        return nan_fix(as_u(r));
    }
    // The binary64 product of two binary32 values is exact; the sum rounded
    // to odd is then one rounding of the exact a*b+c.
    const double x = as_f(a), y = as_f(b), z = as_f(c);
    const double p = x * y;
    const odd_result o = to_odd([&] {
        double pp = p, zz = z;
        pin(pp);
        pin(zz);
        return pp + zz;
    });
    // An exact zero from cancellation is +0 (-0 only when both addends are -0).
    if (o.v == 0 && !o.sticky && !std::isnan(o.v)) {
        flags |= o.flags;
        return (std::signbit(p) && std::signbit(z)) ? 0x80000000u : 0;
    }
    return finish_rmm(o, flags);
}

std::uint32_t min(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_snan(a) || is_snan(b)) flags |= nv;
    if (is_nan(a) && is_nan(b)) return canonical_nan;
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    if ((a | b) == 0x80000000u) return 0x80000000u;  // -0 < +0
    return as_f(a) < as_f(b) ? a : b;
}

std::uint32_t max(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_snan(a) || is_snan(b)) flags |= nv;
    if (is_nan(a) && is_nan(b)) return canonical_nan;
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    if ((a | b) == 0x80000000u) return (a & b);  // +0 unless both are -0
    return as_f(a) > as_f(b) ? a : b;
}

std::uint32_t eq(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
        if (is_snan(a) || is_snan(b)) flags |= nv;  // quiet comparison
        return 0;
    }
    return as_f(a) == as_f(b);
}

std::uint32_t lt(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
        flags |= nv;  // signalling comparison
        return 0;
    }
    return as_f(a) < as_f(b);
}

std::uint32_t le(std::uint32_t a, std::uint32_t b, std::uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
        flags |= nv;
        return 0;
    }
    return as_f(a) <= as_f(b);
}

std::uint32_t classify(std::uint32_t a) {
    const bool neg = a >> 31;
    const std::uint32_t e = (a >> 23) & 0xff, m = a & 0x7fffff;
    if (e == 0xff) {
        if (m == 0) return neg ? 1u << 0 : 1u << 7;
        return (m & 0x400000) ? 1u << 9 : 1u << 8;
    }
    if (e == 0) {
        if (m == 0) return neg ? 1u << 3 : 1u << 4;
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

namespace {

// |a| rounded to an integer per rm (sign applied by the caller for RDN/RUP):
// returns false when |a| >= 2^32 (surely out of range for both conversions).
bool round_magnitude(std::uint32_t a, unsigned rm, std::uint64_t& out, bool& inexact) {
    const bool neg = a >> 31;
    const int e = static_cast<int>((a >> 23) & 0xff);
    std::uint64_t m = a & 0x7fffff;
    if (e == 0 && m == 0) {
        out = 0;
        inexact = false;
        return true;
    }
    int exp2;
    if (e == 0) {
        exp2 = -126 - 23;
    } else {
        m |= 0x800000;
        exp2 = e - 127 - 23;
    }
    if (exp2 >= 0) {
        if (e - 127 >= 32) return false;
        out = m << exp2;
        inexact = false;
        return true;
    }
    const int shift = -exp2;
    std::uint64_t kept, rem, half;
    if (shift >= 40) {
        kept = 0;
        rem = 1;
        half = 2;
    } else {
        kept = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    }
    inexact = rem != 0;
    bool up;
    switch (rm) {
    case rne: up = rem > half || (rem == half && (kept & 1)); break;
    case rmm: up = rem >= half; break;
    case rtz: up = false; break;
    case rdn: up = rem != 0 && neg; break;
    default: up = rem != 0 && !neg; break;
    }
    out = kept + up;
    return true;
}

}  // namespace

std::uint32_t cvt_w_s(std::uint32_t a, unsigned rm, std::uint32_t& flags) {
    const bool neg = a >> 31;
    if (is_nan(a)) {
        flags |= nv;
        return 0x7fffffffu;
    }
    std::uint64_t mag;
    bool inexact;
    if (!round_magnitude(a, rm, mag, inexact) || (!neg && mag > 0x7fffffffu) || (neg && mag > 0x80000000u)) {
        flags |= nv;  // invalid: NX is not raised
        return neg ? 0x80000000u : 0x7fffffffu;
    }
    if (inexact) flags |= nx;
    return neg ? static_cast<std::uint32_t>(-static_cast<std::int64_t>(mag)) : static_cast<std::uint32_t>(mag);
}

std::uint32_t cvt_wu_s(std::uint32_t a, unsigned rm, std::uint32_t& flags) {
    const bool neg = a >> 31;
    if (is_nan(a)) {
        flags |= nv;
        return 0xffffffffu;
    }
    std::uint64_t mag;
    bool inexact;
    if (!round_magnitude(a, rm, mag, inexact) || (!neg && mag > 0xffffffffu) || (neg && mag != 0)) {
        flags |= nv;
        return neg ? 0 : 0xffffffffu;
    }
    if (inexact) flags |= nx;
    return static_cast<std::uint32_t>(mag);
}

std::uint32_t cvt_s_w(std::uint32_t v, unsigned rm, std::uint32_t& flags) {
    const std::int32_t i = static_cast<std::int32_t>(v);
    if (rm == rmm) return round_to_f32(static_cast<double>(i), false, rm, flags);  // int32 is exact in binary64
    host_scope s(mx_rc(rm));
    std::int32_t ii = i;
    asm volatile("" : "+r"(ii));
    float r = static_cast<float>(ii);
    pin(r);
    flags |= s.finish();
    return as_u(r);
}

std::uint32_t cvt_s_wu(std::uint32_t v, unsigned rm, std::uint32_t& flags) {
    if (rm == rmm) return round_to_f32(static_cast<double>(v), false, rm, flags);
    host_scope s(mx_rc(rm));
    std::int64_t ii = v;  // the 64-bit signed conversion rounds an unsigned 32-bit value once
    asm volatile("" : "+r"(ii));
    float r = static_cast<float>(ii);
    pin(r);
    flags |= s.finish();
    return as_u(r);
}

}  // namespace npu::cpu::fpu
