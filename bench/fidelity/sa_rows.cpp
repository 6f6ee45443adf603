// The SA rows of the fidelity table: the systolic array's cycles on the job
// shapes the shipped networks give it, against SCALE-Sim's weight-stationary
// fold formula and against the overlapped (double-buffered) bound.
#include "fidelity.h"

#include "accel/sa_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace npu::fidelity {

namespace {

struct job_count {
    std::uint32_t count, m, n, k;
    bool accumulate;
};
struct network {
    const char* name;
    bool fp32;
    std::vector<job_count> jobs;
};

// The SA jobs of one run of each network on configs/gap9.cfg, with how many
// times each shape runs and whether it accumulates: `npusim --manifest
// OUT/manifest.json --trace T.json` after `./npu run NET -o OUT` (the
// "systolic array" spans' M, N, K and accumulate). bench/fidelity/sa_jobs.py
// prints them from real runs, and its --check (ctest bench.fidelity_sa_jobs)
// fails when npuc's tiling no longer gives these jobs; the sums equal those
// runs' soc.sa busy cycles.
const network networks[] = {
    {"mlp_tiny_int8", false, {{1, 4, 32, 16, false}, {1, 4, 8, 32, false}}},
    {"mlp_int8", false, {{8, 4, 32, 784, false}, {4, 4, 32, 256, false}, {1, 4, 10, 128, false}}},
    {"mlp_f32", true, {{4, 4, 64, 160, false}, {12, 4, 64, 160, true}, {4, 4, 64, 144, true}, {4, 4, 32, 256, false},
                       {1, 4, 10, 128, false}}},
    {"autoencoder_int8", false, {{4, 1, 32, 640, false}, {12, 1, 48, 128, false}, {6, 1, 32, 128, false},
                                 {1, 1, 8, 128, false}, {1, 1, 128, 8, false}, {5, 1, 112, 128, false},
                                 {1, 1, 80, 128, false}}},
    {"dscnn_int8", false, {{4, 125, 64, 64, false}, {1, 125, 64, 40, false}, {1, 1, 12, 64, false}}},
    {"mobilenet_int8", false, {{1, 9, 256, 256, false}, {5, 36, 128, 128, false}, {1, 9, 256, 128, false},
                               {1, 36, 128, 64, false}, {2, 72, 64, 64, false}, {1, 144, 64, 32, false},
                               {3, 192, 32, 32, false}, {2, 288, 32, 16, false}, {4, 576, 8, 27, false},
                               {4, 576, 16, 8, false}, {1, 1, 2, 256, false}}},
    {"resnet8_int8", false, {{2, 32, 64, 576, false}, {2, 96, 32, 288, false}, {3, 64, 32, 288, false},
                             {2, 128, 32, 144, false}, {10, 192, 16, 144, false}, {2, 352, 16, 27, false},
                             {2, 64, 16, 144, false}, {1, 320, 16, 27, false}, {1, 64, 64, 32, false},
                             {2, 128, 32, 16, false}, {1, 1, 10, 64, false}}},
    {"resnet8_f32", true, {{16, 16, 32, 288, false}, {8, 32, 32, 144, false}, {5, 192, 16, 27, false},
                           {16, 16, 16, 288, false}, {64, 32, 16, 144, false}, {2, 32, 64, 32, false},
                           {2, 96, 32, 16, false}, {64, 16, 4, 576, false}, {1, 64, 32, 16, false},
                           {1, 64, 16, 27, false}, {1, 1, 10, 64, false}}},
};

std::uint64_t tiles(const accel::sa_job& j, const accel::sa_geometry& g) {
    return ((j.k + g.rows - 1) / g.rows) * ((j.n + g.cols - 1) / g.cols);
}

// SCALE-Sim v2's weight-stationary model: every fold (weight tile) fills the
// array, streams M rows and drains, 2R + C + M - 2 cycles, no overlap; no
// setup and no memory stalls (its compute cycles).
std::uint64_t scale_sim_ws(const accel::sa_job& j, const accel::sa_geometry& g) {
    return tiles(j, g) * (2 * g.rows + g.cols + j.m - 2);
}

// The best an array with double-buffered weights can do on the same tiles:
// the first fill, tiles max(M, R) apart, one drain; no setup, no stalls.
std::uint64_t overlapped_bound(const accel::sa_job& j, const accel::sa_geometry& g) {
    const std::uint64_t t = tiles(j, g);
    return g.rows + t * j.m + (t - 1) * (g.rows > j.m ? g.rows - j.m : 0) + g.rows + g.cols - 2;
}

group sa_group() {
    // configs/gap9.cfg's array: 16 x 16, setup 8, 64 B/cycle.
    const accel::sa_geometry g1{16, 16, 8, 64, 1}, g2{16, 16, 8, 64, 2};
    group grp;
    grp.name = "SA";
    grp.title = "SA: cycles of each network's SA jobs (sum over its jobs), 16x16 array, setup 8, 64 B/cycle";
    for (const network& net : networks) {
        std::uint64_t jobs = 0, ours1 = 0, ours2 = 0, scale = 0, bound = 0;
        for (const job_count& jc : net.jobs) {
            accel::sa_job j;
            j.m = jc.m, j.n = jc.n, j.k = jc.k, j.fp32 = net.fp32, j.accumulate = jc.accumulate;
            jobs += jc.count;
            ours1 += jc.count * accel::sa_job_cycles(j, g1).total;
            ours2 += jc.count * accel::sa_job_cycles(j, g2).total;
            scale += jc.count * scale_sim_ws(j, g1);
            bound += jc.count * overlapped_bound(j, g1);
        }
        grp.rows.push_back({fmt::format("{} ({} jobs), buffers=1", net.name, jobs), double(ours1),
                            "SCALE-Sim WS formula", double(scale), "cycles"});
        grp.rows.push_back({fmt::format("{}, buffers=2", net.name), double(ours2), "overlapped bound",
                            double(bound), "cycles"});
    }
    grp.notes = {
        "ours: the TLM model's cycles (accel::sa_job_cycles; the engine's CYCLES equal it, tests/accel SaCycles.*),",
        "  setup and L1-port stalls included; buffers = sa.weight_buffers.",
        "SCALE-Sim WS formula: folds x (2R + C + M - 2), SCALE-Sim v2's weight-stationary compute cycles",
        "  (no setup, no memory stalls). overlapped bound: R + T*M + (T-1)*max(R-M, 0) + R + C - 2 for T",
        "  folds (double-buffered weights, no setup, no stalls). The remaining gap is setup (8 per job)",
        "  and fp32 tiles the 64 B/cycle port cannot feed.",
    };
    return grp;
}

const registrar reg{10, sa_group};

}  // namespace

}  // namespace npu::fidelity
