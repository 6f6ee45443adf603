#include "axi_lite_bridge.h"

#include <fmt/format.h>

#include <algorithm>

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
    // Lock-step: the transaction starts at the initiator's local time.
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    const bool write = t.is_write();
    if (!write && !t.is_read()) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    if (t.get_byte_enable_ptr()) {
        t.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    const std::uint64_t addr = t.get_address();
    unsigned char* p = t.get_data_ptr();
    const unsigned len = t.get_data_length();
    // One transaction per 32-bit word the access covers, WSTRB = its bytes.
    for (unsigned done = 0; done < len;) {
        const std::uint64_t a = addr + done;
        const unsigned lane = static_cast<unsigned>(a & 3u);
        const unsigned n = std::min(4u - lane, len - done);
        const auto word_addr = static_cast<std::uint32_t>(a & ~std::uint64_t{3});
        std::uint32_t word = 0, strb = 0;
        for (unsigned i = 0; i < n; ++i) strb |= 1u << (lane + i);
        if (write)
            for (unsigned i = 0; i < n; ++i) word |= std::uint32_t{p[done + i]} << (8 * (lane + i));
        const tlm::tlm_response_status st = write ? write_word(word_addr, strb, word) : read_word(word_addr, word);
        if (st != tlm::TLM_OK_RESPONSE) {
            t.set_response_status(st);
            return;
        }
        if (!write)
            for (unsigned i = 0; i < n; ++i) p[done + i] = static_cast<unsigned char>(word >> (8 * (lane + i)));
        done += n;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned axi_lite_bridge::transport_dbg(tlm::tlm_generic_payload&) {
    // As apb_bridge: the RTL's registers need clock edges, so a debug access
    // transfers nothing.
    return 0;
}

}  // namespace npu::rtl
