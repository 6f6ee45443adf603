// The loosely-timed SA engine: the MACs and the closed-form cycle model.
#include "sa_engine.h"

#include "sa_regs.h"

#include "base/component.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif

namespace npu::accel {

namespace {

constexpr int operand_a = NPU_SA_ERR_OPERAND_A, operand_b = NPU_SA_ERR_OPERAND_B, operand_c = NPU_SA_ERR_OPERAND_C;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// --- the MACs of one weight tile -------------------------------------------------
//
// The host cost of a job is these loops. Each output row is held in chunks of
// `lanes` columns (the tile's columns padded with zero weights, never written
// out) whose inner loop over the columns has a fixed trip count, so the
// compiler vectorises it across columns while every output still gains its
// products k ascending: fp32 stays the documented fused order bit for bit.
// int8 is exact in any order (int32 sums wrap modulo 2^32, done in uint32):
// its weights are int16 pairs of consecutive rows, b[(p*cols + c)*2 + h] =
// B[2p + h][c], so one multiply-add of pairs (x86 vpmaddwd) takes two rows;
// a pair's two products sum to at most 2 * 128 * 128, exact in int32.
// A and fp32 weights are read in place from L1's host memory when a tile's
// rows lie in the job's DMI window (row pitches in bytes), else from copies.
constexpr std::size_t lanes = 16;

template <typename W>  // weights: float (fp32) or std::int16_t pairs (int8)
struct mac_tile {
    using acc_t = std::conditional_t<std::is_same_v<W, float>, float, std::uint32_t>;
    const unsigned char* a;  // A slice: m rows `a_pitch` bytes apart, k_t elements used: fp32, or int8
    std::size_t a_pitch;     // widened to int16 with a zero past an odd k_t (a pair is one 32-bit load)
    const unsigned char* b;  // weights: k_t rows (int8: ceil(k_t/2) pairs) of `cols` W, `b_pitch` bytes apart;
    std::size_t b_pitch;     // fp32 rows 4-byte aligned
    std::size_t cols;        // multiple of `lanes`
    std::size_t m, k_t;
    acc_t* acc;              // m rows of `cols` accumulators
    const W* weights(std::size_t row, std::size_t c0) const {
        return reinterpret_cast<const W*>(b + row * b_pitch) + c0 * (std::is_same_v<W, float> ? 1 : 2);
    }
};

// Rows i0 .. i0 + IB - 1 of the tile: IB output rows at once share each
// weight load and give the FMA/multiply-add units IB independent chains.
template <std::size_t IB, typename W>
[[gnu::always_inline]] inline void mac_rows(const mac_tile<W>& t, std::size_t i0) {
    using acc_t = typename mac_tile<W>::acc_t;
    for (std::size_t c0 = 0; c0 < t.cols; c0 += lanes) {
        acc_t v[IB][lanes];
        for (std::size_t q = 0; q < IB; ++q)
            for (std::size_t l = 0; l < lanes; ++l) v[q][l] = t.acc[(i0 + q) * t.cols + c0 + l];
        if constexpr (std::is_same_v<W, float>) {
            for (std::size_t r = 0; r < t.k_t; ++r) {
                const float* w = t.weights(r, c0);
                for (std::size_t q = 0; q < IB; ++q) {
                    float x;
                    std::memcpy(&x, &t.a[(i0 + q) * t.a_pitch + r * 4], 4);
                    for (std::size_t l = 0; l < lanes; ++l) v[q][l] = std::fmaf(x, w[l], v[q][l]);
                }
            }
        } else {
            for (std::size_t p = 0; p < (t.k_t + 1) / 2; ++p) {
                const std::int16_t* w = t.weights(p, c0);
                for (std::size_t q = 0; q < IB; ++q) {
                    const auto* arow = reinterpret_cast<const std::int16_t*>(&t.a[(i0 + q) * t.a_pitch]);
                    const std::int32_t x0 = arow[2 * p], x1 = arow[2 * p + 1];
                    for (std::size_t l = 0; l < lanes; ++l)
                        v[q][l] += static_cast<std::uint32_t>(x0 * w[2 * l] + x1 * w[2 * l + 1]);
                }
            }
        }
        for (std::size_t q = 0; q < IB; ++q)
            for (std::size_t l = 0; l < lanes; ++l) t.acc[(i0 + q) * t.cols + c0 + l] = v[q][l];
    }
}

constexpr std::size_t row_block = 4;

template <typename W>
[[gnu::always_inline]] inline void mac_tile_body(const mac_tile<W>& t) {
    std::size_t i = 0;
    for (; i + row_block <= t.m; i += row_block) mac_rows<row_block>(t, i);
    for (; i < t.m; ++i) mac_rows<1>(t, i);
}

// The baseline ISA has no fused multiply-add instruction (std::fmaf is then a
// library call per MAC): on x86-64 hosts with AVX2 and FMA the same loops run
// compiled for them (int8 with vpmaddwd), and with AVX-512 (F + BW) a chunk
// of 16 columns is one vector register; chosen once at start-up. All give
// identical results.
template <typename W>
void mac_tile_generic(const mac_tile<W>& t) {
    mac_tile_body(t);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
template <typename W>
[[gnu::target("avx2,fma")]] void mac_tile_avx2(const mac_tile<W>& t) {
    mac_tile_body(t);
}
// (A[i][2p], A[i][2p+1]) as one 32-bit value, for every lane of a vpmaddwd.
inline std::uint32_t a_pair(const mac_tile<std::int16_t>& t, std::size_t i, std::size_t p) {
    std::uint32_t pair;  // x86: little-endian, element 2p in the low half
    std::memcpy(&pair, &t.a[i * t.a_pitch + p * 4], 4);
    return pair;
}
template <std::size_t IB>
[[gnu::target("avx2,fma"), gnu::always_inline]] inline void mac_rows_i8_avx2(const mac_tile<std::int16_t>& t,
                                                                             std::size_t i0) {
    static_assert(lanes == 16, "two vectors of eight int32 accumulators per chunk");
    for (std::size_t c0 = 0; c0 < t.cols; c0 += lanes) {
        __m256i v[IB][2];
#pragma GCC unroll 8
        for (std::size_t q = 0; q < IB; ++q) {
            const auto* out = reinterpret_cast<const __m256i*>(&t.acc[(i0 + q) * t.cols + c0]);
            v[q][0] = _mm256_loadu_si256(out);
            v[q][1] = _mm256_loadu_si256(out + 1);
        }
        for (std::size_t p = 0; p < (t.k_t + 1) / 2; ++p) {
            const auto* w = reinterpret_cast<const __m256i*>(t.weights(p, c0));
            const __m256i w0 = _mm256_loadu_si256(w), w1 = _mm256_loadu_si256(w + 1);
#pragma GCC unroll 8
            for (std::size_t q = 0; q < IB; ++q) {
                const __m256i x = _mm256_set1_epi32(static_cast<int>(a_pair(t, i0 + q, p)));
                v[q][0] = _mm256_add_epi32(v[q][0], _mm256_madd_epi16(x, w0));
                v[q][1] = _mm256_add_epi32(v[q][1], _mm256_madd_epi16(x, w1));
            }
        }
#pragma GCC unroll 8
        for (std::size_t q = 0; q < IB; ++q) {
            auto* out = reinterpret_cast<__m256i*>(&t.acc[(i0 + q) * t.cols + c0]);
            _mm256_storeu_si256(out, v[q][0]);
            _mm256_storeu_si256(out + 1, v[q][1]);
        }
    }
}
template <>
[[gnu::target("avx2,fma")]] void mac_tile_avx2(const mac_tile<std::int16_t>& t) {
    std::size_t i = 0;
    for (; i + row_block <= t.m; i += row_block) mac_rows_i8_avx2<row_block>(t, i);
    for (; i < t.m; ++i) mac_rows_i8_avx2<1>(t, i);
}

// AVX-512: one register per chunk of 16 columns, fp32 with vfmadd (one
// rounding per product, as fmaf), int8 with vpmaddwd on 16 column pairs.
// `#pragma GCC unroll` keeps the IB accumulator rows in registers: -O2 does
// not unroll those loops by itself, and kept in memory every multiply-add
// waited for the previous one's store.
#define NPU_SA_AVX512 "avx512f,avx512bw,avx2,fma"
template <std::size_t IB, typename W>
[[gnu::target(NPU_SA_AVX512), gnu::always_inline]] inline void mac_rows_avx512(const mac_tile<W>& t, std::size_t i0) {
    static_assert(lanes == 16, "one vector of sixteen 32-bit accumulators per chunk");
    for (std::size_t c0 = 0; c0 < t.cols; c0 += lanes) {
        if constexpr (std::is_same_v<W, float>) {
            __m512 v[IB];
#pragma GCC unroll 8
            for (std::size_t q = 0; q < IB; ++q) v[q] = _mm512_loadu_ps(&t.acc[(i0 + q) * t.cols + c0]);
            for (std::size_t r = 0; r < t.k_t; ++r) {
                const __m512 w = _mm512_loadu_ps(t.weights(r, c0));
#pragma GCC unroll 8
                for (std::size_t q = 0; q < IB; ++q) {
                    float x;
                    std::memcpy(&x, &t.a[(i0 + q) * t.a_pitch + r * 4], 4);
                    v[q] = _mm512_fmadd_ps(_mm512_set1_ps(x), w, v[q]);
                }
            }
#pragma GCC unroll 8
            for (std::size_t q = 0; q < IB; ++q) _mm512_storeu_ps(&t.acc[(i0 + q) * t.cols + c0], v[q]);
        } else {
            __m512i v[IB];
#pragma GCC unroll 8
            for (std::size_t q = 0; q < IB; ++q) v[q] = _mm512_loadu_si512(&t.acc[(i0 + q) * t.cols + c0]);
            for (std::size_t p = 0; p < (t.k_t + 1) / 2; ++p) {
                const __m512i w = _mm512_loadu_si512(t.weights(p, c0));
#pragma GCC unroll 8
                for (std::size_t q = 0; q < IB; ++q) {
                    const __m512i x = _mm512_set1_epi32(static_cast<int>(a_pair(t, i0 + q, p)));
                    v[q] = _mm512_add_epi32(v[q], _mm512_madd_epi16(x, w));
                }
            }
#pragma GCC unroll 8
            for (std::size_t q = 0; q < IB; ++q) _mm512_storeu_si512(&t.acc[(i0 + q) * t.cols + c0], v[q]);
        }
    }
}
template <typename W>
[[gnu::target(NPU_SA_AVX512)]] void mac_tile_avx512(const mac_tile<W>& t) {
    std::size_t i = 0;
    for (; i + row_block <= t.m; i += row_block) mac_rows_avx512<row_block>(t, i);
    for (; i < t.m; ++i) mac_rows_avx512<1>(t, i);
}
#undef NPU_SA_AVX512
#endif

// One operand row (at most a tile's width of elements): eight bytes per move,
// inline; a C library call per row of a few bytes cost more than the MACs
// of small tiles.
inline void copy_row(unsigned char* dst, const unsigned char* src, std::size_t len) {
    std::size_t i = 0;
    for (; i + 8 <= len; i += 8) std::memcpy(dst + i, src + i, 8);
    for (; i < len; ++i) dst[i] = src[i];
}

// The int8 data movement of a tile (exact on any ISA) compiled for the
// host's widest vectors too, picked by the loader: it was a third of a small
// int8 job's host time in baseline x86-64 code.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define NPU_SA_CLONES [[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]]
#else
#define NPU_SA_CLONES
#endif

// int8 A rows widened to int16: m rows of k elements (a zero after an odd k).
NPU_SA_CLONES void widen_rows(const std::int8_t* __restrict src, std::size_t src_pitch, std::int16_t* __restrict dst,
                              std::size_t dst_pitch, std::size_t m, std::size_t k) {
    for (std::size_t r = 0; r < m; ++r, src += src_pitch, dst += dst_pitch) {
        std::size_t i = 0;
        for (; i + lanes <= k; i += lanes)
            for (std::size_t l = 0; l < lanes; ++l) dst[i + l] = src[i + l];
        for (; i < k; ++i) dst[i] = src[i];
        if (k & 1) dst[k] = 0;
    }
}

// int8 weight pairs of k rows `pitch` bytes apart: w[(p*cols + c)*2 + h] =
// row 2p + h's column c, `zero` (cols zero bytes) past an odd last row.
NPU_SA_CLONES void interleave_pairs(const std::int8_t* __restrict rows, std::size_t pitch, std::size_t k,
                                    const std::int8_t* __restrict zero, std::int16_t* __restrict w, std::size_t cols) {
    for (std::size_t p = 0; p < (k + 1) / 2; ++p, w += 2 * cols) {
        const std::int8_t* r0 = rows + 2 * p * pitch;
        const std::int8_t* r1 = 2 * p + 1 < k ? r0 + pitch : zero;
        for (std::size_t c0 = 0; c0 < cols; c0 += lanes)
            for (std::size_t l = 0; l < lanes; ++l) {
                w[2 * (c0 + l)] = r0[c0 + l];
                w[2 * (c0 + l) + 1] = r1[c0 + l];
            }
    }
}
#undef NPU_SA_CLONES

enum class mac_kernels { generic, avx2, avx512 };

// The MAC loops this host runs, chosen once.
mac_kernels chosen_kernels() {
    static const mac_kernels chosen = [] {
        // NPU_SA_KERNELS=generic|avx2: the portable loops on any host, or
        // the AVX2 ones on an AVX-512 host, so tests check them where faster
        // ones would be picked (tests/accel).
        const char* k = std::getenv("NPU_SA_KERNELS");
        const std::string wanted = k ? k : "";
        if (wanted == "generic") return mac_kernels::generic;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        if (wanted != "avx2" && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("fma"))
            return mac_kernels::avx512;
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return mac_kernels::avx2;
#endif
        return mac_kernels::generic;
    }();
    return chosen;
}

template <typename W>
void mac_tile_run(const mac_tile<W>& t) {
    static void (*const fn)(const mac_tile<W>&) = [] {
        switch (chosen_kernels()) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        case mac_kernels::avx512: return mac_tile_avx512<W>;
        case mac_kernels::avx2: return mac_tile_avx2<W>;
#endif
        default: return mac_tile_generic<W>;
        }
    }();
    fn(t);
}

}  // namespace

const char* sa_tlm_kernels() {
    switch (chosen_kernels()) {
    case mac_kernels::avx512: return "avx512";
    case mac_kernels::avx2: return "avx2";
    default: return "generic";
    }
}

// --- cycle model --------------------------------------------------------------------

std::uint64_t sa_tile_compute_cycles(const sa_geometry& g, std::uint64_t m, bool first, bool last) {
    const bool single = g.weight_buffers == 1;
    const std::uint64_t fill = single || first ? g.rows : (g.rows > m ? g.rows - m : 0);
    const std::uint64_t drain = single || last ? g.rows + g.cols - 2 : 0;
    return fill + m + drain;
}

std::uint64_t sa_tile_bytes(const sa_job& j, std::uint64_t k_t, std::uint64_t n_t, bool first_k, bool last_k) {
    const std::uint64_t e = j.in_bytes();
    std::uint64_t bytes = k_t * n_t * e + std::uint64_t(j.m) * k_t * e;
    if (first_k && j.accumulate) bytes += std::uint64_t(j.m) * n_t * sa_job::out_bytes;
    if (last_k) bytes += std::uint64_t(j.m) * n_t * sa_job::out_bytes;
    return bytes;
}

sa_cycles sa_job_cycles(const sa_job& j, const sa_geometry& g) {
    sa_cycles r;
    r.total = g.setup_cycles;
    for (std::uint64_t n0 = 0; n0 < j.n; n0 += g.cols)
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += g.rows) {
            const std::uint64_t compute =
                sa_tile_compute_cycles(g, j.m, n0 == 0 && k0 == 0, n0 + g.cols >= j.n && k0 + g.rows >= j.k);
            const std::uint64_t n_t = std::min<std::uint64_t>(g.cols, j.n - n0);
            const std::uint64_t k_t = std::min<std::uint64_t>(g.rows, j.k - k0);
            const std::uint64_t mem =
                ceil_div(sa_tile_bytes(j, k_t, n_t, k0 == 0, k0 + g.rows >= j.k), g.port_bandwidth);
            const std::uint64_t tile = std::max(compute, mem);
            r.total += tile;
            r.compute += compute;
            r.stall += tile - compute;
            ++r.tiles;
        }
    return r;
}

// --- L1 port ------------------------------------------------------------------------

sa_port_booking::sa_port_booking(base::l1_bank_calendar* banks, std::uint64_t port_bandwidth)
    : banks_(banks), port_bandwidth_(std::max<std::uint64_t>(1, port_bandwidth)) {}

bool sa_port_booking::begin_job(std::uint64_t start_cycle, std::uint64_t alone_cycles) {
    own_next_.clear();
    if (!banks_ || banks_->banks.empty()) return false;
    job_start_ = start_cycle;
    margin_ = banks_->banks.window() / 2;
    capped_ = false;
    banks_->banks.grow_to(margin_ + 2 * alone_cycles);
    words_per_cycle_ = std::max<std::uint64_t>(1, port_bandwidth_ >> banks_->shift);
    own_next_.assign(std::size_t(banks_->bank_mask) + 1, 0);
    return true;
}

void sa_port_booking::grow_for(std::uint64_t cycle) {
    // Twice the stretch so far: a stream that keeps waiting grows the ring
    // a logarithmic number of times.
    const std::uint64_t before = banks_->banks.ring_cycles();
    if (banks_->banks.grow_to(margin_ + 2 * (cycle - job_start_) + 1) <= before) capped_ = true;
}

void sa_port_booking::begin_tile(std::uint64_t cycle) {
    tile_cycle_ = cycle;
    bytes_ = wait_ = 0;
}

void sa_port_booking::row(std::uint64_t addr, std::uint64_t len) {
    base::l1_bank_calendar& cal = *banks_;
    const std::uint64_t start = tile_cycle_ + wait_ + bytes_ / port_bandwidth_;
    bytes_ += len;
    // Outside L1 the access faults (the engine reports it); nothing to book.
    if (len == 0 || addr < cal.base || addr - cal.base >= cal.size ||
        len > cal.size - (addr - cal.base))
        return;
    const std::uint64_t offset = addr - cal.base;
    const std::uint64_t first = offset >> cal.shift, words = ((offset + len - 1) >> cal.shift) - first + 1;
    const unsigned mask = cal.bank_mask;
    const std::uint64_t per_cycle = words_per_cycle_;
    // The stream's words in order, each at its (cycle, lane) of the port in
    // its bank. The stream books each bank in time order, so a taken
    // bank-cycle before the bank's last booking of this job is the SA's
    // own (the closed form does not charge the port its own conflicts):
    // one run books the free ones and passes over those
    // (slot_calendar::reserve_run_past_own). A bank-cycle another initiator
    // holds delays its word and every later one of the stream; a word the
    // run cannot take (its lap ends) is looked at alone.
    base::run_cursor at{start, 0, static_cast<unsigned>(first) & mask};
    std::uint64_t left = words, waited = 0;
    reach(start + words / per_cycle + 1);
    while (left) {
        left -= cal.banks.reserve_run_past_own(left, per_cycle, at, mask, own_next_.data());
        if (!left) break;
        if (own_next_[at.resource] <= at.cycle) {
            // How far the bank's first free cycle lies is known once found:
            // the rest of the stream from there must fit the ring. (The
            // search itself ends at the first cell no live booking holds:
            // other initiators book within about a quantum, which the ring
            // holds.)
            const std::uint64_t served = cal.banks.reserve(at.resource, at.cycle);
            if (served != at.cycle) reach(served + left / per_cycle + 1);
            waited += served - at.cycle;
            at.cycle = served;
            own_next_[at.resource] = served + 1;
        }
        if (++at.lane == per_cycle) at.lane = 0, ++at.cycle;
        at.resource = (at.resource + 1) & mask;
        --left;
    }
    wait_ += waited;
}

void sa_port_booking::rows(std::uint64_t first, std::uint64_t stride, std::uint64_t count, std::uint64_t len) {
    // The common case in one step: every row exactly one cycle of the port
    // over every bank (len = port width = banks x bank width, aligned), the
    // rows on the same banks (stride a multiple of the banks' span), all in
    // L1. Row r then starts at cycle start + r (row() starts each row at
    // tile + wait + bytes / port width, on lane 0) and books every bank in
    // it: if none of those bank-cycles is booked yet, the rows one by one
    // would book exactly them, wait for nothing and leave own_next_ at the
    // block's end. If one is booked, the rows go one by one (nothing was
    // booked here).
    const base::l1_bank_calendar& cal = *banks_;
    const std::uint64_t banks = std::uint64_t{cal.bank_mask} + 1, bank_width = std::uint64_t{1} << cal.shift;
    const std::uint64_t span = banks * bank_width;
    // Both shortcuts below take two rows or more, all wholly in L1.
    std::uint64_t extent = 0;
    const bool rows_in_l1 = count > 1 && len > 0 && first >= cal.base && first - cal.base < cal.size &&
                            !__builtin_mul_overflow(count - 1, stride, &extent) &&
                            extent <= cal.size - (first - cal.base) && len <= cal.size - (first - cal.base) - extent;
    if (rows_in_l1 && words_per_cycle_ == banks && len == port_bandwidth_ && len == span && stride % span == 0 &&
        (first - cal.base) % bank_width == 0) {
        const std::uint64_t start = tile_cycle_ + wait_ + bytes_ / port_bandwidth_;
        reach(start + count);
        if (banks_->banks.reserve_block_if_free(start, count)) {
            std::fill(own_next_.begin(), own_next_.end(), start + count);
            bytes_ += count * len;
            return;
        }
    }
    // Rows no wider than a port cycle and than the banks (an int8 tile's
    // 16-byte rows, four to a cycle), all in L1: row() would book each row's
    // words at lanes 0.. of its start cycle, on consecutive banks. If none of
    // those bank-cycles is another initiator's, they are booked at once, the
    // job's own passed over, as row by row (slot_ring::
    // reserve_masks_past_own_if_free); else the rows go one by one (nothing
    // was booked here).
    if (rows_in_l1 && banks == 16) {
        if (row_cycles_.size() < count) row_cycles_.resize(count), row_masks_.resize(count);
        const std::uint64_t max_words = std::min<std::uint64_t>(words_per_cycle_, banks);
        // Row r starts at tile + wait + (bytes + r * len) / port width:
        // the quotient kept, not divided again per row.
        std::uint64_t cycle = tile_cycle_ + wait_ + bytes_ / port_bandwidth_, part = bytes_ % port_bandwidth_;
        // Rows that start in the same cycle (four int8 rows of 16 bytes)
        // go in as one entry, their masks ORed: the check and booking of
        // the union are those of the rows one after another (a row books
        // what is free and not booked by an earlier row of its cycle), with
        // a quarter of the entries.
        std::uint64_t r = 0, entries = 0;
        for (; r < count; ++r) {
            const std::uint64_t offset = first - cal.base + r * stride;
            const std::uint64_t word = offset >> cal.shift, words = ((offset + len - 1) >> cal.shift) - word + 1;
            if (words > max_words) break;
            const unsigned bank = static_cast<unsigned>(word) & cal.bank_mask;
            const std::uint32_t run = (std::uint32_t{1} << words) - 1;  // words <= 16
            const auto mask = static_cast<std::uint16_t>((run << bank) | (run >> (16 - bank)));
            if (entries && row_cycles_[entries - 1] == cycle)
                row_masks_[entries - 1] |= mask;
            else
                row_cycles_[entries] = cycle, row_masks_[entries++] = mask;
            for (part += len; part >= port_bandwidth_; part -= port_bandwidth_) ++cycle;
        }
        if (r == count) reach(cycle + 1);
        if (r == count &&
            banks_->banks.reserve_masks_past_own_if_free(row_cycles_.data(), row_masks_.data(), entries, own_next_.data())) {
            bytes_ += count * len;
            return;
        }
    }
    for (std::uint64_t r = 0; r < count; ++r) row(first + r * stride, len);
}

std::uint64_t sa_port_booking::book_tile(const sa_job& j, std::uint64_t cols, std::uint64_t rows, std::uint64_t n0,
                                         std::uint64_t k0, std::uint64_t cycle) {
    const std::uint64_t e = j.in_bytes();
    const std::uint64_t n_t = std::min<std::uint64_t>(cols, j.n - n0), k_t = std::min<std::uint64_t>(rows, j.k - k0);
    const bool first_k = k0 == 0, last_k = k0 + rows >= j.k;
    begin_tile(cycle);
    if (first_k && j.accumulate) this->rows(j.c + n0 * 4, j.ldc, j.m, n_t * 4);
    this->rows(j.b + k0 * j.ldb + n0 * e, j.ldb, k_t, n_t * e);
    this->rows(j.a + k0 * e, j.lda, j.m, k_t * e);
    if (last_k) this->rows(j.c + n0 * 4, j.ldc, j.m, n_t * 4);
    return wait_;
}

// --- engine --------------------------------------------------------------------------

bool sa_tlm_engine::access(int operand, std::uint64_t addr, void* data, unsigned len, bool write,
                           const sc_core::sc_time& when, unsigned row, sa_run& run) {
    // A row inside the DMI window the job's previous access went through
    // takes the master's DMI path without looking the window up again:
    // memcheck, copy, traffic, as bus_initiator::read/write do on a hit.
    base::dmi_window& w = write ? write_window_ : read_window_;
    if (w.host && w.contains(addr, len)) {
        unsigned char* host = w.host + (addr - w.start);
        if (write) {
            base::bus_initiator::memcheck_write(w, addr, len);
            copy_row(host, static_cast<const unsigned char*>(data), len);
        } else {
            env_.bus.memcheck_read(w, addr, len);
            copy_row(static_cast<unsigned char*>(data), host, len);
        }
        if (w.traffic_id >= 0) (write ? env_.bus.traffic().write_bytes : env_.bus.traffic().read_bytes)[w.traffic_id] += len;
        return true;
    }
    // The access is issued at `when`; the memory's answer (latency, DMI) is
    // not the SA's timing — the cycle model is (see sa_job_cycles).
    sc_core::sc_time delay = when - base::sim_time();
    const auto st = addr + len - 1 > 0xFFFFFFFFull ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                    : write                        ? env_.bus.write(addr, data, len, delay)
                                                   : env_.bus.read(addr, data, len, delay);
    if (st == tlm::TLM_OK_RESPONSE) {
        // The window that access used (a DMI hit, or the one its transaction
        // was granted), for the next rows; none with DMI off.
        if (env_.bus.dmi_enabled())
            if (const base::dmi_window* used = env_.bus.dmi_for(addr, len, write)) w = *used;
        return true;
    }
    run.ok = false;
    run.end = when;
    run.failed = sa_failed_access{operand, addr, len, write, when, row};
    return false;
}

const unsigned char* sa_tlm_engine::view_rows(std::uint64_t first, std::uint64_t stride, std::uint64_t rows,
                                              unsigned len) {
    const base::dmi_window& w = read_window_;
    const std::uint64_t last = first + (rows - 1) * stride + len - 1;
    if (!w.host || first < w.start || last > w.end) return nullptr;
    // Memcheck: every row written (the usual case) in one pass, else row by
    // row, which reports the first unwritten byte of each row.
    if (w.shadow && !base::rows_written(w.shadow + (first - w.start), stride, rows, len))
        for (std::uint64_t r = 0; r < rows; ++r) env_.bus.memcheck_read(w, first + r * stride, len);
    if (w.traffic_id >= 0) env_.bus.traffic().read_bytes[w.traffic_id] += rows * len;
    return w.host + (first - w.start);
}

bool sa_tlm_engine::read_rows(std::uint64_t first, std::uint64_t stride, std::uint64_t rows, unsigned len, void* dst,
                              std::size_t pitch, int operand, unsigned row0, const sc_core::sc_time& when, sa_run& run) {
    auto* out = static_cast<unsigned char*>(dst);
    if (const unsigned char* host = view_rows(first, stride, rows, len)) {
        for (std::uint64_t r = 0; r < rows; ++r) copy_row(out + r * pitch, host + r * stride, len);
        return true;
    }
    for (std::uint64_t r = 0; r < rows; ++r)
        if (!access(operand, first + r * stride, out + r * pitch, len, false, when, unsigned(row0 + r), run)) return false;
    return true;
}

sa_run sa_tlm_engine::execute(const sa_job& j, const sc_core::sc_time& t0) {
    const sa_geometry& geo = env_.geometry;
    sa_run run;
    read_window_ = write_window_ = base::dmi_window{};
    const std::uint64_t R = geo.rows, C = geo.cols;
    const unsigned e = j.in_bytes();
    const auto cycles = [this](std::uint64_t n) { return env_.period * static_cast<double>(n); };
    sc_core::sc_time t = t0 + cycles(geo.setup_cycles);

    // The port books its banks (sa_port_booking), so the data accesses must
    // not book them again in the memory (txn_ext::bank_booking::booked).
    const bool booking = port_.begin_job(base::nearest_cycle(t0, env_.period), sa_job_cycles(j, geo).total);
    std::vector<std::uint64_t>* const record = std::exchange(record_waits_, nullptr);
    if (record) record->clear();
    run.booked_banks = booking;
    const base::bus_initiator::banks_booked_scope booked_scope(env_.bus, booking);

    // fp32 cells use IEEE round-to-nearest-even whatever mode the host FPU
    // was left in (the cores' FPU sets modes per instruction).
    const int saved_round = std::fegetround();
    std::fesetround(FE_TONEAREST);
    struct restore {
        int mode;
        ~restore() { std::fesetround(mode); }
    } restore_round{saved_round};

    // The A slice of a tile when copied, m rows of R elements; int8: widened
    // to m rows of a_stride int16 (even, see mac_tile).
    const std::size_t a_stride = R + (R & 1);
    std::vector<unsigned char> a_tile(std::size_t(j.m) * R * e);
    std::vector<std::int16_t> a_i16(j.fp32 ? 0 : std::size_t(j.m) * a_stride);
    // The weight tile as the MAC loops take it: int32 or fp32 bits, rows
    // padded to whole chunks of lanes with zero weights.
    const std::size_t cols = ceil_div(C, lanes) * lanes;
    // int8: the tile's rows of B when copied, zero-padded to cols, and a zero
    // row to pair an odd last one with.
    std::vector<std::int8_t> b_stage(j.fp32 ? 0 : R * cols), zero_row(j.fp32 ? 0 : cols);
    // The output accumulators of one N tile. One pair is used, by dtype.
    std::vector<float> b_f32(j.fp32 ? R * cols : 0), acc_f32(j.fp32 ? j.m * cols : 0);
    std::vector<std::int16_t> b_i16(j.fp32 ? 0 : (R + 1) / 2 * 2 * cols);  // int8: pairs of rows
    std::vector<std::uint32_t> acc_i32(j.fp32 ? 0 : j.m * cols);
    std::uint64_t staged_width = 0;  // columns of b_f32 / b_stage rows that may hold non-zero weights
    // Row i of the accumulators, as the bytes C is read into and written from.
    const auto acc_row = [&](std::uint64_t i) -> void* {
        return j.fp32 ? static_cast<void*>(&acc_f32[i * cols]) : static_cast<void*>(&acc_i32[i * cols]);
    };

    for (std::uint64_t n0 = 0; n0 < j.n; n0 += C) {
        const std::uint64_t n_t = std::min<std::uint64_t>(C, j.n - n0);
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += R) {
            const std::uint64_t k_t = std::min<std::uint64_t>(R, j.k - k0);
            const bool first_k = k0 == 0, last_k = k0 + R >= j.k;
            const std::uint64_t compute = sa_tile_compute_cycles(geo, j.m, n0 == 0 && first_k, n0 + C >= j.n && last_k);
            std::uint64_t mem = ceil_div(sa_tile_bytes(j, k_t, n_t, first_k, last_k), geo.port_bandwidth);
            if (booking) {
                const std::uint64_t wait = port_.book_tile(j, C, R, n0, k0, base::nearest_cycle(t, env_.period));
                mem += wait;
                if (record) record->push_back(wait);
            }
            const std::uint64_t tile = std::max(compute, mem);

            // Reads at the start of the tile: C (accumulate), weights, A slice.
            if (first_k) {
                // int 0 and fp32 +0.0
                std::memset(j.fp32 ? static_cast<void*>(acc_f32.data()) : static_cast<void*>(acc_i32.data()), 0,
                            std::size_t(j.m) * cols * 4);
                for (std::uint64_t i = 0; j.accumulate && i < j.m; ++i) {
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(operand_c, a, acc_row(i), unsigned(n_t * 4), false, t, unsigned(i), run)) return run;
                }
            }
            // Rows of B and A: all at once when they lie in the job's read
            // window (each row's memcheck as the master's DMI hit does, the
            // traffic in one sum), else row by row through access(). Rows
            // in the window are used in place when the MAC loops can take
            // them as they are (whole chunks of columns; int8 A: whole pairs).
            const std::uint64_t b0 = j.b + k0 * j.ldb + n0 * e;
            const unsigned char* b_rows = view_rows(b0, j.ldb, k_t, unsigned(n_t * e));
            std::size_t b_rows_pitch = j.ldb;
            const bool b_in_place =
                b_rows && n_t == cols &&
                (!j.fp32 || (j.ldb % 4 == 0 && reinterpret_cast<std::uintptr_t>(b_rows) % alignof(float) == 0));
            if (!b_in_place) {
                auto* stage = j.fp32 ? reinterpret_cast<unsigned char*>(b_f32.data())
                                     : reinterpret_cast<unsigned char*>(b_stage.data());
                const std::size_t pitch = cols * e;  // bytes between rows of b_f32 / b_stage
                // Columns n_t .. cols of every staged row stay zero weights:
                // cleared when a narrower tile follows a wider one.
                if (staged_width > n_t) {
                    for (std::uint64_t r = 0; r < R; ++r) std::memset(stage + r * pitch + n_t * e, 0, (cols - n_t) * e);
                    staged_width = n_t;
                }
                if (b_rows)
                    for (std::uint64_t r = 0; r < k_t; ++r) copy_row(stage + r * pitch, b_rows + r * j.ldb, n_t * e);
                else if (!read_rows(b0, j.ldb, k_t, unsigned(n_t * e), stage, pitch, operand_b, unsigned(k0), t, run))
                    return run;
                staged_width = std::max<std::uint64_t>(staged_width, n_t);
                b_rows = stage;
                b_rows_pitch = pitch;
            }
            if (!j.fp32)
                interleave_pairs(reinterpret_cast<const std::int8_t*>(b_rows), b_rows_pitch, k_t, zero_row.data(),
                                 b_i16.data(), cols);
            const unsigned char* a_rows = view_rows(j.a + k0 * e, j.lda, j.m, unsigned(k_t * e));
            std::size_t a_pitch = j.lda;
            if (!a_rows) {
                if (!read_rows(j.a + k0 * e, j.lda, j.m, unsigned(k_t * e), a_tile.data(), R * e, operand_a, 0, t, run))
                    return run;
                a_rows = a_tile.data();
                a_pitch = R * e;
            }
            if (!j.fp32) {
                widen_rows(reinterpret_cast<const std::int8_t*>(a_rows), a_pitch, a_i16.data(), a_stride, j.m, k_t);
                a_rows = reinterpret_cast<const unsigned char*>(a_i16.data());
                a_pitch = a_stride * sizeof(std::int16_t);
            }

            // The MACs. A column's partial sum enters at the top with the
            // accumulator value and gains one product per row, k ascending,
            // so fp32 results are, bit for bit,
            //   acc = accumulate ? C : +0.0;  for k in 0..K-1: acc = fmaf(A[i][k], B[k][j], acc)
            // (fused multiply-add, round to nearest even). int8: exact
            // products, int32 sums wrap modulo 2^32.
            if (j.fp32)
                mac_tile_run(mac_tile<float>{a_rows, a_pitch, b_rows, b_rows_pitch, cols, j.m, k_t, acc_f32.data()});
            else
                mac_tile_run(mac_tile<std::int16_t>{a_rows, a_pitch,
                                                    reinterpret_cast<const unsigned char*>(b_i16.data()),
                                                    cols * 2 * sizeof(std::int16_t), cols, j.m, k_t, acc_i32.data()});
            t += cycles(tile);
            run.stall_cycles += tile - compute;

            // The finished N tile leaves the array at the end of its last K tile.
            if (last_k) {
                for (std::uint64_t i = 0; i < j.m; ++i) {
                    constexpr std::uint32_t canonical_nan = 0x7FC00000u;  // as the RISC-V F cores produce
                    if (j.fp32)
                        for (std::uint64_t c = 0; c < n_t; ++c)
                            if (std::isnan(acc_f32[i * cols + c])) std::memcpy(&acc_f32[i * cols + c], &canonical_nan, 4);
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(operand_c, a, acc_row(i), unsigned(n_t * 4), true, t, unsigned(i), run)) return run;
                }
            }
            if (env_.services.stop_requested()) {  // e.g. memcheck=error stopped the run
                run.end = t;
                return run;
            }
        }
    }
    run.end = t;
    return run;
}

}  // namespace npu::accel
