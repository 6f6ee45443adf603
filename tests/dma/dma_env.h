// A small SoC for DMA unit tests: router, L1/L2/L3, the DMA engine and a
// harness with a core-class master (hart 8, programs the registers) and a
// loader-class master (fills and checks memory through debug transport).
// Timing is made easy to reason about: 1 GHz, no router hop, no register
// latency, L2 8 B/cycle, L3 4 B/cycle, both latency 1, 64 B bursts with 2
// cycles of burst latency.
#pragma once

#include "dma/dma.h"
#include "dma/dma_regs.h"
#include "interconnect/router.h"
#include "memory/memory.h"
#include "util/harness.h"

#include "base/sim_services.h"

#include <string>
#include <utility>
#include <vector>

namespace npu::test {

inline std::vector<std::string> dma_test_config(std::vector<std::string> extra) {
    std::vector<std::string> o = {"soc.cluster_clock=1GHz", "interconnect.hop_latency=0",
                                  "dma_ctrl.latency=0",     "l1.latency=1",
                                  "l1.bandwidth=8B",        "l2.latency=1",
                                  "l2.bandwidth=8B",        "l3.latency=1",
                                  "l3.bandwidth=4B",        "dma.burst_size=64B",
                                  "dma.burst_latency=2",    "dma.channels=4",
                                  "soc.memcheck=warn",      "l3.interface=port",
                                  "dma.startup_latency=0",  "dma.l1_width=8B"};
    o.insert(o.end(), extra.begin(), extra.end());
    return o;
}

struct dma_env {
    cfg::config cfg;
    cfg::memory_map map;
    test_context ctx{"ctx", cfg};
    harness h{"h",
              {{"cc", static_cast<int>(cfg::initiator_class::core), 8},
               {"loader", static_cast<int>(cfg::initiator_class::loader)}}};
    std::unique_ptr<interconnect::router> router;
    std::unique_ptr<memory::memory> l1, l2, l3;
    std::unique_ptr<dma::dma> engine;
    std::vector<std::pair<unsigned, sc_core::sc_time>> done, errors;
    std::vector<base::memcheck_info> findings;
    std::vector<base::bus_error_info> bus_errors;
    std::uint32_t base = 0;
    // The DMA's event lines, recorded with the time each pulse lands.
    line_probe done_line{"done_line",
                         [this](unsigned id, bool, const sc_core::sc_time& at) { done.emplace_back(id, at); }};
    line_probe error_line{"error_line",
                          [this](unsigned id, bool, const sc_core::sc_time& at) { errors.emplace_back(id, at); }};

    explicit dma_env(const std::vector<std::string>& extra)
        : cfg(cfg::config::load("", dma_test_config(extra))), map(cfg::memory_map::build(cfg)) {
        auto& svc = ctx.services();  // soc.memcheck=warn
        svc.on_memcheck = [this](const base::memcheck_info& m) {
            findings.push_back(m);
            return false;
        };
        svc.on_bus_error = [this](const base::bus_error_info& e) { bus_errors.push_back(e); };
        svc.describe_address = [this](int cls, std::uint64_t a) {
            return map.lookup(static_cast<cfg::initiator_class>(cls), a).describe();
        };
        router = std::make_unique<interconnect::router>("router", cfg, map);
        l1 = std::make_unique<memory::memory>("l1", cfg, "l1");
        l2 = std::make_unique<memory::memory>("l2", cfg, "l2");
        l3 = std::make_unique<memory::memory>("l3", cfg, "l3");
        engine = std::make_unique<dma::dma>("dma", cfg);
        router->bind_initiator(h.master(0).socket, cfg::initiator_class::core);
        router->bind_initiator(h.master(1).socket, cfg::initiator_class::loader);
        for (unsigned c = 0; c < engine->channels(); ++c)
            router->bind_initiator(engine->master(c).socket, cfg::initiator_class::dma);
        router->bind_target(l1->socket, "l1");
        router->bind_target(l2->socket, "l2");
        router->bind_target(l3->socket, "l3");
        router->bind_target(engine->socket, "dma_ctrl");
        engine->done.bind(done_line.in);
        engine->error.bind(error_line.in);
        base = cfg.address("dma_ctrl.base");
    }

    // Forget hook calls and findings of earlier cases (a standalone run of
    // the executable runs every case in one elaboration).
    void clear() {
        done.clear();
        errors.clear();
        findings.clear();
        bus_errors.clear();
    }

    std::uint32_t l1_base() const { return cfg.address("l1.base"); }
    std::uint32_t l2_base() const { return cfg.address("l2.base"); }
    std::uint32_t l3_base() const { return cfg.address("l3.base"); }

    // Register access as hart 8 would do it (inside a harness job).
    tlm::tlm_response_status wr_status(std::uint32_t off, std::uint32_t v) {
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        return h.master(0).write(base + off, v, d);
    }
    void wr(std::uint32_t off, std::uint32_t v) { EXPECT_EQ(wr_status(off, v), tlm::TLM_OK_RESPONSE) << off; }
    std::uint32_t rd(std::uint32_t off) {
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        std::uint32_t v = 0;
        EXPECT_EQ(h.master(0).read(base + off, v, d), tlm::TLM_OK_RESPONSE) << off;
        return v;
    }

    std::uint32_t copy_1d(std::uint32_t dst, std::uint32_t src, std::uint32_t len) {
        wr(NPU_DMA_SRC, src);
        wr(NPU_DMA_DST, dst);
        wr(NPU_DMA_LEN, len);
        return rd(NPU_DMA_PUSH_1D);
    }
    std::uint32_t copy_2d(std::uint32_t dst, std::uint32_t src, std::uint32_t len, std::uint32_t rows,
                          std::uint32_t src_stride, std::uint32_t dst_stride) {
        wr(NPU_DMA_SRC_STRIDE_2D, src_stride);
        wr(NPU_DMA_DST_STRIDE_2D, dst_stride);
        wr(NPU_DMA_COUNT_2D, rows);
        wr(NPU_DMA_SRC, src);
        wr(NPU_DMA_DST, dst);
        wr(NPU_DMA_LEN, len);
        return rd(NPU_DMA_PUSH_2D);
    }

    // Memory through the loader's debug port (no timing, marks memcheck).
    void fill(std::uint32_t a, const std::vector<unsigned char>& bytes) {
        ASSERT_EQ(h.master(1).debug_write(a, bytes.data(), static_cast<unsigned>(bytes.size())), bytes.size());
    }
    std::vector<unsigned char> peek(std::uint32_t a, unsigned n) {
        std::vector<unsigned char> v(n);
        EXPECT_EQ(h.master(1).debug_read(a, v.data(), n), n);
        return v;
    }

    std::uint64_t stat(const std::string& name) const {
        for (const auto& g : ctx.context().stats.groups())
            if (g.owner == "dma")
                for (const auto& v : g.values)
                    if (v.name == name) return *v.value;
        ADD_FAILURE() << "no dma stat " << name;
        return 0;
    }
};

// A recognisable byte pattern: address-dependent, never all zero.
inline std::vector<unsigned char> pattern(unsigned n, unsigned seed) {
    std::vector<unsigned char> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = static_cast<unsigned char>((i * 7 + seed * 13 + (i >> 8)) ^ 0x5A);
    return v;
}

}  // namespace npu::test
