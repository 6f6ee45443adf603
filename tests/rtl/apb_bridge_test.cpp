// The TLM -> APB bridge against a Verilated APB4 slave (rtl/examples/
// apb_regs.sv): reads, writes with byte strobes, an access split over two
// words, the slave's wait states as the access's latency, PSLVERR as a TLM
// error response, and a slave that never answers as an error, not a hang.
// Verilator's headers first: included after SystemC's, they expect its
// sc_time_stamp() at global scope.
#include "Vapb_regs.h"
#include "Vapb_regs_slow.h"

#include "apb_bridge.h"

#include "bridge_test_env.h"

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr std::uint32_t id_reg = 0x0, scratch = 0x4, count = 0x8, writes = 0xC;

// A Verilated C++ model as a pin-level SC_MODULE: every change of the clock
// or an input re-evaluates it, so its combinational outputs (PREADY,
// PRDATA) follow within the delta cycle, as on silicon.
template <class V>
struct apb_slave : sc_core::sc_module {
    sc_core::sc_in<bool> pclk, presetn, psel, penable, pwrite;
    sc_core::sc_in<std::uint32_t> paddr, pwdata, pstrb;
    sc_core::sc_out<std::uint32_t> prdata;
    sc_core::sc_out<bool> pready, pslverr;
    V rtl;
    SC_HAS_PROCESS(apb_slave);
    explicit apb_slave(sc_core::sc_module_name nm) : sc_module(nm) {
        SC_METHOD(eval);
        sensitive << pclk << presetn << psel << penable << pwrite << paddr << pwdata << pstrb;
    }
    void eval() {
        rtl.pclk = pclk.read();
        rtl.presetn = presetn.read();
        rtl.psel = psel.read();
        rtl.penable = penable.read();
        rtl.pwrite = pwrite.read();
        rtl.paddr = paddr.read() & 0xFFFu;
        rtl.pwdata = pwdata.read();
        rtl.pstrb = pstrb.read() & 0xFu;
        rtl.eval();
        prdata = rtl.prdata;
        pready = rtl.pready;
        pslverr = rtl.pslverr;
    }
};

// One bridge + slave; the slave type sets its wait states.
template <class V>
struct bench : sc_core::sc_module {
    sc_core::sc_clock clk;
    sc_core::sc_signal<bool> presetn{"presetn", true}, psel{"psel"}, penable{"penable"}, pwrite{"pwrite"},
        pready{"pready"}, pslverr{"pslverr"};
    sc_core::sc_signal<std::uint32_t> paddr{"paddr"}, pwdata{"pwdata"}, pstrb{"pstrb"}, prdata{"prdata"};
    rtl::apb_bridge bridge;
    apb_slave<V> slave;
    bench(sc_core::sc_module_name nm, std::uint64_t timeout)
        : sc_module(nm), clk("clk", sc_time(10, SC_NS)), bridge("bridge", timeout), slave("slave") {
        bridge.pclk(clk);
        bridge.psel(psel);
        bridge.penable(penable);
        bridge.pwrite(pwrite);
        bridge.paddr(paddr);
        bridge.pwdata(pwdata);
        bridge.pstrb(pstrb);
        bridge.prdata(prdata);
        bridge.pready(pready);
        bridge.pslverr(pslverr);
        slave.pclk(clk);
        slave.presetn(presetn);
        slave.psel(psel);
        slave.penable(penable);
        slave.pwrite(pwrite);
        slave.paddr(paddr);
        slave.pwdata(pwdata);
        slave.pstrb(pstrb);
        slave.prdata(prdata);
        slave.pready(pready);
        slave.pslverr(pslverr);
    }
};

using env = test::bridge_env<bench, Vapb_regs, Vapb_regs_slow>;
env* E;

using test::rd;
using test::wr;

TEST(ApbBridge, ReadsWritesStrobesAndSplits) {
    E->h.run_job([] {
        auto& b = E->h.master(0);
        EXPECT_EQ(rd(b, id_reg), 0x41504234u);
        const std::uint32_t v = 0x11223344;
        EXPECT_EQ(wr(b, scratch, &v, 4), tlm::TLM_OK_RESPONSE);
        const std::uint16_t half = 0xBBCC;
        EXPECT_EQ(wr(b, scratch + 1, &half, 2), tlm::TLM_OK_RESPONSE);  // PSTRB 0b0110
        EXPECT_EQ(rd(b, scratch), 0x11BBCC44u);
        std::uint8_t byte = 0;
        sc_time d = sc_core::SC_ZERO_TIME;
        EXPECT_EQ(b.read(scratch + 3, &byte, 1, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(byte, 0x11);
        // 8 bytes from SCRATCH: two transfers (SCRATCH, COUNT).
        std::uint32_t two[2] = {};
        const std::uint64_t before = E->fast.bridge.transfers();
        EXPECT_EQ(b.read(scratch, two, 8, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->fast.bridge.transfers() - before, 2u);
        EXPECT_EQ(two[0], 0x11BBCC44u);
        EXPECT_GT(two[1], 0u);
        EXPECT_EQ(rd(b, writes), 2u);  // two writes reached SCRATCH
        sc_core::sc_stop();
    });
}

TEST(ApbBridge, WaitStatesAreTheLatency) {
    E->h.run_job([] {
        // Back-to-back reads of COUNT: the slave counts clock edges, so the
        // difference is the cycles one access took. Without wait states: the
        // edge of SETUP, then ACCESS; three wait states add three.
        const std::uint32_t f0 = rd(E->h.master(0), count), f1 = rd(E->h.master(0), count);
        const std::uint32_t s0 = rd(E->h.master(1), count), s1 = rd(E->h.master(1), count);
        EXPECT_EQ(f1 - f0, 3u);
        EXPECT_EQ(s1 - s0, 6u);
        // And SystemC time advanced by those cycles: lock-step, not a guess.
        const sc_time t0 = sc_core::sc_time_stamp();
        rd(E->h.master(1), count);
        EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_time(60, SC_NS));
        sc_core::sc_stop();
    });
}

TEST(ApbBridge, SlaveErrorIsATlmError) {
    E->h.run_job([] {
        tlm::tlm_response_status st;
        rd(E->h.master(0), 0x10, &st);  // outside the register map: PSLVERR
        EXPECT_EQ(st, tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_NE(E->fast.bridge.last_error().find("PSLVERR on the read of 0x00000010"), std::string::npos)
            << E->fast.bridge.last_error();
        const std::uint32_t v = 1;
        EXPECT_EQ(wr(E->h.master(0), id_reg + 0x20, &v, 4), tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_EQ(E->fast.bridge.errors(), 2u);
        sc_core::sc_stop();
    });
}

TEST(ApbBridge, SlaveThatNeverAnswersTimesOut) {
    E->h.run_job([] {
        tlm::tlm_response_status st;
        rd(E->h.master(2), id_reg, &st);
        EXPECT_EQ(st, tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_NE(E->stuck.bridge.last_error().find("kept PREADY low for 2 cycles"), std::string::npos)
            << E->stuck.bridge.last_error();
        sc_core::sc_stop();
    });
}

}  // namespace

int sc_main(int argc, char** argv) { return test::run_bridge_tests(argc, argv, E); }
