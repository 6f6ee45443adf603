// Host cost per multiply-accumulate of the TLM systolic-array engine
// (sa.model=tlm) on the shapes the networks give it, through the SA's master
// to L1 with DMI on, as in the SoC. Prints ns/MAC per job shape and overall;
// nothing is asserted (the figures depend on the host). Times are the
// thread's CPU time, so other processes on a loaded host inflate them less.
#include "accel/sa_engine.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "util/harness.h"

#include <fmt/format.h>

#include <cstring>
#include <ctime>
#include <random>

using namespace npu;

namespace {

double cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

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

    accel::sa_geometry geo{cfg.count("sa.rows"), cfg.count("sa.cols"), cfg.cycles("sa.setup_latency"),
                           cfg.size("sa.l1_bandwidth")};
    const sc_core::sc_time period(1.0 / double(cfg.frequency_hz("soc.cluster_clock")), sc_core::SC_SEC);
    // The SA port books L1 banks as in the SoC (the memory set the calendar up).
    const accel::sa_engine_env env{bus, geo, period, ctx.services(), &ctx.context().shared<base::l1_bank_calendar>()};
    accel::sa_tlm_engine tlm(env);

    const std::uint64_t l1_base = cfg.address("l1.base");
    // Jobs the networks give the SA (npu run NET --npusim-arg=--log-level=debug
    // logs each): the MLPs' layers (M = 4 rows of activations), resnet8's
    // and dscnn's convolutions (im2col: M = output pixels).
    const shape shapes[] = {
        {"mlp_int8 layer 1", 4, 112, 464, false}, {"mlp_f32 layer 1", 4, 80, 160, true},
        {"resnet8_int8 conv", 192, 16, 144, false}, {"resnet8_f32 conv", 32, 16, 144, true},
        {"resnet8_f32 conv", 16, 4, 576, true},     {"dscnn_int8 conv", 36, 128, 128, false},
    };
    fmt::print("host time per MAC of the TLM SA engine ({}x{} array, DMI on, {} MAC loops; thread CPU time)\n",
               geo.rows, geo.cols, accel::sa_tlm_kernels());
    fmt::print("{:<22} {:>12} {:>10} {:>10} {:>8}\n", "job", "MxNxK", "us/job", "ns/MAC", "cycles");
    double total_ns = 0, total_macs = 0;
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
            // int8: any byte; fp32: values in [-1, 1) (no denormals, as a network's data).
            if (s.fp32)
                for (std::size_t i = 0; i + 4 <= bytes.size(); i += 4) {
                    const float f = float(std::int32_t(rng() % 2048) - 1024) / 1024.0f;
                    std::memcpy(&bytes[i], &f, 4);
                }
            else
                for (auto& x : bytes) x = static_cast<unsigned char>(rng());
            bus.debug_write(j.a, bytes.data(), static_cast<unsigned>(bytes.size()));
            const double macs = double(s.m) * s.n * s.k;
            const unsigned reps = quick ? 3u : static_cast<unsigned>(std::max(3.0, 2e8 / macs / (s.fp32 ? 4 : 1)));
            // Each repetition starts 1024 cycles after the one before ended
            // (a job alone, as on the SoC): the SA port books its L1 banks in
            // the SoC's calendar, and repetitions started at one time found
            // the earlier ones' bank-cycles booked and stalled on themselves
            // (three times the cycles, and host time spent walking the
            // crowded calendar). The wait is a SystemC context switch, well
            // under a microsecond against tens per job.
            const sc_core::sc_time gap = period * 1024.0;
            accel::sa_run r;
            sc_core::sc_time start;
            std::uint64_t lo = UINT64_MAX, hi = 0;
            const double t = cpu_ns();
            for (unsigned i = 0; i < reps; ++i) {
                start = sc_core::sc_time_stamp();
                r = tlm.execute(j, start);
                if (!r.ok) break;
                const auto c = static_cast<std::uint64_t>((r.end - start) / period);
                lo = std::min(lo, c);
                hi = std::max(hi, c);
                sc_core::wait((r.end > start ? r.end - start : sc_core::SC_ZERO_TIME) + gap);
            }
            const double ns = cpu_ns() - t;
            if (!r.ok) {
                fmt::print("{:<22} bus error at 0x{:08x}: the job does not fit in L1\n", s.what, r.failed.addr);
                failed = true;
                continue;
            }
            // The same cycles every repetition (a job alone); a range if not.
            const std::string cycles = lo == hi ? std::to_string(lo) : fmt::format("{}-{}", lo, hi);
            const std::uint64_t alone = accel::sa_job_cycles(j, geo).total;
            if (lo != alone || hi != alone) {
                fmt::print("{:<22} cycles {} per repetition, not the closed form's {} for a job alone\n", s.what,
                           cycles, alone);
                failed = true;
            }
            fmt::print("{:<22} {:>12} {:>10.1f} {:>10.3f} {:>8}\n", s.what, fmt::format("{}x{}x{}", s.m, s.n, s.k),
                       ns / reps / 1e3, ns / reps / macs, cycles);
            total_ns += ns / reps;
            total_macs += macs;
        }
    });
    fmt::print("all jobs once: {:.3f} ns/MAC\n", total_ns / total_macs);
    return failed ? 1 : 0;
}
