// The TLM -> AXI4-Lite bridge against a Verilated AXI4-Lite slave
// (rtl/examples/axil_regs.sv): reads, writes with strobes, an access split
// over two words, the slave's wait states as the access's latency, SLVERR
// and DECERR as TLM error responses, and a slave that never answers as an
// error, not a hang.
// Verilator's headers first: included after SystemC's, they expect its
// sc_time_stamp() at global scope.
#include "Vaxil_regs.h"
#include "Vaxil_regs_slow.h"

#include "axi_lite_bridge.h"

#include "bridge_test_env.h"

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

constexpr std::uint32_t id_reg = 0x0, scratch = 0x4, count = 0x8, writes = 0xC;

// A Verilated C++ model as a pin-level SC_MODULE: every change of the clock
// or an input re-evaluates it, so its combinational outputs (the READYs)
// follow within the delta cycle, as on silicon.
template <class V>
struct axil_slave : sc_core::sc_module {
    sc_core::sc_in<bool> aclk, aresetn, awvalid, wvalid, bready, arvalid, rready;
    sc_core::sc_in<std::uint32_t> awaddr, wdata, wstrb, araddr;
    sc_core::sc_out<bool> awready, wready, bvalid, arready, rvalid;
    sc_core::sc_out<std::uint32_t> bresp, rdata, rresp;
    V rtl;
    SC_HAS_PROCESS(axil_slave);
    explicit axil_slave(sc_core::sc_module_name nm) : sc_module(nm) {
        SC_METHOD(eval);
        sensitive << aclk << aresetn << awvalid << wvalid << bready << arvalid << rready << awaddr << wdata << wstrb
                  << araddr;
    }
    void eval() {
        rtl.aclk = aclk.read();
        rtl.aresetn = aresetn.read();
        rtl.awvalid = awvalid.read();
        rtl.awaddr = awaddr.read() & 0xFFFu;
        rtl.awprot = 0;
        rtl.wvalid = wvalid.read();
        rtl.wdata = wdata.read();
        rtl.wstrb = wstrb.read() & 0xFu;
        rtl.bready = bready.read();
        rtl.arvalid = arvalid.read();
        rtl.araddr = araddr.read() & 0xFFFu;
        rtl.arprot = 0;
        rtl.rready = rready.read();
        rtl.eval();
        awready = rtl.awready;
        wready = rtl.wready;
        bvalid = rtl.bvalid;
        bresp = rtl.bresp;
        arready = rtl.arready;
        rvalid = rtl.rvalid;
        rdata = rtl.rdata;
        rresp = rtl.rresp;
    }
};

// One bridge + slave; the slave type sets its wait states.
template <class V>
struct bench : sc_core::sc_module {
    sc_core::sc_clock clk;
    sc_core::sc_signal<bool> aresetn{"aresetn", true}, awvalid{"awvalid"}, wvalid{"wvalid"}, bready{"bready"},
        arvalid{"arvalid"}, rready{"rready"}, awready{"awready"}, wready{"wready"}, bvalid{"bvalid"},
        arready{"arready"}, rvalid{"rvalid"};
    sc_core::sc_signal<std::uint32_t> awaddr{"awaddr"}, wdata{"wdata"}, wstrb{"wstrb"}, araddr{"araddr"},
        bresp{"bresp"}, rdata{"rdata"}, rresp{"rresp"};
    rtl::axi_lite_bridge bridge;
    axil_slave<V> slave;
    bench(sc_core::sc_module_name nm, std::uint64_t timeout)
        : sc_module(nm), clk("clk", sc_time(10, SC_NS)), bridge("bridge", timeout), slave("slave") {
        bridge.aclk(clk);
        slave.aclk(clk);
        slave.aresetn(aresetn);
        // Each channel's pins: the bridge drives, the slave answers, or back.
        bridge.awvalid(awvalid), slave.awvalid(awvalid);
        bridge.awaddr(awaddr), slave.awaddr(awaddr);
        bridge.awready(awready), slave.awready(awready);
        bridge.wvalid(wvalid), slave.wvalid(wvalid);
        bridge.wdata(wdata), slave.wdata(wdata);
        bridge.wstrb(wstrb), slave.wstrb(wstrb);
        bridge.wready(wready), slave.wready(wready);
        bridge.bvalid(bvalid), slave.bvalid(bvalid);
        bridge.bresp(bresp), slave.bresp(bresp);
        bridge.bready(bready), slave.bready(bready);
        bridge.arvalid(arvalid), slave.arvalid(arvalid);
        bridge.araddr(araddr), slave.araddr(araddr);
        bridge.arready(arready), slave.arready(arready);
        bridge.rvalid(rvalid), slave.rvalid(rvalid);
        bridge.rdata(rdata), slave.rdata(rdata);
        bridge.rresp(rresp), slave.rresp(rresp);
        bridge.rready(rready), slave.rready(rready);
    }
};

using env = test::bridge_env<bench, Vaxil_regs, Vaxil_regs_slow>;
env* E;

using test::rd;
using test::wr;

TEST(AxiLiteBridge, ReadsWritesStrobesAndSplits) {
    E->h.run_job([] {
        auto& b = E->h.master(0);
        EXPECT_EQ(rd(b, id_reg), 0x41584C34u);
        const std::uint32_t v = 0x11223344;
        EXPECT_EQ(wr(b, scratch, &v, 4), tlm::TLM_OK_RESPONSE);
        const std::uint16_t half = 0xBBCC;
        EXPECT_EQ(wr(b, scratch + 1, &half, 2), tlm::TLM_OK_RESPONSE);  // WSTRB 0b0110
        EXPECT_EQ(rd(b, scratch), 0x11BBCC44u);
        std::uint8_t byte = 0;
        sc_time d = sc_core::SC_ZERO_TIME;
        EXPECT_EQ(b.read(scratch + 3, &byte, 1, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(byte, 0x11);
        // 8 bytes from SCRATCH: two transactions (SCRATCH, COUNT).
        std::uint32_t two[2] = {};
        const std::uint64_t before = E->fast.bridge.transactions();
        EXPECT_EQ(b.read(scratch, two, 8, d), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(E->fast.bridge.transactions() - before, 2u);
        EXPECT_EQ(two[0], 0x11BBCC44u);
        EXPECT_GT(two[1], 0u);
        EXPECT_EQ(rd(b, writes), 2u);  // two writes reached SCRATCH
        EXPECT_EQ(E->fast.bridge.errors(), 0u);
        sc_core::sc_stop();
    });
}

TEST(AxiLiteBridge, WaitStatesAreTheLatency) {
    E->h.run_job([] {
        // Back-to-back reads of COUNT: the slave counts clock edges, so the
        // difference is the cycles one read took. Without wait states: the
        // edge that raises ARVALID, the handshake, RVALID registered, RVALID
        // sampled; three wait states add three.
        const std::uint32_t f0 = rd(E->h.master(0), count), f1 = rd(E->h.master(0), count);
        const std::uint32_t s0 = rd(E->h.master(1), count), s1 = rd(E->h.master(1), count);
        EXPECT_EQ(f1 - f0, 4u);
        EXPECT_EQ(s1 - s0, 7u);
        // And SystemC time advanced by those cycles: lock-step, not a guess.
        sc_time t0 = sc_core::sc_time_stamp();
        rd(E->h.master(1), count);
        EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_time(70, SC_NS));
        // A write: the same four edges, plus the wait states before BVALID.
        const std::uint32_t v = 7;
        t0 = sc_core::sc_time_stamp();
        EXPECT_EQ(wr(E->h.master(1), scratch, &v, 4), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(sc_core::sc_time_stamp() - t0, sc_time(70, SC_NS));
        EXPECT_EQ(rd(E->h.master(1), scratch), 7u);
        sc_core::sc_stop();
    });
}

TEST(AxiLiteBridge, SlaveErrorsAreTlmErrors) {
    E->h.run_job([] {
        auto& b = E->h.master(0);
        const std::uint32_t v = 1;
        // A write to a read-only register: SLVERR, and the register is unchanged.
        EXPECT_EQ(wr(b, id_reg, &v, 4), tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_NE(E->fast.bridge.last_error().find("SLVERR on the write of 0x00000000"), std::string::npos)
            << E->fast.bridge.last_error();
        EXPECT_EQ(rd(b, id_reg), 0x41584C34u);
        // Outside the register map: DECERR, an address error.
        tlm::tlm_response_status st;
        rd(b, 0x10, &st);
        EXPECT_EQ(st, tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_NE(E->fast.bridge.last_error().find("DECERR on the read of 0x00000010"), std::string::npos)
            << E->fast.bridge.last_error();
        EXPECT_EQ(wr(b, 0x20, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(E->fast.bridge.errors(), 3u);
        // The slave keeps working after errors.
        EXPECT_EQ(wr(b, scratch, &v, 4), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(rd(b, scratch), 1u);
        sc_core::sc_stop();
    });
}

TEST(AxiLiteBridge, SlaveThatNeverAnswersTimesOut) {
    E->h.run_job([] {
        tlm::tlm_response_status st;
        rd(E->h.master(2), id_reg, &st);
        EXPECT_EQ(st, tlm::TLM_GENERIC_ERROR_RESPONSE);
        EXPECT_NE(E->stuck.bridge.last_error().find("did not complete the read of 0x00000000 within 2 cycles (no "
                                                    "RVALID)"),
                  std::string::npos)
            << E->stuck.bridge.last_error();
        sc_core::sc_stop();
    });
}

}  // namespace

int sc_main(int argc, char** argv) { return test::run_bridge_tests(argc, argv, E); }
