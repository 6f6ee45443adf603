// The pin-level TCDM bridge on an sc_clock: a master driving req/addr/we/
// be/wdata through sc_signals (as a Verilated block's pins would) writes and
// reads L1 through the router, byte enables select the bytes, and an address
// outside the initiator's view answers err — at the rising edge's time. A
// request for an L1 bank another initiator holds is granted at the bank's
// first free cycle (the SoC's bank calendar), and its access books nothing
// more.
#include "tcdm_bridge.h"

#include "base/slot_calendar.h"
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

// One request as an RTL master makes it, its pins driven from rising edges
// (as flip-flop outputs): raise req after one, hold it until gnt is high at
// an edge (sampled as a flip-flop would: the value before the edge), drop it
// right there, take the answer in the next cycle.
struct answer {
    std::uint32_t rdata;
    bool err;
    std::uint64_t edges;  // rising edges until the grant (1: granted at the first)
};
answer request(std::uint32_t a, bool write, std::uint32_t be, std::uint32_t wdata = 0) {
    sc_core::wait(E->clk.posedge_event());
    E->req = true;
    E->addr = a;
    E->we = write;
    E->be = be;
    E->wdata = wdata;
    std::uint64_t edges = 0;
    for (bool granted = false; !granted;) {
        sc_core::wait(E->clk.posedge_event());
        granted = E->gnt.read();
        ++edges;
        if (edges > 100) {
            ADD_FAILURE() << "no grant in 100 cycles";
            break;
        }
    }
    E->req = false;
    sc_core::wait(E->clk.negedge_event());
    EXPECT_TRUE(E->rvalid.read());
    return answer{E->rdata.read(), E->err.read(), edges};
}
std::uint64_t edge_now() { return static_cast<std::uint64_t>(sc_core::sc_time_stamp() / sc_time(1, SC_NS)); }

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

TEST(TcdmBridge, ARequestForABankAnotherInitiatorHoldsIsGrantedAtItsFirstFreeCycle) {
    E->h.run_job([] {
        const std::uint32_t l1 = E->cfg.address("l1.base");
        auto& cal = E->ctx.context().shared<base::l1_bank_calendar>();
        ASSERT_FALSE(cal.banks.empty()) << "the L1 set up its bank calendar";
        // Alone: granted at the first edge, as before.
        const answer alone = request(l1 + 8, true, 0xF, 0xCAFEF00D);
        EXPECT_FALSE(alone.err);
        EXPECT_EQ(alone.edges, 1u);
        EXPECT_EQ(E->bridge.grant_wait_cycles(), 0u);
        // Bank 2 (l1 + 8) held by another initiator for the 5 cycles from
        // the next request's first edge: granted 5 edges later. The helper
        // raises req after the next rising edge (edge_now() + 1 from this
        // negedge), to be granted at the one after.
        const std::uint64_t first = edge_now() + 2;
        for (std::uint64_t c = first; c < first + 5; ++c) ASSERT_EQ(cal.banks.reserve(2, c), c);
        const answer held = request(l1 + 8, false, 0xF);
        EXPECT_FALSE(held.err);
        EXPECT_EQ(held.rdata, 0xCAFEF00Du);
        EXPECT_EQ(held.edges, 6u) << "granted at the bank's first free cycle";
        EXPECT_EQ(E->bridge.grant_wait_cycles(), 5u);
        // The grant's bank-cycle is booked once: the next free one is after it.
        EXPECT_EQ(cal.banks.reserve(2, first + 5), first + 6);
        // Another bank of the same cycles is not held: no wait.
        const answer other = request(l1 + 12, false, 0xF);
        EXPECT_EQ(other.edges, 1u);
        // L2 is not banked: an address there is granted at once (and, not
        // visible to this initiator class, answers err).
        const answer l2 = request(E->cfg.address("l2.base"), false, 0xF);
        EXPECT_EQ(l2.edges, 1u);
        EXPECT_TRUE(l2.err);
        sc_core::sc_stop();
    });
}

TEST(TcdmBridge, ALockStepEnginesGrantIsTheBanksFirstFreeCycle) {
    // An engine that steps its RTL itself (as the SA's does) asks grant() for
    // the cycle of a request, holds gnt low until then, and performs it then.
    E->h.run_job([] {
        const std::uint32_t l1 = E->cfg.address("l1.base");
        auto& cal = E->ctx.context().shared<base::l1_bank_calendar>();
        rtl::tcdm_bridge bridge(E->h.master(0), &cal);
        const std::uint64_t c = edge_now() + 10;
        for (std::uint64_t k = c; k < c + 4; ++k) ASSERT_EQ(cal.banks.reserve(3, k), k);
        rtl::tcdm_request q;
        q.addr = l1 + 12;  // bank 3
        q.write = true;
        q.wdata = 0x5A5A1234;
        const std::uint64_t at = bridge.grant(q, c);
        EXPECT_EQ(at, c + 4) << "the bank's first free cycle";
        EXPECT_EQ(bridge.grant_wait_cycles(), 4u);
        EXPECT_FALSE(bridge.access(q, sc_time(double(at), SC_NS)).err);
        EXPECT_EQ(cal.banks.reserve(3, c + 4), c + 5) << "the access booked nothing more";
        // Another bank, and L2 (not banked): granted in the cycle asked.
        q.addr = l1 + 16;
        EXPECT_EQ(bridge.grant(q, c), c);
        q.addr = static_cast<std::uint32_t>(E->cfg.address("l2.base"));
        EXPECT_EQ(bridge.grant(q, c + 1), c + 1);
        // Without a calendar (an engine modelling its port itself): at once.
        rtl::tcdm_bridge plain(E->h.master(0));
        q.addr = l1 + 12;
        EXPECT_EQ(plain.grant(q, c + 4), c + 4);
        rtl::tcdm_request rd;
        rd.addr = l1 + 12;
        EXPECT_EQ(plain.access(rd, sc_time(double(c + 6), SC_NS)).rdata, 0x5A5A1234u);
        sc_core::sc_stop();
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
