// The pin-level TCDM bridge on an sc_clock: a master driving req/addr/we/
// be/wdata through sc_signals (as a Verilated block's pins would) writes and
// reads L1 through the router, byte enables select the bytes, and an address
// outside the initiator's view answers err — at the rising edge's time.
#include "tcdm_bridge.h"

#include "interconnect/router.h"
#include "memory/memory.h"
#include "util/harness.h"

#include <gtest/gtest.h>

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

struct env {
    const cfg::config cfg = cfg::config::load("", {"soc.cluster_clock=1GHz", "soc.memcheck=off"});
    cfg::memory_map map = cfg::memory_map::build(cfg);
    test::test_context ctx{"ctx", cfg};
    test::harness h{"h", {{"rtl", static_cast<int>(cfg::initiator_class::sa), -1}}};
    interconnect::router router{"router", cfg, map};
    memory::memory l1{"l1", cfg, "l1"}, l2{"l2", cfg, "l2"};
    sc_core::sc_clock clk{"clk", sc_time(1, SC_NS)};
    sc_core::sc_signal<bool> req{"req"}, we{"we"}, gnt{"gnt"}, rvalid{"rvalid"}, err{"err"};
    sc_core::sc_signal<std::uint32_t> addr{"addr"}, be{"be"}, wdata{"wdata"}, rdata{"rdata"};
    rtl::tcdm_bridge_sc bridge{"bridge", h.master(0)};

    env() {
        router.bind_initiator(h.master(0).socket, cfg::initiator_class::sa);
        router.bind_target(l1.socket, "l1");
        router.bind_target(l2.socket, "l2");
        bridge.clk(clk);
        bridge.req(req);
        bridge.addr(addr);
        bridge.we(we);
        bridge.be(be);
        bridge.wdata(wdata);
        bridge.gnt(gnt);
        bridge.rvalid(rvalid);
        bridge.rdata(rdata);
        bridge.err(err);
    }
};
env* E;

// One request as an RTL master makes it: raise req before a rising edge,
// drop it after the grant, take the answer at the next edge.
struct answer {
    std::uint32_t rdata;
    bool err;
};
answer request(std::uint32_t a, bool write, std::uint32_t be, std::uint32_t wdata = 0) {
    sc_core::wait(E->clk.negedge_event());
    E->req = true;
    E->addr = a;
    E->we = write;
    E->be = be;
    E->wdata = wdata;
    sc_core::wait(E->clk.posedge_event());
    sc_core::wait(sc_core::SC_ZERO_TIME);
    EXPECT_TRUE(E->gnt.read());
    sc_core::wait(E->clk.negedge_event());
    E->req = false;
    EXPECT_TRUE(E->rvalid.read());
    return answer{E->rdata.read(), E->err.read()};
}

TEST(TcdmBridge, WritesAndReadsL1WithByteEnables) {
    E->h.run_job([] {
        const std::uint32_t l1 = E->cfg.address("l1.base");
        EXPECT_FALSE(request(l1 + 4, true, 0xF, 0x11223344).err);
        EXPECT_FALSE(request(l1 + 4, true, 0x6, 0xAABBCCDD).err);  // bytes 1 and 2 only
        const answer r = request(l1 + 4, false, 0xF);
        EXPECT_FALSE(r.err);
        EXPECT_EQ(r.rdata, 0x11BBCC44u);
        EXPECT_EQ(request(l1 + 4, false, 0xC).rdata, 0x11BB0000u);  // disabled lanes read 0
        sc_core::sc_stop();  // the clock never runs out of events (one case per process, as ctest runs them)
    });
}

TEST(TcdmBridge, OutsideTheViewAnswersErr) {
    E->h.run_job([] {
        EXPECT_TRUE(request(E->cfg.address("l2.base"), false, 0xF).err);  // L2: not visible to the SA class
        EXPECT_TRUE(request(E->cfg.address("l1.base"), false, 0x5).err);  // enables with a gap
        sc_core::sc_stop();
    });
}

}  // namespace

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    env e;
    E = &e;
    return RUN_ALL_TESTS();
}
