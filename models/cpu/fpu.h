// Single-precision arithmetic exactly as the RISC-V F extension specifies it.
//
// Values are raw IEEE-754 binary32 bit patterns; every function ORs the
// exceptions it raises into `flags` (fflags bit layout). How exactness is
// obtained (see fpu.cpp for details):
//  - RNE/RTZ/RDN/RUP: the host SSE unit in the requested rounding mode, whose
//    binary32 results and flags are IEEE-754 exact (tininess after rounding,
//    as RISC-V requires); MXCSR is set and restored around each operation.
//    RNE add/sub/mul/fma whose result is normal or an exact zero skip the
//    MXCSR writes (exact binary64 arithmetic, fpu.cpp).
//  - RMM (no host support): the operation is computed in binary64 rounded to
//    odd (round toward zero + sticky inexact bit), which is exact enough for a
//    second rounding to 24 bits, then rounded by round_to_f32() below.
//  - conversions to integer, min/max, compares, classify, sign injection: plain
//    integer code following the spec tables.
//  - any NaN result is the canonical NaN 0x7fc00000.
#pragma once

#include <cstdint>

namespace npu::cpu::fpu {

enum flag : std::uint32_t { nx = 1, uf = 2, of = 4, dz = 8, nv = 16 };
enum rounding : unsigned { rne = 0, rtz = 1, rdn = 2, rup = 3, rmm = 4 };

inline constexpr std::uint32_t canonical_nan = 0x7fc00000u;

std::uint32_t add(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags);
std::uint32_t sub(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags);
std::uint32_t mul(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags);
std::uint32_t div(std::uint32_t a, std::uint32_t b, unsigned rm, std::uint32_t& flags);
std::uint32_t sqrt(std::uint32_t a, unsigned rm, std::uint32_t& flags);
// a*b + c with a single rounding; the fmsub/fnmadd/fnmsub forms are sign
// flips of the operands (exact, so flags and NaN rules are unchanged).
std::uint32_t fma(std::uint32_t a, std::uint32_t b, std::uint32_t c, unsigned rm, std::uint32_t& flags);

std::uint32_t min(std::uint32_t a, std::uint32_t b, std::uint32_t& flags);
std::uint32_t max(std::uint32_t a, std::uint32_t b, std::uint32_t& flags);
std::uint32_t eq(std::uint32_t a, std::uint32_t b, std::uint32_t& flags);
std::uint32_t lt(std::uint32_t a, std::uint32_t b, std::uint32_t& flags);
std::uint32_t le(std::uint32_t a, std::uint32_t b, std::uint32_t& flags);
std::uint32_t classify(std::uint32_t a);

std::uint32_t cvt_w_s(std::uint32_t a, unsigned rm, std::uint32_t& flags);   // -> int32 bits
std::uint32_t cvt_wu_s(std::uint32_t a, unsigned rm, std::uint32_t& flags);  // -> uint32
std::uint32_t cvt_s_w(std::uint32_t v, unsigned rm, std::uint32_t& flags);
std::uint32_t cvt_s_wu(std::uint32_t v, unsigned rm, std::uint32_t& flags);

// Rounds a finite binary64 value to binary32 with `rm`, raising NX/UF/OF with
// tininess detected after rounding. `sticky` says the binary64 value is
// itself inexact (rounded to odd): it then counts as inexact for the result.
std::uint32_t round_to_f32(double v, bool sticky, unsigned rm, std::uint32_t& flags);

// Tests: turns the RNE path without MXCSR writes (fpu.cpp) off, so that
// results can be compared with the MXCSR path; on again only where the host's
// MXCSR allows it.
void set_rne_fast_path(bool on);
bool rne_fast_path();

inline bool is_nan(std::uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }
inline bool is_snan(std::uint32_t a) { return is_nan(a) && !(a & 0x00400000u); }

}  // namespace npu::cpu::fpu
