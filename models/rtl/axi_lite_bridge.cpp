#include "axi_lite_bridge.h"

#include "word_transport.h"

#include <fmt/format.h>


namespace npu::rtl {

namespace {

constexpr std::uint32_t okay = 0, exokay = 1, slverr = 2;

}  // namespace

axi_lite_bridge::axi_lite_bridge(sc_core::sc_module_name nm, std::uint64_t timeout_cycles)
    : sc_module(nm),
      socket("socket"),
      aclk("aclk"),
      awvalid("awvalid"),
      wvalid("wvalid"),
      bready("bready"),
      awready("awready"),
      wready("wready"),
      bvalid("bvalid"),
      awaddr("awaddr"),
      wdata("wdata"),
      wstrb("wstrb"),
      bresp("bresp"),
      arvalid("arvalid"),
      rready("rready"),
      arready("arready"),
      rvalid("rvalid"),
      araddr("araddr"),
      rdata("rdata"),
      rresp("rresp"),
      timeout_cycles_(timeout_cycles) {
    socket.register_b_transport(this, &axi_lite_bridge::b_transport);
    socket.register_transport_dbg(this, &axi_lite_bridge::transport_dbg);
}

tlm::tlm_response_status axi_lite_bridge::response(std::uint32_t resp, bool write, std::uint32_t word_addr) {
    resp &= 3u;
    if (resp == okay) return tlm::TLM_OK_RESPONSE;
    ++errors_;
    static const char* const names[] = {"OKAY", "EXOKAY", "SLVERR", "DECERR"};
    last_error_ = fmt::format("{}: {} on the {} of 0x{:08x}{}", name(), names[resp], write ? "write" : "read",
                              word_addr, resp == exokay ? " (not an AXI4-Lite response)" : "");
    return resp == slverr || resp == exokay ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE;
}

tlm::tlm_response_status axi_lite_bridge::timeout(const char* channel, bool write, std::uint32_t word_addr) {
    ++errors_;
    last_error_ = fmt::format("{}: the AXI4-Lite slave did not complete the {} of 0x{:08x} within {} cycles ({})",
                              name(), write ? "write" : "read", word_addr, timeout_cycles_, channel);
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
}

tlm::tlm_response_status axi_lite_bridge::write_word(std::uint32_t word_addr, std::uint32_t strb,
                                                     std::uint32_t data) {
    ++transactions_;
    sc_core::wait(aclk.posedge_event());
    awvalid = true;
    awaddr = word_addr;
    wvalid = true;
    wdata = data;
    wstrb = strb;
    bready = true;
    bool aw_pending = true, w_pending = true;
    tlm::tlm_response_status st = tlm::TLM_INCOMPLETE_RESPONSE;
    for (std::uint64_t n = 0; st == tlm::TLM_INCOMPLETE_RESPONSE; ++n) {
        if (n >= timeout_cycles_) {
            st = timeout(aw_pending ? "AWREADY low" : w_pending ? "WREADY low" : "no BVALID", true, word_addr);
            break;
        }
        sc_core::wait(aclk.posedge_event());
        // A response counts only after both handshakes, at an earlier edge.
        if (!aw_pending && !w_pending && bvalid.read()) st = response(bresp.read(), true, word_addr);
        if (aw_pending && awready.read()) {
            aw_pending = false;
            awvalid = false;
        }
        if (w_pending && wready.read()) {
            w_pending = false;
            wvalid = false;
        }
    }
    awvalid = false;
    wvalid = false;
    bready = false;
    return st;
}

tlm::tlm_response_status axi_lite_bridge::read_word(std::uint32_t word_addr, std::uint32_t& data) {
    ++transactions_;
    sc_core::wait(aclk.posedge_event());
    arvalid = true;
    araddr = word_addr;
    rready = true;
    bool ar_pending = true;
    tlm::tlm_response_status st = tlm::TLM_INCOMPLETE_RESPONSE;
    for (std::uint64_t n = 0; st == tlm::TLM_INCOMPLETE_RESPONSE; ++n) {
        if (n >= timeout_cycles_) {
            st = timeout(ar_pending ? "ARREADY low" : "no RVALID", false, word_addr);
            break;
        }
        sc_core::wait(aclk.posedge_event());
        if (!ar_pending && rvalid.read()) {
            st = response(rresp.read(), false, word_addr);
            if (st == tlm::TLM_OK_RESPONSE) data = rdata.read();
        }
        if (ar_pending && arready.read()) {
            ar_pending = false;
            arvalid = false;
        }
    }
    arvalid = false;
    rready = false;
    return st;
}

void axi_lite_bridge::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    transport_by_words(t, delay, [this](std::uint32_t word_addr, bool write, std::uint32_t strb, std::uint32_t& data) {
        return write ? write_word(word_addr, strb, data) : read_word(word_addr, data);
    });
}

unsigned axi_lite_bridge::transport_dbg(tlm::tlm_generic_payload&) {
    // As apb_bridge: the RTL's registers need clock edges, so a debug access
    // transfers nothing.
    return 0;
}

}  // namespace npu::rtl
