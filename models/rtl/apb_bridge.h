// TLM-2.0 target -> APB4 master: a register port for users' RTL peripherals
// (docs/cosim.md).
//
// Bind `socket` to the router like any TLM target (a region of the memory
// map) and the pins to an RTL slave clocked by `pclk` (a Verilated model in an
// SC_MODULE wrapper, or a Verilated --sc model). Each b_transport becomes APB
// transfers, one per 32-bit word it touches:
//   - the caller's annotated delay is waited first (lock-step: the transfer
//     starts at the initiator's own time, not at the last quantum boundary);
//   - SETUP at the next rising edge of pclk (PSEL, PADDR, PWRITE, PWDATA,
//     PSTRB = the bytes of the word the access covers), ACCESS at the one
//     after (PENABLE), then every rising edge until the slave raises PREADY,
//     where PRDATA and PSLVERR are sampled;
//   - PSLVERR makes the TLM response TLM_GENERIC_ERROR_RESPONSE, so the
//     initiator gets the platform's bus-error report naming the access;
//   - a slave that keeps PREADY low for `timeout_cycles` gets the same error
//     instead of hanging the simulation (last_error() says which).
// The time spent is real SystemC time (the delay returned is zero), so the
// RTL's wait states are the access's latency.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <string>

namespace npu::rtl {

class apb_bridge : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<apb_bridge> socket;

    sc_core::sc_in<bool> pclk;
    sc_core::sc_out<bool> psel, penable, pwrite;
    sc_core::sc_out<std::uint32_t> paddr, pwdata, pstrb;
    sc_core::sc_in<std::uint32_t> prdata;
    sc_core::sc_in<bool> pready, pslverr;

    apb_bridge(sc_core::sc_module_name nm, std::uint64_t timeout_cycles = 1024);

    std::uint64_t transfers() const { return transfers_; }
    std::uint64_t errors() const { return errors_; }
    // Why the last failed access failed ("" if none did): PSLVERR, a timeout.
    const std::string& last_error() const { return last_error_; }

private:
    void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    unsigned transport_dbg(tlm::tlm_generic_payload& t);
    // One APB transfer of the word at `word_addr`; false on PSLVERR/timeout.
    bool transfer(std::uint32_t word_addr, bool write, std::uint32_t strb, std::uint32_t& data);

    std::uint64_t timeout_cycles_;
    std::uint64_t transfers_ = 0, errors_ = 0;
    std::string last_error_;
};

}  // namespace npu::rtl
