// TLM-2.0 target -> AXI4-Lite master: a register port for users' RTL
// peripherals with an AXI4-Lite slave interface (docs/cosim.md). The APB4
// counterpart is apb_bridge.h; both are used the same way.
//
// Bind `socket` to the router like any TLM target (a region of the memory
// map) and the pins to an RTL slave clocked by `aclk` (a Verilated model in
// an SC_MODULE wrapper, or a Verilated --sc model). Each b_transport becomes
// AXI4-Lite transactions, one per 32-bit word it touches:
//   - the caller's annotated delay is waited first (lock-step: the
//     transaction starts at the initiator's own time);
//   - at the next rising edge of aclk the bridge raises AWVALID and WVALID
//     together (a write: AWADDR, WDATA, WSTRB = the bytes of the word the
//     access covers) or ARVALID (a read: ARADDR), with BREADY/RREADY high;
//     each VALID drops after the rising edge where the slave's READY was high
//     (the handshake), as AXI requires VALID not to wait for READY;
//   - the response (BVALID/BRESP, RVALID/RDATA/RRESP) is taken at the first
//     rising edge after the address (and data) handshakes where VALID is
//     high;
//   - SLVERR becomes TLM_GENERIC_ERROR_RESPONSE, DECERR
//     TLM_ADDRESS_ERROR_RESPONSE, and EXOKAY (not an AXI4-Lite response)
//     TLM_GENERIC_ERROR_RESPONSE: the initiator gets the platform's
//     bus-error report naming the access;
//   - a slave that does not complete a transaction within `timeout_cycles`
//     gets the same error instead of hanging the simulation (last_error()
//     says which channel it stalled on).
// AxPROT is not a pin of the bridge (TLM has no privilege attribute): tie the
// slave's AWPROT/ARPROT to 3'b000 (unprivileged, secure, data). The time
// spent is real SystemC time (the delay returned is zero), so the slave's
// wait states are the access's latency.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>

namespace npu::rtl {

class axi_lite_bridge : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<axi_lite_bridge> socket;

    sc_core::sc_in<bool> aclk;
    // write address, write data, write response
    sc_core::sc_out<bool> awvalid, wvalid, bready;
    sc_core::sc_in<bool> awready, wready, bvalid;
    sc_core::sc_out<std::uint32_t> awaddr, wdata, wstrb;
    sc_core::sc_in<std::uint32_t> bresp;
    // read address, read data
    sc_core::sc_out<bool> arvalid, rready;
    sc_core::sc_in<bool> arready, rvalid;
    sc_core::sc_out<std::uint32_t> araddr;
    sc_core::sc_in<std::uint32_t> rdata, rresp;

    axi_lite_bridge(sc_core::sc_module_name nm, std::uint64_t timeout_cycles = 1024);

    std::uint64_t transactions() const { return transactions_; }
    std::uint64_t errors() const { return errors_; }
    // Why the last failed access failed ("" if none did): SLVERR, DECERR,
    // EXOKAY, a timeout.
    const std::string& last_error() const { return last_error_; }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& t);
    // One write or read of the word at `word_addr`; the TLM status it maps to.
    tlm::tlm_response_status write_word(std::uint32_t word_addr, std::uint32_t strb, std::uint32_t data);
    tlm::tlm_response_status read_word(std::uint32_t word_addr, std::uint32_t& data);
    tlm::tlm_response_status response(std::uint32_t resp, bool write, std::uint32_t word_addr);
    tlm::tlm_response_status timeout(const char* channel, bool write, std::uint32_t word_addr);

    std::uint64_t timeout_cycles_;
    std::uint64_t transactions_ = 0, errors_ = 0;
    std::string last_error_;
};

}  // namespace npu::rtl
