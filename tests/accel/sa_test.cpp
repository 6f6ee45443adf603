// The systolic array on a small SoC: router, L1, L2, the SA's register
// window and master, and a harness master playing the programming core.
// Results against a plain reference (int8 exact, fp32 bit-exact in the
// documented order) on odd shapes, accumulate, strides; the cycle model
// against its closed form; and every error path: operands outside the SA's
// view, NULL, straddling the end of L1, bad register accesses, START while
// busy, invalid jobs, never-written operands.
#include "accel/sa_regs.h"
#include "accel/systolic_array.h"
#include "blocks.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "util/harness.h"

#include "base/txn_ext.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <functional>
#include <random>

using namespace npu;
using cfg::initiator_class;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

constexpr std::uint64_t setup = 8, reg_latency = 2, hop = 1;  // config below

// The config overrides of this run's variant (sc_main's --override=KEY=VALUE,
// tests/accel/CMakeLists.txt): every case again on the double-buffered array
// (sa.weight_buffers=2), on the RTL engine or both compared (sa.model=rtl|
// compare, tests/rtl: results, cycles and error paths must not depend on
// it), with a 1 us quantum (a bank calendar ring of 4 Ki cycles, which a job
// that fits L1 can outlast: SaPort.AJobLongerThanTheBankCalendarGrows...).
// Arguments rather than environment variables: a ctest ENVIRONMENT of
// gtest_discover_tests keeps only its first variable.
std::vector<std::string>& variant_overrides() {
    static std::vector<std::string> o;
    return o;
}
bool variant_taken = false;  // sc_main has read its arguments
std::vector<std::string> test_overrides() {
    std::vector<std::string> o{"soc.cluster_clock=1GHz",
                               "interconnect.hop_latency=1",
                               "sa_ctrl.latency=2",
                               "sa.setup_latency=8",
                               "sa.l1_bandwidth=64B",
                               "sa.rows=16",
                               "sa.cols=16",
                               "soc.memcheck=warn"};
    o.insert(o.end(), variant_overrides().begin(), variant_overrides().end());
    return o;
}
const cfg::config& test_config() {
    // Read before sc_main took the variant (e.g. by a namespace-scope
    // constant), the config would silently lack it.
    if (!variant_taken) {
        std::fprintf(stderr, "sa_test: the config was read before sc_main took its arguments\n");
        std::abort();
    }
    static const cfg::config c = cfg::config::load("", test_overrides());
    return c;
}
// The platform's addresses, as the memory map of the config has them.
// Functions, not constants: the config is read after sc_main took the variant.
std::uint32_t sa_base() { return static_cast<std::uint32_t>(test_config().address("sa_ctrl.base")); }
std::uint32_t l1_base() { return static_cast<std::uint32_t>(test_config().address("l1.base")); }
std::uint32_t l2_base() { return static_cast<std::uint32_t>(test_config().address("l2.base")); }

struct env {
    const cfg::config& cfg = test_config();
    cfg::memory_map map = cfg::memory_map::build(cfg);
    test::test_context ctx{"ctx", cfg};
    test::harness h{"h", {{"cc", static_cast<int>(initiator_class::core), 8}}};
    interconnect::router router{"router", cfg, map};
    memory::memory l1{"l1", cfg, "l1"}, l2{"l2", cfg, "l2"};
    // Built as the SoC builds it: the front end with the engine sa.model names.
    std::unique_ptr<accel::systolic_array> sa_block = platform::make_systolic_array("sa", cfg);
    accel::systolic_array& sa = *sa_block;

    sc_time local;  // the programming core's local-time offset (temporal decoupling)
    std::vector<base::bus_error_info> bus_errors;
    std::vector<std::string> bus_error_decodes;
    std::vector<base::memcheck_info> memcheck;
    std::vector<sc_time> done_at, error_at;
    test::line_probe done_line{"done_line", [this](unsigned, bool, const sc_time& at) { done_at.push_back(at); }};
    test::line_probe error_line{"error_line", [this](unsigned, bool, const sc_time& at) { error_at.push_back(at); }};

    env() {
        router.bind_initiator(h.master(0).socket, initiator_class::core);
        router.bind_initiator(sa.bus.socket, initiator_class::sa);
        router.bind_target(l1.socket, "l1");
        router.bind_target(l2.socket, "l2");
        router.bind_target(sa.socket, "sa_ctrl");
        auto& svc = ctx.services();
        svc.describe_address = [this](int cls, std::uint64_t a) {
            return map.lookup(static_cast<initiator_class>(cls), a).describe();
        };
        svc.on_bus_error = [this](const base::bus_error_info& e) {
            bus_errors.push_back(e);
            bus_error_decodes.push_back(ctx.services().describe_address(e.who->cls, e.address));
        };
        svc.on_memcheck = [this](const base::memcheck_info& m) {
            memcheck.push_back(m);
            return false;
        };
        sa.done.bind(done_line.in);
        sa.error.bind(error_line.in);
        h.master(0).set_pc(0x1C000123);
    }
};
env* E;

base::bus_initiator& cc() { return E->h.master(0); }
sc_time now() { return sc_core::sc_time_stamp() + E->local; }

tlm::tlm_response_status reg_write(std::uint32_t off, std::uint32_t v) {
    return cc().write(sa_base() + off, v, E->local);
}
std::uint32_t reg_read(std::uint32_t off, tlm::tlm_response_status* st = nullptr) {
    std::uint32_t v = 0xDEADBEEF;
    const auto s = cc().read(sa_base() + off, v, E->local);
    if (st)
        *st = s;
    else
        EXPECT_EQ(s, tlm::TLM_OK_RESPONSE) << "register 0x" << std::hex << off;
    return v;
}

void put(std::uint64_t addr, const void* data, std::size_t n) {
    ASSERT_EQ(cc().write(addr, data, static_cast<unsigned>(n), E->local), tlm::TLM_OK_RESPONSE);
}
void get(std::uint64_t addr, void* data, std::size_t n) {
    ASSERT_EQ(cc().read(addr, data, static_cast<unsigned>(n), E->local), tlm::TLM_OK_RESPONSE);
}

struct job {
    std::uint32_t a, b, c, m, n, k, lda, ldb, ldc;
    bool fp32 = false, accumulate = false;
};

tlm::tlm_response_status program(const job& j) {
    EXPECT_EQ(reg_write(NPU_SA_A_ADDR, j.a), tlm::TLM_OK_RESPONSE);
    reg_write(NPU_SA_B_ADDR, j.b);
    reg_write(NPU_SA_C_ADDR, j.c);
    reg_write(NPU_SA_M, j.m);
    reg_write(NPU_SA_N, j.n);
    reg_write(NPU_SA_K, j.k);
    reg_write(NPU_SA_LDA, j.lda);
    reg_write(NPU_SA_LDB, j.ldb);
    reg_write(NPU_SA_LDC, j.ldc);
    reg_write(NPU_SA_CTRL, (j.fp32 ? NPU_SA_CTRL_DTYPE_FP32 : 0u) | (j.accumulate ? NPU_SA_CTRL_ACCUMULATE : 0u));
    return reg_write(NPU_SA_START, 1);
}

// The closed form of docs/sa.md, written out independently of the model.
// The cycle model as docs/sa.md states it, written independently of the
// model's code. weight_buffers 2: the fill after the job's first tile hides
// behind the previous tile's M streaming cycles, one drain at the job's end.
std::uint64_t expected_cycles(const job& j, std::uint64_t R = 16, std::uint64_t C = 16, std::uint64_t bw = 64,
                              std::uint64_t setup_cycles = setup,
                              std::uint64_t buffers = test_config().count("sa.weight_buffers")) {
    const std::uint64_t e = j.fp32 ? 4 : 1;
    const std::uint64_t n_tiles = (j.n + C - 1) / C, k_tiles = (j.k + R - 1) / R;
    std::uint64_t total = setup_cycles;
    for (std::uint64_t nt = 0; nt < n_tiles; ++nt)
        for (std::uint64_t kt = 0; kt < k_tiles; ++kt) {
            const std::uint64_t n_t = std::min(C, j.n - nt * C), k_t = std::min(R, j.k - kt * R);
            const bool first = kt == 0, last = kt == k_tiles - 1;
            const bool job_first = nt == 0 && first, job_last = nt == n_tiles - 1 && last;
            const std::uint64_t bytes = k_t * n_t * e + j.m * k_t * e + (first && j.accumulate ? j.m * n_t * 4 : 0) +
                                        (last ? j.m * n_t * 4 : 0);
            const std::uint64_t fill = buffers == 1 || job_first ? R : (R > j.m ? R - j.m : 0);
            const std::uint64_t drain = buffers == 1 || job_last ? R + C - 2 : 0;
            total += std::max<std::uint64_t>(fill + j.m + drain, (bytes + bw - 1) / bw);
        }
    return total;
}

// --- data and reference -----------------------------------------------------------

struct mats {
    std::vector<unsigned char> a, b, c;  // row-major with the job's strides
};

mats random_operands(const job& j, unsigned seed) {
    std::mt19937 rng(seed);
    mats x;
    x.a.assign(std::size_t(j.m) * j.lda, 0);
    x.b.assign(std::size_t(j.k) * j.ldb, 0);
    x.c.assign(std::size_t(j.m) * j.ldc, 0);
    auto fill = [&](std::vector<unsigned char>& v, unsigned rows, unsigned cols, unsigned ld, unsigned esz) {
        for (unsigned r = 0; r < rows; ++r)
            for (unsigned c = 0; c < cols; ++c) {
                unsigned char* p = &v[std::size_t(r) * ld + c * esz];
                if (esz == 1) {
                    *p = static_cast<unsigned char>(rng() & 0xFF);  // the full int8 range, -128 included
                } else if (j.fp32) {
                    // Mixed magnitudes and signs: rounding in a different order shows up.
                    float f = std::ldexp(std::uniform_real_distribution<float>(-1.f, 1.f)(rng),
                                         static_cast<int>(rng() % 21) - 10);
                    std::memcpy(p, &f, 4);
                } else {
                    std::int32_t i = static_cast<std::int32_t>(rng());
                    std::memcpy(p, &i, 4);
                }
            }
    };
    const unsigned e = j.fp32 ? 4 : 1;
    fill(x.a, j.m, j.k, j.lda, e);
    fill(x.b, j.k, j.n, j.ldb, e);
    fill(x.c, j.m, j.n, j.ldc, 4);
    // Padding between rows gets a pattern the SA must leave alone.
    for (std::size_t r = 0; r < j.m; ++r)
        for (std::size_t p = std::size_t(j.n) * 4; p < j.ldc; ++p) x.c[r * j.ldc + p] = 0xA5;
    return x;
}

// Straightforward triple loop. fp32: acc = accumulate ? C : +0; acc = fmaf(a, b, acc) for k = 0..K-1.
std::vector<unsigned char> reference(const job& j, const mats& x) {
    std::vector<unsigned char> out = x.c;
    for (std::uint32_t i = 0; i < j.m; ++i)
        for (std::uint32_t n = 0; n < j.n; ++n) {
            unsigned char* cp = &out[std::size_t(i) * j.ldc + n * 4];
            if (j.fp32) {
                float acc = 0.0f;
                if (j.accumulate) std::memcpy(&acc, cp, 4);
                for (std::uint32_t k = 0; k < j.k; ++k) {
                    float a, b;
                    std::memcpy(&a, &x.a[std::size_t(i) * j.lda + k * 4], 4);
                    std::memcpy(&b, &x.b[std::size_t(k) * j.ldb + n * 4], 4);
                    acc = std::fmaf(a, b, acc);
                }
                std::memcpy(cp, &acc, 4);
            } else {
                std::int64_t acc = 0;
                if (j.accumulate) {
                    std::int32_t c0;
                    std::memcpy(&c0, cp, 4);
                    acc = c0;
                }
                for (std::uint32_t k = 0; k < j.k; ++k)
                    acc += std::int64_t(static_cast<std::int8_t>(x.a[std::size_t(i) * j.lda + k])) *
                           static_cast<std::int8_t>(x.b[std::size_t(k) * j.ldb + n]);
                const std::int32_t r = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc));
                std::memcpy(cp, &r, 4);
            }
        }
    return out;
}

// Places the operands, runs the job to its end through WAIT, checks every
// element of C (and the padding) and the cycle count. Returns elements compared.
std::size_t run_and_check(job j, unsigned seed) {
    const mats x = random_operands(j, seed);
    put(j.a, x.a.data(), x.a.size());
    put(j.b, x.b.data(), x.b.size());
    put(j.c, x.c.data(), x.c.size());
    EXPECT_EQ(program(j), tlm::TLM_OK_RESPONSE);
    const sc_time t0 = now() - sc_time(double(reg_latency), SC_NS);  // START's arrival at the SA
    EXPECT_EQ(reg_read(NPU_SA_STATUS) & NPU_SA_STATUS_BUSY, NPU_SA_STATUS_BUSY);
    EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
    const std::uint64_t cyc = expected_cycles(j);
    EXPECT_EQ(reg_read(NPU_SA_CYCLES), cyc);
    EXPECT_EQ(E->done_at.back(), t0 + sc_time(double(cyc), SC_NS));
    EXPECT_GE(now(), E->done_at.back()) << "WAIT returned before the job's end";
    std::vector<unsigned char> got(x.c.size());
    get(j.c, got.data(), got.size());
    const auto want = reference(j, x);
    std::size_t compared = 0, wrong = 0;
    for (std::uint32_t i = 0; i < j.m; ++i)
        for (std::uint32_t n = 0; n < j.n; ++n) {
            const std::size_t o = std::size_t(i) * j.ldc + n * 4;
            ++compared;
            if (std::memcmp(&got[o], &want[o], 4) && ++wrong <= 5) {
                std::uint32_t g, w;
                std::memcpy(&g, &got[o], 4);
                std::memcpy(&w, &want[o], 4);
                ADD_FAILURE() << "C[" << i << "][" << n << "] = 0x" << std::hex << g << ", reference 0x" << w;
            }
        }
    EXPECT_EQ(wrong, 0u) << "of " << compared;
    EXPECT_EQ(std::memcmp(got.data(), want.data(), got.size()), 0) << "padding between rows of C was touched";
    return compared;
}

job make(std::uint32_t m, std::uint32_t n, std::uint32_t k, bool fp32, bool acc = false, unsigned pad = 0) {
    const std::uint32_t e = fp32 ? 4 : 1;
    job j{};
    j.m = m;
    j.n = n;
    j.k = k;
    j.fp32 = fp32;
    j.accumulate = acc;
    j.lda = k * e + pad * e;
    j.ldb = n * e + pad * e;
    j.ldc = n * 4 + pad * 4;
    j.a = l1_base() + 0x0000;
    j.b = l1_base() + 0x8000;
    j.c = l1_base() + 0x10000;
    return j;
}

// A, B and C one after the other from the start of L1 (word aligned), for
// jobs whose operands do not fit make()'s fixed 32 KiB slots.
job make_packed(std::uint32_t m, std::uint32_t n, std::uint32_t k, bool fp32, bool acc = false) {
    job j = make(m, n, k, fp32, acc);
    auto align = [](std::uint32_t x) { return (x + 3u) & ~3u; };
    j.b = align(j.a + m * j.lda);
    j.c = align(j.b + k * j.ldb);
    return j;
}

// Every job shape the shipped networks give the SA (npu run NET
// --npusim-arg=--log-level=debug logs each job: mlp, mlp_tiny, resnet8,
// dscnn, autoencoder, mobilenet; int8 and f32), with the dtype they use.
struct net_shape {
    std::uint32_t m, n, k;
    bool fp32;
};
const net_shape network_shapes[] = {
    {32, 16, 144, true},   {16, 4, 576, true},    {16, 32, 288, true},   {16, 16, 288, true},   {4, 80, 160, true},
    {192, 16, 144, false}, {32, 32, 144, true},   {1, 128, 128, false},  {36, 128, 128, false}, {192, 16, 27, true},
    {576, 8, 27, false},   {576, 16, 8, false},   {4, 16, 160, true},    {125, 64, 64, false},  {64, 32, 288, false},
    {4, 80, 144, true},    {192, 32, 32, false},  {96, 32, 288, false},  {96, 32, 16, true},    {72, 64, 64, false},
    {64, 16, 144, false},  {4, 112, 464, false},  {4, 112, 320, false},  {352, 16, 27, false},  {32, 64, 576, false},
    {32, 64, 32, true},    {288, 32, 16, false},  {128, 32, 16, false},  {128, 32, 144, false}, {9, 256, 256, false},
    {9, 256, 128, false},  {64, 64, 32, false},   {64, 32, 16, true},    {64, 16, 27, true},    {4, 8, 32, false},
    {4, 80, 96, true},     {4, 48, 96, true},     {4, 48, 160, true},    {4, 32, 464, false},   {4, 32, 320, false},
    {4, 16, 144, true},    {4, 128, 256, false},  {4, 10, 128, false},   {4, 10, 128, true},    {36, 128, 64, false},
    {320, 16, 27, false},  {1, 96, 80, false},    {1, 96, 560, false},   {1, 8, 128, false},    {1, 480, 16, false},
    {1, 480, 112, false},  {1, 32, 80, false},    {1, 32, 560, false},   {1, 2, 256, false},    {1, 160, 16, false},
    {1, 160, 112, false},  {1, 12, 64, false},    {1, 128, 8, false},    {1, 10, 64, false},    {1, 10, 64, true},
    {144, 64, 32, false},  {125, 64, 40, false},
    // Since npu-tile's matmul cost model (the shapes above stay: the L3
    // placements and --tile pins still give them).
    {4, 128, 400, false},  {4, 128, 384, false},  {4, 256, 48, true},    {4, 256, 16, true},    {4, 128, 96, true},
    {4, 128, 64, true},    {1, 128, 416, false},  {1, 128, 224, false},  {1, 640, 80, false},   {1, 640, 48, false},
    {1, 128, 96, true},    {1, 128, 64, true},    {1, 128, 32, true},    {1, 8, 128, true},     {1, 128, 8, true},
    {1, 96, 128, true},    {1, 64, 128, true},    {4, 128, 128, false},  {1, 128, 320, false},  {1, 640, 64, false},
};
// Edge shapes around the array's 16 x 16: one element, one tile, one more
// than a tile in each direction, M around R (the fill hides exactly when M >= R).
const net_shape edge_shapes[] = {
    {1, 1, 1, false},   {1, 1, 1, true},   {16, 16, 16, false}, {15, 16, 16, true}, {17, 17, 17, false},
    {16, 33, 15, true}, {3, 1, 100, false}, {100, 1, 3, true},  {2, 40, 40, false}, {64, 16, 64, false},
};
std::vector<net_shape> all_shapes() {
    std::vector<net_shape> v(std::begin(network_shapes), std::end(network_shapes));
    v.insert(v.end(), std::begin(edge_shapes), std::end(edge_shapes));
    return v;
}

}  // namespace

// --- results -------------------------------------------------------------------------

TEST(SaCompute, Int8OddShapesMatchTheReference) {
    E->h.run_job([] {
        std::size_t compared = 0;
        const std::uint32_t shapes[][3] = {{1, 1, 1}, {5, 17, 33}, {33, 7, 16}, {16, 16, 16}, {20, 35, 50}, {3, 48, 1}};
        unsigned seed = 1;
        for (const auto& s : shapes) compared += run_and_check(make(s[0], s[1], s[2], false), seed++);
        EXPECT_EQ(compared, 1u + 85 + 231 + 256 + 700 + 144);
    });
}

TEST(SaCompute, Int8ExtremesWrapLikeInt32) {
    E->h.run_job([] {
        // -128 * -128 * K stays in range; accumulate on INT32_MAX wraps.
        job j = make(2, 3, 40, false, true);
        std::vector<unsigned char> a(j.m * j.lda, 0x80), b(j.k * j.ldb, 0x80);
        std::vector<std::int32_t> c(j.m * j.n, 0x7FFFFFFF);
        put(j.a, a.data(), a.size());
        put(j.b, b.data(), b.size());
        put(j.c, c.data(), c.size() * 4);
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
        std::vector<std::int32_t> got(c.size());
        get(j.c, got.data(), got.size() * 4);
        const std::int32_t want = static_cast<std::int32_t>(0x7FFFFFFFu + 40u * 16384u);
        for (auto v : got) EXPECT_EQ(v, want);
    });
}

TEST(SaCompute, Fp32OddShapesAreBitExactInTheDocumentedOrder) {
    E->h.run_job([] {
        std::size_t compared = 0;
        const std::uint32_t shapes[][3] = {{1, 1, 1}, {7, 19, 37}, {17, 16, 16}, {9, 33, 65}};
        unsigned seed = 100;
        for (const auto& s : shapes) compared += run_and_check(make(s[0], s[1], s[2], true), seed++);
        EXPECT_EQ(compared, 1u + 133 + 272 + 297);
    });
}

TEST(SaCompute, Fp32OrderMatters) {
    // The reference is sensitive to order: a sum in another order differs on
    // these operands, so the bit-exact test above can fail.
    E->h.run_job([] {
        job j = make(1, 1, 3, true);
        const float a[3] = {1.0f, 1.0f, 1.0f}, b[3] = {1e8f, 1.0f, -1e8f};
        put(j.a, a, sizeof a);
        put(j.b, b, sizeof b);
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        reg_read(NPU_SA_WAIT);
        float c = -1;
        get(j.c, &c, 4);
        EXPECT_EQ(c, 0.0f) << "k ascending: (1e8 + 1) rounds to 1e8, then - 1e8";
        EXPECT_NE(c, (b[0] + b[2]) + b[1]);
    });
}

TEST(SaCompute, AccumulateAddsToCBothDtypes) {
    E->h.run_job([] {
        std::size_t compared = run_and_check(make(13, 21, 18, false, true), 7);
        compared += run_and_check(make(13, 21, 18, true, true), 8);
        EXPECT_EQ(compared, 2u * 13 * 21);
    });
}

TEST(SaCompute, PaddedStridesAreHonouredAndPaddingUntouched) {
    E->h.run_job([] {
        std::size_t compared = run_and_check(make(11, 9, 23, false, false, 5), 11);
        compared += run_and_check(make(11, 9, 23, true, true, 3), 12);
        EXPECT_EQ(compared, 2u * 11 * 9);
    });
}

TEST(SaCompute, TheGenericAndAvx2VariantsRunTheirMacLoops) {
    // The generic. and avx2. variants (--sa-kernels) are worth something only
    // if the TLM engine runs those loops: not the AVX-512 ones it picks here.
    const char* k = std::getenv("NPU_SA_KERNELS");
    if (!k) GTEST_SKIP() << "the TLM engine's own choice: " << accel::sa_tlm_kernels();
    const std::string wanted = k, got = accel::sa_tlm_kernels();
    if (wanted == "generic")
        EXPECT_EQ(got, "generic");
    else
        EXPECT_TRUE(got == "avx2" || (got == "generic" && !__builtin_cpu_supports("avx2"))) << got;
}

TEST(SaCompute, TrafficGoesThroughTheSaMasterToL1Only) {
    E->h.run_job([] {
        job j = make(20, 20, 20, false);
        run_and_check(j, 21);
        const int l1 = E->l1.traffic_id(), l2 = E->l2.traffic_id();
        // A is read once per N tile (2), B once, C written once; by each
        // engine with sa.model=compare.
        const std::uint64_t engines = test_config().choice("sa.model") == "compare" ? 2 : 1;
        EXPECT_EQ(E->sa.bus.traffic().read_bytes[l1], engines * (2u * 20 * 20 + 20u * 20));
        EXPECT_EQ(E->sa.bus.traffic().write_bytes[l1], engines * 20u * 20 * 4);
        EXPECT_EQ(E->sa.bus.traffic().read_bytes[l2], 0u);
    });
}

// --- timing --------------------------------------------------------------------------

TEST(SaCycles, ClosedFormByHand) {
    // R = C = 16, setup 8, 64 B/cycle. compute/tile = R + (M + R + C - 2).
    accel::sa_geometry g{16, 16, 8, 64};
    auto cyc = [&](std::uint32_t m, std::uint32_t n, std::uint32_t k, bool fp32, bool acc) {
        accel::sa_job j;
        j.m = m, j.n = n, j.k = k, j.fp32 = fp32, j.accumulate = acc;
        return accel::sa_job_cycles(j, g);
    };
    // int8 64x16x16: one tile, compute 16+94 = 110; bytes 256+1024+4096 = 5376 -> 84.
    EXPECT_EQ(cyc(64, 16, 16, false, false).total, 8u + 110);
    EXPECT_EQ(cyc(64, 16, 16, false, false).stall, 0u);
    // int8 1x1x1: compute 16 + 31 = 47.
    EXPECT_EQ(cyc(1, 1, 1, false, false).total, 8u + 47);
    // fp32 64x16x16: bytes 1024+4096+4096 = 9216 -> 144 > 110: L1-bound.
    EXPECT_EQ(cyc(64, 16, 16, true, false).total, 8u + 144);
    EXPECT_EQ(cyc(64, 16, 16, true, false).stall, 144u - 110);
    // int8 8x40x20: 3 N tiles x 2 K tiles, compute 16+8+30 = 54 each, memory below.
    EXPECT_EQ(cyc(8, 40, 20, false, false).total, 8u + 6 * 54);
    EXPECT_EQ(cyc(8, 40, 20, false, false).tiles, 6u);
    // fp32 accumulate 100x16x16: bytes 1024 + 6400 + 6400 + 6400 = 20224 -> 316 > 146.
    EXPECT_EQ(cyc(100, 16, 16, true, true).total, 8u + 316);
    EXPECT_EQ(cyc(100, 16, 16, true, true).compute, 146u);
}

TEST(SaCycles, DoubleBufferedClosedFormByHand) {
    accel::sa_geometry g{16, 16, 8, 64, 2};
    auto cyc = [&](std::uint32_t m, std::uint32_t n, std::uint32_t k, bool fp32) {
        accel::sa_job j;
        j.m = m, j.n = n, j.k = k, j.fp32 = fp32;
        return accel::sa_job_cycles(j, g);
    };
    // One tile: nothing to overlap, the single-buffered figure.
    EXPECT_EQ(cyc(1, 1, 1, false).total, 8u + 47);
    EXPECT_EQ(cyc(64, 16, 16, false).total, 8u + 110);
    // int8 4x64x784 (an MLP layer): 49 x 4 = 196 tiles. First 16 + 4, then
    // (16 - 4) + 4 = 16 each, the last + 30 drain: 20 + 195 * 16 + 30 = 3170;
    // memory at most ceil((256 + 64 + 256) / 64) = 9. Single-buffered 8 + 196 * 50 = 9808 (3.09x).
    EXPECT_EQ(cyc(4, 64, 784, false).total, 8u + 3170);
    // int8 64x16x64 (M >= R: the fill hides entirely): 4 K tiles, 16 + 64,
    // 64, 64, 64 + 30 = 302; memory 20, 20, 20, ceil(5376 / 64) = 84.
    EXPECT_EQ(cyc(64, 16, 64, false).total, 8u + 302);
    EXPECT_EQ(cyc(64, 16, 64, false).stall, 0u);
    // fp32 4x16x32: 2 tiles, 16 + 4 = 20 and 12 + 4 + 30 = 46; memory
    // ceil((1024 + 256) / 64) = 20 and ceil((1024 + 256 + 256) / 64) = 24.
    EXPECT_EQ(cyc(4, 16, 32, true).total, 8u + 66);
    // fp32 4x16x48: the middle tile is 16 compute, 20 memory: 4 stall cycles.
    EXPECT_EQ(cyc(4, 16, 48, true).total, 8u + 20 + 20 + 46);
    EXPECT_EQ(cyc(4, 16, 48, true).stall, 4u);
}

TEST(SaCycles, TheModelIsTheDocFormulaOnEveryNetworkAndEdgeShape) {
    std::size_t checked = 0;
    for (std::uint64_t buffers : {1u, 2u})
        for (const net_shape& s : all_shapes())
            for (bool acc : {false, true}) {
                accel::sa_geometry g{16, 16, 8, 64, buffers};
                accel::sa_job j;
                j.m = s.m, j.n = s.n, j.k = s.k, j.fp32 = s.fp32, j.accumulate = acc;
                const job t = make(s.m, s.n, s.k, s.fp32, acc);
                EXPECT_EQ(accel::sa_job_cycles(j, g).total, expected_cycles(t, 16, 16, 64, 8, buffers))
                    << s.m << "x" << s.n << "x" << s.k << " fp32=" << s.fp32 << " acc=" << acc
                    << " buffers=" << buffers;
                // Double buffering never costs cycles.
                if (buffers == 2) {
                    accel::sa_geometry g1 = g;
                    g1.weight_buffers = 1;
                    EXPECT_LE(accel::sa_job_cycles(j, g).total, accel::sa_job_cycles(j, g1).total);
                }
                ++checked;
            }
    EXPECT_EQ(checked, 2u * 2u * (std::size(network_shapes) + std::size(edge_shapes)));
}

TEST(SaCycles, NetworkAndEdgeShapesRunInTheFormulasCyclesWithExactResults) {
    // On the configured array (NPU_SA_WEIGHT_BUFFERS picks 1 or 2): results
    // against the reference and CYCLES, the done time and WAIT against the formula.
    E->h.run_job([] {
        std::size_t compared = 0;
        unsigned seed = 100;
        for (const net_shape& s : all_shapes()) compared += run_and_check(make_packed(s.m, s.n, s.k, s.fp32), seed++);
        compared += run_and_check(make_packed(4, 112, 464, false, true), seed++);
        compared += run_and_check(make_packed(16, 4, 576, true, true), seed++);
        EXPECT_GT(compared, 100000u);
    });
}

TEST(SaConfig, WeightBuffersIsOneOrTwoAndTwoIsTheTlmEnginesOnly) {
    auto load_error = [](std::vector<std::string> o) -> std::string {
        try {
            const cfg::config c = cfg::config::load("", o);
            platform::make_systolic_array("sa_bad", c);  // the engine factory refuses before building
        } catch (const cfg::config_error& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_NE(load_error({"sa.weight_buffers=3"}).find("sa.weight_buffers: 3 is above the maximum 2"),
              std::string::npos);
    EXPECT_NE(load_error({"sa.weight_buffers=0"}).find("sa.weight_buffers: 0 is below the minimum 1"),
              std::string::npos);
    for (const char* model : {"rtl", "compare"}) {
        const std::string why = load_error({std::string("sa.model=") + model, "sa.weight_buffers=2"});
        EXPECT_NE(why.find(std::string("sa.model=") + model), std::string::npos) << why;
    }
}

TEST(SaCycles, OtherGeometriesFollowTheFormula) {
    for (const accel::sa_geometry g :
         {accel::sa_geometry{4, 8, 0, 8}, accel::sa_geometry{32, 8, 3, 16}, accel::sa_geometry{8, 32, 20, 128},
          accel::sa_geometry{4, 8, 0, 8, 2}, accel::sa_geometry{32, 8, 3, 16, 2}, accel::sa_geometry{8, 32, 20, 128, 2}})
        for (std::uint32_t m : {1u, 7u, 64u})
            for (std::uint32_t n : {1u, 9u, 40u})
                for (std::uint32_t k : {1u, 31u, 33u})
                    for (bool fp32 : {false, true})
                        for (bool acc : {false, true}) {
                            accel::sa_job j;
                            j.m = m, j.n = n, j.k = k, j.fp32 = fp32, j.accumulate = acc;
                            job t{};
                            t.m = m, t.n = n, t.k = k, t.fp32 = fp32, t.accumulate = acc;
                            EXPECT_EQ(accel::sa_job_cycles(j, g).total,
                                      expected_cycles(t, g.rows, g.cols, g.port_bandwidth, g.setup_cycles,
                                                      g.weight_buffers))
                                << m << "x" << n << "x" << k << " fp32=" << fp32 << " acc=" << acc
                                << " buffers=" << g.weight_buffers;
                        }
}

TEST(SaCycles, JobsTakeExactlyTheFormulaAndCountStats) {
    E->h.run_job([] {
        std::uint64_t busy = 0, stall = 0, macs = 0;
        for (const job& j : {make(64, 16, 16, false), make(64, 16, 16, true), make(8, 40, 20, false),
                             make(100, 16, 16, true, true), make(37, 50, 70, false, true)}) {
            run_and_check(j, 31);  // checks CYCLES, the done time and WAIT
            busy += expected_cycles(j);
            accel::sa_job s;
            s.m = j.m, s.n = j.n, s.k = j.k, s.fp32 = j.fp32, s.accumulate = j.accumulate;
            stall += accel::sa_job_cycles(s, E->sa.geometry()).stall;
            macs += std::uint64_t(j.m) * j.n * j.k;
        }
        EXPECT_EQ(E->sa.busy_cycles(), busy);
        const auto& groups = E->ctx.stats().groups();
        auto stat = [&](const std::string& name) -> std::uint64_t {
            for (const auto& g : groups)
                if (g.owner == "sa")
                    for (const auto& v : g.values)
                        if (v.name == name) return *v.value;
            ADD_FAILURE() << "no stat sa." << name;
            return 0;
        };
        EXPECT_EQ(stat("jobs"), 5u);
        EXPECT_EQ(stat("macs"), macs);
        EXPECT_EQ(stat("busy_cycles"), busy);
        EXPECT_EQ(stat("stall_cycles"), stall);
        EXPECT_GT(stall, 0u);
        EXPECT_EQ(stat("errors"), 0u);
    });
}

TEST(SaTiming, StatusIsBusyUntilTheEndAsSeenByTheReadersLocalTime) {
    E->h.run_job([] {
        job j = make(64, 16, 16, false);
        const mats x = random_operands(j, 5);
        put(j.a, x.a.data(), x.a.size());
        put(j.b, x.b.data(), x.b.size());
        EXPECT_EQ(reg_read(NPU_SA_STATUS), 0u) << "idle before the first job";
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        const sc_time end = E->done_at.back();
        EXPECT_EQ(reg_read(NPU_SA_STATUS), NPU_SA_STATUS_BUSY);
        // Run ahead (decoupled) to just before the end, then just after.
        E->local = end - sc_core::sc_time_stamp() - sc_time(double(reg_latency + hop + 1), SC_NS);
        EXPECT_EQ(reg_read(NPU_SA_STATUS), NPU_SA_STATUS_BUSY);
        EXPECT_EQ(reg_read(NPU_SA_STATUS), NPU_SA_STATUS_DONE);
        // WAIT after the end returns at once (latency only).
        const sc_time before = now();
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
        EXPECT_EQ(now() - before, sc_time(double(reg_latency + hop), SC_NS));
        EXPECT_EQ(reg_read(NPU_SA_ROWS), 16u);
        EXPECT_EQ(reg_read(NPU_SA_COLS), 16u);
    });
}

TEST(SaTiming, WaitBlocksTheReaderInSystemCTime) {
    E->h.run_job([] {
        job j = make(100, 16, 16, true, false);
        const mats x = random_operands(j, 6);
        put(j.a, x.a.data(), x.a.size());
        put(j.b, x.b.data(), x.b.size());
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        const sc_time end = E->done_at.back();
        EXPECT_LT(sc_core::sc_time_stamp(), end);
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
        // The reader slept in SystemC time up to the end; its access then
        // took the register latency.
        EXPECT_EQ(sc_core::sc_time_stamp(), end);
        EXPECT_EQ(now(), end + sc_time(double(reg_latency), SC_NS));
    });
}

TEST(SaTiming, BackToBackJobsFromACoreRunningAhead) {
    // The core's local time is past job 1's end while SystemC time is not:
    // job 2 is accepted, and WAIT still sleeps exactly to job 2's end.
    E->h.run_job([] {
        job j1 = make(40, 16, 16, false), j2 = make(20, 30, 10, true);
        j2.a = l1_base() + 0x4000;
        j2.b = l1_base() + 0xC000;
        j2.c = l1_base() + 0x14000;
        const mats x1 = random_operands(j1, 41), x2 = random_operands(j2, 42);
        put(j1.a, x1.a.data(), x1.a.size());
        put(j1.b, x1.b.data(), x1.b.size());
        put(j2.a, x2.a.data(), x2.a.size());
        put(j2.b, x2.b.data(), x2.b.size());
        ASSERT_EQ(program(j1), tlm::TLM_OK_RESPONSE);
        const sc_time end1 = E->done_at.back();
        E->local = end1 - sc_core::sc_time_stamp() + sc_time(5, SC_NS);
        ASSERT_EQ(program(j2), tlm::TLM_OK_RESPONSE);
        const sc_time end2 = E->done_at.back();
        EXPECT_LT(sc_core::sc_time_stamp(), end1);
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
        EXPECT_EQ(sc_core::sc_time_stamp(), end2);
        std::vector<unsigned char> c1(x1.c.size()), c2(x2.c.size());
        get(j1.c, c1.data(), c1.size());
        get(j2.c, c2.data(), c2.size());
        EXPECT_EQ(c1, reference(j1, x1));
        EXPECT_EQ(c2, reference(j2, x2));
    });
}

// --- errors --------------------------------------------------------------------------

TEST(SaErrors, OperandAInL2IsABusErrorNamingANotVisible) {
    E->h.run_job([] {
        job j = make(4, 4, 4, false);
        j.a = l2_base() + 0x100;
        std::vector<unsigned char> a(16, 1);
        put(j.a, a.data(), a.size());  // the core sees L2; the SA does not
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->bus_errors.size(), 1u);
        const auto& e = E->bus_errors[0];
        EXPECT_EQ(e.who->cls, static_cast<int>(initiator_class::sa));
        EXPECT_EQ(e.who->name, "sa.bus");
        EXPECT_EQ(e.address, l2_base() + 0x100);
        EXPECT_FALSE(e.is_write);
        EXPECT_TRUE(e.has_pc);
        EXPECT_EQ(e.pc, 0x1C000123u) << "the PC that wrote START";
        EXPECT_NE(E->bus_error_decodes[0].find("not visible"), std::string::npos) << E->bus_error_decodes[0];
        EXPECT_NE(E->bus_error_decodes[0].find("l2"), std::string::npos) << E->bus_error_decodes[0];
        EXPECT_NE(e.context.find("operand   : A"), std::string::npos) << e.context;
        EXPECT_NE(e.context.find("C[4x4] = A[4x4] * B[4x4], int8 -> int32"), std::string::npos) << e.context;
        EXPECT_NE(e.context.find("A         : 0x1c000100, lda 4 B"), std::string::npos) << e.context;
        EXPECT_NE(e.context.find("started by: hart 8 (test)\n"), std::string::npos) << e.context;
        EXPECT_TRUE(E->ctx.services().stop_requested());
        EXPECT_EQ(E->ctx.services().stop_code(), base::exit_code::bus_error);
        EXPECT_EQ(reg_read(NPU_SA_ERR_ADDR), l2_base() + 0x100);
        EXPECT_EQ(reg_read(NPU_SA_ERR_INFO), NPU_SA_ERR_OPERAND_A | NPU_SA_ERR_NOT_VISIBLE);
        EXPECT_EQ(E->error_at.size(), 1u);
        EXPECT_TRUE(E->done_at.empty());
    });
}

TEST(SaErrors, NullCIsABusErrorOnTheWriteOfC) {
    E->h.run_job([] {
        job j = make(3, 5, 7, true);
        j.c = 0;
        const mats x = random_operands(j, 3);
        put(j.a, x.a.data(), x.a.size());
        put(j.b, x.b.data(), x.b.size());
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->bus_errors.size(), 1u);
        const auto& e = E->bus_errors[0];
        EXPECT_EQ(e.address, 0u);
        EXPECT_TRUE(e.is_write);
        EXPECT_NE(E->bus_error_decodes[0].find("unmapped"), std::string::npos) << E->bus_error_decodes[0];
        EXPECT_NE(e.context.find("operand   : C (write of row 0"), std::string::npos) << e.context;
        EXPECT_NE(e.context.find("fp32 -> fp32"), std::string::npos) << e.context;
        EXPECT_EQ(reg_read(NPU_SA_ERR_INFO), NPU_SA_ERR_OPERAND_C | NPU_SA_ERR_WRITE);
        // C is written at the end of the only tile: the fault comes then.
        EXPECT_EQ(reg_read(NPU_SA_CYCLES), expected_cycles(j));
    });
}

// The bus error is the row's access (its start and length: the report says
// where in it L1 ends); ERR_ADDR names the first byte outside.
TEST(SaErrors, BStraddlingTheEndOfL1NamesTheFirstByteOutside) {
    E->h.run_job([] {
        job j = make(2, 16, 3, false);
        j.b = l1_base() + 0x20000 - 16 * 2 - 8;  // row 2 runs 8 bytes past L1
        std::vector<unsigned char> b(40, 2);
        put(j.b, b.data(), b.size());
        std::vector<unsigned char> a(6, 1);
        put(j.a, a.data(), a.size());
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        ASSERT_EQ(E->bus_errors.size(), 1u);
        EXPECT_EQ(E->bus_errors[0].address, l1_base() + 0x20000 - 8);
        EXPECT_EQ(E->bus_errors[0].size, 16u);
        EXPECT_NE(E->bus_errors[0].context.find("operand   : B (read of row 2"), std::string::npos)
            << E->bus_errors[0].context;
        EXPECT_EQ(reg_read(NPU_SA_ERR_ADDR), l1_base() + 0x20000);
        EXPECT_EQ(reg_read(NPU_SA_ERR_INFO), NPU_SA_ERR_OPERAND_B);
    });
}

TEST(SaErrors, WithoutStopTheJobAbortsWithErrorStatusAndEvent) {
    E->sa.stop_on_error = false;
    E->h.run_job([] {
        job j = make(4, 4, 4, false);
        j.a = l2_base();
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        EXPECT_TRUE(E->bus_errors.empty());
        EXPECT_FALSE(E->ctx.services().stop_requested());
        ASSERT_EQ(E->error_at.size(), 1u);
        EXPECT_TRUE(E->done_at.empty());
        // The fault comes with the first tile's reads, after the setup.
        const sc_time t0 = now() - sc_time(double(reg_latency), SC_NS);
        EXPECT_EQ(E->error_at[0], t0 + sc_time(double(setup), SC_NS));
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_ERROR);
        EXPECT_EQ(reg_read(NPU_SA_ERR_INFO), NPU_SA_ERR_OPERAND_A | NPU_SA_ERR_NOT_VISIBLE);
        EXPECT_EQ(reg_read(NPU_SA_CYCLES), setup);
        // The SA is usable again: a good job clears the error.
        run_and_check(make(5, 6, 7, false), 9);
        EXPECT_EQ(reg_read(NPU_SA_STATUS), NPU_SA_STATUS_DONE);
        EXPECT_EQ(reg_read(NPU_SA_ERR_INFO), 0u);
    });
}

TEST(SaErrors, BadRegisterAccessesAreBusErrors) {
    E->h.run_job([] {
        tlm::tlm_response_status st;
        reg_read(0x100, &st);
        EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE) << "unclaimed offset";
        reg_read(NPU_SA_START, &st);
        EXPECT_EQ(st, tlm::TLM_COMMAND_ERROR_RESPONSE) << "START is write-only";
        EXPECT_EQ(reg_write(NPU_SA_STATUS, 1), tlm::TLM_COMMAND_ERROR_RESPONSE) << "STATUS is read-only";
        EXPECT_EQ(reg_write(NPU_SA_WAIT, 1), tlm::TLM_COMMAND_ERROR_RESPONSE) << "WAIT is read-only";
        EXPECT_EQ(reg_write(NPU_SA_ROWS, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
        std::uint8_t byte = 1;
        EXPECT_EQ(cc().write(sa_base() + NPU_SA_M, byte, E->local), tlm::TLM_COMMAND_ERROR_RESPONSE) << "byte access";
        std::uint32_t v = 0;
        EXPECT_EQ(cc().write(sa_base() + NPU_SA_M + 2, v, E->local), tlm::TLM_COMMAND_ERROR_RESPONSE) << "misaligned";
        EXPECT_EQ(E->sa.busy_cycles(), 0u) << "nothing started";
    });
}

TEST(SaErrors, StartWhileBusyIsRefusedAndTheRunningJobCompletes) {
    E->h.run_job([] {
        job j = make(30, 20, 25, false);
        const mats x = random_operands(j, 17);
        put(j.a, x.a.data(), x.a.size());
        put(j.b, x.b.data(), x.b.size());
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        reg_write(NPU_SA_M, 1);  // job registers are latched: this does not change the running job
        EXPECT_EQ(reg_write(NPU_SA_START, 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_EQ(reg_read(NPU_SA_STATUS), NPU_SA_STATUS_BUSY);
        EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
        EXPECT_EQ(E->done_at.size(), 1u);
        std::vector<unsigned char> got(std::size_t(j.m) * j.ldc);
        get(j.c, got.data(), got.size());
        EXPECT_EQ(got, reference(j, x));
        // Once it has ended, START is accepted again.
        EXPECT_EQ(reg_write(NPU_SA_START, 1), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->done_at.size(), 2u);
    });
}

TEST(SaErrors, InvalidJobsAreRefused) {
    E->h.run_job([] {
        job j = make(4, 4, 4, false);
        j.m = 0;
        EXPECT_EQ(program(j), tlm::TLM_COMMAND_ERROR_RESPONSE) << "M = 0";
        j = make(4, 4, 4, false);
        j.k = 0x10000;
        j.lda = 0x10000;
        EXPECT_EQ(program(j), tlm::TLM_COMMAND_ERROR_RESPONSE) << "K > 65535";
        j = make(4, 4, 4, false);
        j.ldc = 15;
        EXPECT_EQ(program(j), tlm::TLM_COMMAND_ERROR_RESPONSE) << "LDC shorter than a row of C";
        j = make(4, 4, 4, true);
        j.lda = 8;
        EXPECT_EQ(program(j), tlm::TLM_COMMAND_ERROR_RESPONSE) << "LDA shorter than a row of fp32 A";
        EXPECT_EQ(reg_read(NPU_SA_STATUS), 0u);
        EXPECT_TRUE(E->done_at.empty());
        EXPECT_TRUE(E->bus_errors.empty());
    });
}

TEST(SaErrors, NeverWrittenOperandIsAMemcheckFindingOfTheSa) {
    E->h.run_job([] {
        job j = make(4, 4, 4, false);
        j.b = l1_base() + 0x18000;  // nobody wrote here
        std::vector<unsigned char> a(16, 1);
        put(j.a, a.data(), a.size());
        ASSERT_EQ(program(j), tlm::TLM_OK_RESPONSE);
        ASSERT_GE(E->memcheck.size(), 1u);
        const auto& m = E->memcheck[0];
        EXPECT_EQ(m.who->cls, static_cast<int>(initiator_class::sa));
        EXPECT_EQ(m.address, l1_base() + 0x18000);
        EXPECT_TRUE(m.has_pc);
        EXPECT_EQ(m.pc, 0x1C000123u);
    });
}

// --- the L1 port in the SoC's bank calendar (docs/sa.md; the RTL engine's too, docs/cosim.md) ---

base::l1_bank_calendar& l1_banks() { return E->ctx.context().shared<base::l1_bank_calendar>(); }
std::uint64_t cycle_of(const sc_time& t) { return static_cast<std::uint64_t>(std::llround(t / sc_time(1, SC_NS))); }

// Places the operands, starts `j` and waits for it; returns its CYCLES and
// sets `t0` to START's arrival. C is checked against the reference.
std::uint64_t run_timed(const job& j, unsigned seed, sc_time& t0, const std::function<void()>& before_start = {}) {
    const mats x = random_operands(j, seed);
    put(j.a, x.a.data(), x.a.size());
    put(j.b, x.b.data(), x.b.size());
    put(j.c, x.c.data(), x.c.size());
    if (before_start) before_start();
    EXPECT_EQ(program(j), tlm::TLM_OK_RESPONSE);
    t0 = now() - sc_time(double(reg_latency), SC_NS);
    EXPECT_EQ(reg_read(NPU_SA_WAIT), NPU_SA_STATUS_DONE);
    std::vector<unsigned char> got(x.c.size());
    get(j.c, got.data(), got.size());
    EXPECT_EQ(got, reference(j, x)) << "C differs from the reference";
    return reg_read(NPU_SA_CYCLES);
}

TEST(SaPort, TheJobBooksEveryWordItMovesInTheL1Banks) {
    E->h.run_job([] {
        // fp32 64x16x16, every row 64 B aligned: one row per cycle on all 16
        // banks; 16 rows of B, 64 of A, 64 of C: 144 cycles of the port.
        const job j = make(64, 16, 16, true);
        sc_time t0;
        EXPECT_EQ(run_timed(j, 51, t0), expected_cycles(j)) << "alone, the closed form";
        const std::uint64_t first = cycle_of(t0) + setup;
        std::uint64_t booked = 0;
        for (std::uint64_t c = first; c < first + 144; ++c)
            for (unsigned b = 0; b < 16; ++b) booked += l1_banks().banks.reserve(b, c) != c;
        EXPECT_EQ(booked, 144u * 16u) << "bank-cycles of the job's stream another initiator could still take";
    });
}

TEST(SaPort, AJobLongerThanTheBankCalendarGrowsItAndKeepsItsBookings) {
    // int8 16x32x1024: 128 weight tiles of 62 compute cycles, about 8 K
    // cycles, and 50 KiB of operands in L1.
    const job longer = make_packed(16, 32, 1024, false);
    const std::uint64_t ring = l1_banks().banks.ring_cycles();
    if (expected_cycles(longer) < ring) GTEST_SKIP() << "a ring of " << ring << " cycles (the q1us. variant: --override=soc.quantum=1us)";
    if (test_config().count("sa.weight_buffers") != 1) GTEST_SKIP() << "the tiles' cycles below are weight_buffers=1's";
    E->h.run_job([&] {
        auto past_calendar = [] {
            for (const auto& g : E->ctx.stats().groups())
                if (g.owner == "sa")
                    for (const auto& v : g.values)
                        if (v.name == "jobs_past_calendar") return *v.value;
            ADD_FAILURE() << "no stat sa.jobs_past_calendar";
            return std::uint64_t{0};
        };
        sc_time t0;
        const job shorter = make(64, 16, 16, false);
        ASSERT_LT(run_timed(shorter, 54, t0), ring);
        EXPECT_EQ(l1_banks().banks.ring_cycles(), ring) << "a job shorter than the ring leaves it";
        const std::uint64_t cycles = run_timed(longer, 55, t0);
        EXPECT_GE(cycles, ring);
        // The ring grew to two quanta plus twice the job (alone).
        EXPECT_GE(l1_banks().banks.ring_cycles(), l1_banks().banks.window() / 2 + 2 * expected_cycles(longer));
        EXPECT_EQ(past_calendar(), 0u) << "the job fit the grown ring";
        // Its stream's first tiles are still booked: in a ring of the old
        // length (4 Ki cycles) its bookings a ring later would have taken
        // their cells. Every tile takes 62 cycles (compute-bound), and tiles
        // 64 to 79 (the second column of weight tiles) repeat tiles 0 to 15:
        // both stretches have the same bank-cycles taken. Each bank walked
        // once over a stretch: the cycles a booking skips are the taken ones.
        ASSERT_EQ(cycles, setup + 128 * 62);
        const std::uint64_t first = cycle_of(t0) + setup;
        auto taken = [&](std::uint64_t from, std::uint64_t to) {
            std::uint64_t n = 0;
            for (unsigned b = 0; b < 16; ++b)
                for (std::uint64_t c = from; c < to;) {
                    const std::uint64_t got = l1_banks().banks.reserve(b, c);
                    n += std::min(got, to) - c;
                    c = got + 1;
                }
            return n;
        };
        const std::uint64_t later = taken(first + 64 * 62, first + 80 * 62);
        EXPECT_GT(later, 0u);
        EXPECT_EQ(taken(first, first + 16 * 62), later) << "bank-cycles taken in the job's first 16 tiles";
    });
}

TEST(SaPort, AStreamThatWaitsPastTheRingGrowsItAndKeepsEveryBooking) {
    const std::uint64_t ring = l1_banks().banks.ring_cycles();
    if (ring > 8192) GTEST_SKIP() << "a ring of " << ring << " cycles (the q1us. variant: --override=soc.quantum=1us)";
    E->h.run_job([&] {
        // Every bank held from before START until 50 cycles short of a ring
        // later (as initiators that booked them first): the job, short
        // alone (its START leaves the ring as it is), waits that long and
        // books its 144-cycle stream from there, past a ring after the
        // first held cycle. Without growing on the way its bookings a ring
        // later took the cells of the first held cycles and dropped them.
        sc_time t0;
        const job f = make(64, 16, 16, true);
        const std::uint64_t alone = run_timed(f, 56, t0);
        ASSERT_EQ(alone, expected_cycles(f));
        ASSERT_EQ(l1_banks().banks.ring_cycles(), ring) << "a short job leaves the ring";
        std::uint64_t from = 0;
        const std::uint64_t block = ring - 50;
        const std::uint64_t slowed = run_timed(f, 57, t0, [&] {
            from = cycle_of(now());
            for (std::uint64_t c = from; c < from + block; ++c)
                for (unsigned b = 0; b < 16; ++b) l1_banks().banks.reserve(b, c);
        });
        const std::uint64_t first_tile = cycle_of(t0) + setup;
        EXPECT_EQ(slowed, alone + (from + block - first_tile));
        EXPECT_GT(l1_banks().banks.ring_cycles(), ring) << "the ring grew on the way";
        // The stream's last cycles lie a ring past the first held ones,
        // which are all still held (the cycles a booking skips are taken).
        ASSERT_GT(from + block + 144, from + ring + 64);
        std::uint64_t held = 0;
        for (unsigned b = 0; b < 16; ++b)
            for (std::uint64_t c = from; c < from + 64; ++c) held += l1_banks().banks.reserve(b, c) != c;
        EXPECT_EQ(held, 16u * 64u) << "bank-cycles held before START that the job's later bookings dropped";
    });
}

TEST(SaPort, BankCyclesBookedBeforeStartDelayTheStream) {
    E->h.run_job([] {
        // Every bank held from before START until `hold` cycles into the
        // job's first tile (as a DMA that booked them first): the stream
        // starts that much later. Memory-bound fp32 (144 port cycles, 110
        // compute) takes all of it; compute-bound int8 (84 port cycles, 110
        // compute) hides up to 26 cycles of it.
        sc_time t0;
        const job f = make(64, 16, 16, true);
        const std::uint64_t alone = run_timed(f, 52, t0);
        ASSERT_EQ(alone, expected_cycles(f));
        std::uint64_t from = 0;
        const std::uint64_t block = 300;
        const std::uint64_t slowed = run_timed(f, 53, t0, [&] {
            from = cycle_of(now());
            for (std::uint64_t c = from; c < from + block; ++c)
                for (unsigned b = 0; b < 16; ++b) l1_banks().banks.reserve(b, c);
        });
        const std::uint64_t first_tile = cycle_of(t0) + setup;
        ASSERT_GT(from + block, first_tile + 20);
        EXPECT_EQ(slowed, alone + (from + block - first_tile));

        // START arrives as many cycles after the booking as above.
        const std::uint64_t start_after_booking = first_tile - from;
        const job i8 = make(64, 16, 16, false);
        ASSERT_EQ(run_timed(i8, 54, t0), expected_cycles(i8));
        for (const std::uint64_t wait : {20u, 40u}) {
            const std::uint64_t got = run_timed(i8, 55, t0, [&] {
                from = cycle_of(now());
                for (std::uint64_t c = from; c < from + start_after_booking + wait; ++c)
                    for (unsigned b = 0; b < 16; ++b) l1_banks().banks.reserve(b, c);
            });
            ASSERT_EQ(cycle_of(t0) + setup, from + start_after_booking) << "START moved";
            // max(compute 110, port 84 + wait)
            EXPECT_EQ(got, expected_cycles(i8) + (84 + wait > 110 ? 84 + wait - 110 : 0)) << "wait " << wait;
        }
    });
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    // What gtest left: the variant (tests/accel/CMakeLists.txt).
    //   --override=KEY=VALUE  a config override of every case (test_overrides)
    //   --sa-kernels=NAME     the TLM engine's MAC loops (NPU_SA_KERNELS: generic|avx2)
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--override=", 0) == 0 && a.find('=', 11) != std::string::npos)
            variant_overrides().push_back(a.substr(11));
        else if (a.rfind("--sa-kernels=", 0) == 0)
            setenv("NPU_SA_KERNELS", a.c_str() + 13, 1);
        else {
            std::fprintf(stderr, "sa_test: unknown argument '%s' (--override=KEY=VALUE, --sa-kernels=NAME)\n", argv[i]);
            return 2;
        }
    }
    variant_taken = true;
    test::fail_on_systemc_reports();
    env e;
    E = &e;
    return RUN_ALL_TESTS();
}
