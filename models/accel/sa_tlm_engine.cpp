// The loosely-timed SA engine: the MACs and the closed-form cycle model.
#include "sa_engine.h"

#include "sa_regs.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <vector>

namespace npu::accel {

namespace {

constexpr int operand_a = NPU_SA_ERR_OPERAND_A, operand_b = NPU_SA_ERR_OPERAND_B, operand_c = NPU_SA_ERR_OPERAND_C;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace

// --- cycle model --------------------------------------------------------------------

std::uint64_t sa_tile_compute_cycles(const sa_geometry& g, std::uint64_t m) {
    return g.rows + (m + g.rows + g.cols - 2);
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
    const std::uint64_t compute = sa_tile_compute_cycles(g, j.m);
    for (std::uint64_t n0 = 0; n0 < j.n; n0 += g.cols)
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += g.rows) {
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

// --- engine --------------------------------------------------------------------------

bool sa_tlm_engine::access(int operand, std::uint64_t addr, void* data, unsigned len, bool write,
                           const sc_core::sc_time& when, unsigned row, sa_run& run) {
    // The access is issued at `when`; the memory's answer (latency, DMI) is
    // not the SA's timing — the cycle model is (see sa_job_cycles).
    sc_core::sc_time delay = when - sc_core::sc_time_stamp();
    const auto st = addr + len - 1 > 0xFFFFFFFFull ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                    : write                        ? env_.bus.write(addr, data, len, delay)
                                                   : env_.bus.read(addr, data, len, delay);
    if (st == tlm::TLM_OK_RESPONSE) return true;
    run.ok = false;
    run.end = when;
    run.failed = sa_failed_access{operand, addr, len, write, when, row};
    return false;
}

sa_run sa_tlm_engine::execute(const sa_job& j, const sc_core::sc_time& t0) {
    const sa_geometry& geo = env_.geometry;
    sa_run run;
    const std::uint64_t R = geo.rows, C = geo.cols;
    const unsigned e = j.in_bytes();
    const std::uint64_t compute = sa_tile_compute_cycles(geo, j.m);
    const auto cycles = [this](std::uint64_t n) { return env_.period * static_cast<double>(n); };
    sc_core::sc_time t = t0 + cycles(geo.setup_cycles);

    // fp32 cells use IEEE round-to-nearest-even whatever mode the host FPU
    // was left in (the cores' FPU sets modes per instruction).
    const int saved_round = std::fegetround();
    std::fesetround(FE_TONEAREST);
    struct restore {
        int mode;
        ~restore() { std::fesetround(mode); }
    } restore_round{saved_round};

    std::vector<unsigned char> a_tile(std::size_t(j.m) * R * e), b_tile(R * C * e);
    // The output accumulators of one N tile (int32 or fp32 bit patterns).
    std::vector<std::uint32_t> acc(std::size_t(j.m) * C);
    std::vector<std::uint32_t> c_row(C);

    for (std::uint64_t n0 = 0; n0 < j.n; n0 += C) {
        const std::uint64_t n_t = std::min<std::uint64_t>(C, j.n - n0);
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += R) {
            const std::uint64_t k_t = std::min<std::uint64_t>(R, j.k - k0);
            const bool first_k = k0 == 0, last_k = k0 + R >= j.k;
            const std::uint64_t mem = ceil_div(sa_tile_bytes(j, k_t, n_t, first_k, last_k), geo.port_bandwidth);
            const std::uint64_t tile = std::max(compute, mem);

            // Reads at the start of the tile: C (accumulate), weights, A slice.
            if (first_k) {
                for (std::uint64_t i = 0; i < j.m; ++i) {
                    std::uint32_t* out = &acc[i * C];
                    if (!j.accumulate) {
                        std::fill(out, out + n_t, 0u);  // int 0 and fp32 +0.0
                        continue;
                    }
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(operand_c, a, out, unsigned(n_t * 4), false, t, unsigned(i), run)) return run;
                }
            }
            for (std::uint64_t r = 0; r < k_t; ++r) {
                const std::uint64_t a = j.b + (k0 + r) * j.ldb + n0 * e;
                if (!access(operand_b, a, &b_tile[r * C * e], unsigned(n_t * e), false, t, unsigned(k0 + r), run))
                    return run;
            }
            for (std::uint64_t i = 0; i < j.m; ++i) {
                const std::uint64_t a = j.a + i * j.lda + k0 * e;
                if (!access(operand_a, a, &a_tile[i * R * e], unsigned(k_t * e), false, t, unsigned(i), run))
                    return run;
            }

            // The MACs. A column's partial sum enters at the top with the
            // accumulator value and gains one product per row, k ascending,
            // so fp32 results are, bit for bit,
            //   acc = accumulate ? C : +0.0;  for k in 0..K-1: acc = fmaf(A[i][k], B[k][j], acc)
            // (fused multiply-add, round to nearest even). int8: exact
            // products, int32 sums wrap modulo 2^32.
            for (std::uint64_t i = 0; i < j.m; ++i) {
                std::uint32_t* out = &acc[i * C];
                if (j.fp32) {
                    const float* arow = reinterpret_cast<const float*>(&a_tile[i * R * 4]);
                    for (std::uint64_t c = 0; c < n_t; ++c) {
                        float s;
                        std::memcpy(&s, &out[c], 4);
                        for (std::uint64_t r = 0; r < k_t; ++r) {
                            float w;
                            std::memcpy(&w, &b_tile[(r * C + c) * 4], 4);
                            float x;
                            std::memcpy(&x, &arow[r], 4);
                            s = std::fmaf(x, w, s);
                        }
                        std::memcpy(&out[c], &s, 4);
                    }
                } else {
                    const auto* arow = reinterpret_cast<const std::int8_t*>(&a_tile[i * R]);
                    for (std::uint64_t c = 0; c < n_t; ++c) {
                        std::uint32_t s = out[c];
                        for (std::uint64_t r = 0; r < k_t; ++r)
                            s += static_cast<std::uint32_t>(std::int32_t(arow[r]) *
                                                            std::int32_t(static_cast<std::int8_t>(b_tile[r * C + c])));
                        out[c] = s;
                    }
                }
            }
            t += cycles(tile);
            run.stall_cycles += tile - compute;

            // The finished N tile leaves the array at the end of its last K tile.
            if (last_k) {
                for (std::uint64_t i = 0; i < j.m; ++i) {
                    std::uint32_t* out = &acc[i * C];
                    if (j.fp32)
                        for (std::uint64_t c = 0; c < n_t; ++c)
                            if ((out[c] & 0x7F800000u) == 0x7F800000u && (out[c] & 0x007FFFFFu))
                                out[c] = 0x7FC00000u;  // canonical NaN, as the RISC-V F cores produce
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(operand_c, a, out, unsigned(n_t * 4), true, t, unsigned(i), run)) return run;
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
