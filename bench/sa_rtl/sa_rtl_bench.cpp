// Host time per systolic-array job, TLM engine vs the Verilated RTL engine,
// on the same jobs through the same master (L1 behind the router). Prints a
// table of host times (not asserted: they depend on the host). Checked: both
// engines take the same cycles on every repetition of a job, else exit 1.
// --quick: two TLM repetitions and one RTL per job (ctest bench.sa_rtl_quick:
// the check, not the figures).
#include "accel/sa_engine.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "sa_rtl_engine.h"
#include "util/harness.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <random>

using namespace npu;

namespace {

struct shape {
    const char* what;
    std::uint32_t m, n, k;
    bool fp32;
};

}  // namespace

int sc_main(int argc, char** argv) {
    const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
    if (argc > 2 || (argc == 2 && !quick)) {
        fmt::print(stderr, "usage: {} [--quick]\n", argv[0]);
        return 2;
    }
    const cfg::config cfg = cfg::config::load("", {"soc.memcheck=off"});
    const cfg::memory_map map = cfg::memory_map::build(cfg);
    test::test_context ctx("ctx", cfg);
    test::harness h("h", {{"sa", static_cast<int>(cfg::initiator_class::sa), -1}});
    interconnect::router router("router", cfg, map);
    memory::memory l1("l1", cfg, "l1");
    router.bind_initiator(h.master(0).socket, cfg::initiator_class::sa);
    router.bind_target(l1.socket, "l1");
    base::bus_initiator& bus = h.master(0);
    bus.set_dmi_enabled(false);  // as the SA's master: every burst a transaction

    accel::sa_geometry geo{cfg.count("sa.rows"), cfg.count("sa.cols"), cfg.cycles("sa.setup_latency"),
                           cfg.size("sa.l1_bandwidth")};
    const sc_core::sc_time period(1.0 / double(cfg.frequency_hz("soc.cluster_clock")), sc_core::SC_SEC);
    // The SA port books L1 banks as in the SoC (the memory set the calendar up).
    const accel::sa_engine_env env{bus, geo, period, ctx.services(), &ctx.context().shared<base::l1_bank_calendar>()};
    accel::sa_tlm_engine tlm(env);
    rtl::sa_rtl_engine rtl_engine(env, rtl::sa_rtl_options{});

    const std::uint64_t l1_base = cfg.address("l1.base");
    const shape shapes[] = {
        {"MLP layer 1 slice", 4, 64, 784, false},
        {"int8 square", 64, 64, 64, false},
        {"fp32 square", 64, 64, 64, true},
        {"fp32 memory-bound", 64, 16, 16, true},
    };
    fmt::print("host time per SA job, TLM vs RTL engine ({}x{} array, {} B/cycle)\n", geo.rows, geo.cols,
               geo.port_bandwidth);
    fmt::print("{:<26} {:>14} {:>8} {:>12} {:>12} {:>8}\n", "job", "MxNxK", "cycles", "tlm us/job", "rtl us/job",
               "rtl/tlm");
    bool failed = false;
    h.run_job([&] {
        std::mt19937 rng(1);
        for (const shape& s : shapes) {
            accel::sa_job j;
            const unsigned e = s.fp32 ? 4 : 1;
            j.m = s.m, j.n = s.n, j.k = s.k, j.fp32 = s.fp32;
            j.lda = s.k * e, j.ldb = s.n * e, j.ldc = s.n * 4;
            j.a = static_cast<std::uint32_t>(l1_base);
            j.b = j.a + j.m * j.lda;
            j.c = j.b + j.k * j.ldb;
            std::vector<unsigned char> bytes(std::size_t(j.c - j.a) + std::size_t(j.m) * j.ldc);
            for (auto& x : bytes) x = static_cast<unsigned char>(rng() & 0x3F);  // small floats or int8
            bus.debug_write(j.a, bytes.data(), static_cast<unsigned>(bytes.size()));
            // Each repetition starts 1024 cycles after the one before ended:
            // a job alone, as on the SoC. Started at one time, the TLM engine's
            // later repetitions found the L1 bank-cycles the earlier ones
            // booked (its port books them in the SoC's calendar) and stalled
            // on themselves; and the RTL engine's accesses book bank-cycles up
            // to tens of cycles past its done (its TCDM requests are granted
            // at once: docs/cosim.md), which the next engine's first job met.
            // Every repetition's cycles are kept (0: a failed job): a range
            // is printed if they differ.
            const sc_core::sc_time gap = period * 1024.0;
            struct timed {
                double us = 0;
                std::uint64_t lo = UINT64_MAX, hi = 0;
                std::string cycles() const { return lo == hi ? std::to_string(lo) : fmt::format("{}-{}", lo, hi); }
            };
            auto per_job = [&](accel::sa_engine& eng, unsigned reps) {
                timed r;
                const auto t = std::chrono::steady_clock::now();
                for (unsigned i = 0; i < reps; ++i) {
                    const sc_core::sc_time start = sc_core::sc_time_stamp();
                    const accel::sa_run run = eng.execute(j, start);
                    const std::uint64_t c = run.ok ? static_cast<std::uint64_t>((run.end - start) / period) : 0;
                    r.lo = std::min(r.lo, c);
                    r.hi = std::max(r.hi, c);
                    sc_core::wait((run.end > start ? run.end - start : sc_core::SC_ZERO_TIME) + gap);
                }
                r.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count() / reps;
                return r;
            };
            const timed t = per_job(tlm, quick ? 2 : 50), r = per_job(rtl_engine, quick ? 1 : 3);
            const bool same = t.lo == t.hi && r.lo == r.hi && t.lo == r.lo && t.lo != 0;
            fmt::print("{:<26} {:>14} {:>8} {:>12.1f} {:>12.1f} {:>7.0f}x{}\n", s.what,
                       fmt::format("{}x{}x{}", s.m, s.n, s.k), t.cycles(), t.us, r.us, r.us / t.us,
                       same ? "" : fmt::format("  (rtl cycles {})", r.cycles()));
            failed = failed || !same;
        }
    });
    if (failed) fmt::print("FAILED: the engines' cycles differ, vary between repetitions, or a job failed\n");
    return failed ? 1 : 0;
}
