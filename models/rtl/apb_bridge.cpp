#include "apb_bridge.h"

#include <fmt/format.h>

#include <cstring>

namespace npu::rtl {

apb_bridge::apb_bridge(sc_core::sc_module_name nm, std::uint64_t timeout_cycles)
    : sc_module(nm),
      socket("socket"),
      pclk("pclk"),
      psel("psel"),
      penable("penable"),
      pwrite("pwrite"),
      paddr("paddr"),
      pwdata("pwdata"),
      pstrb("pstrb"),
      prdata("prdata"),
      pready("pready"),
      pslverr("pslverr"),
      timeout_cycles_(timeout_cycles) {
    socket.register_b_transport(this, &apb_bridge::b_transport);
    socket.register_transport_dbg(this, &apb_bridge::transport_dbg);
}

bool apb_bridge::transfer(std::uint32_t word_addr, bool write, std::uint32_t strb, std::uint32_t& data) {
    ++transfers_;
    // SETUP
    sc_core::wait(pclk.posedge_event());
    psel = true;
    penable = false;
    pwrite = write;
    paddr = word_addr;
    pwdata = write ? data : 0u;
    pstrb = write ? strb : 0u;
    // ACCESS, then wait states until PREADY at a rising edge.
    sc_core::wait(pclk.posedge_event());
    penable = true;
    bool ok = true;
    for (std::uint64_t n = 0;; ++n) {
        sc_core::wait(pclk.posedge_event());
        if (pready.read()) {
            if (pslverr.read()) {
                ok = false;
                last_error_ = fmt::format("{}: PSLVERR on the {} of 0x{:08x}", name(), write ? "write" : "read",
                                          word_addr);
            } else if (!write) {
                data = prdata.read();
            }
            break;
        }
        if (n + 1 >= timeout_cycles_) {
            ok = false;
            last_error_ = fmt::format("{}: the APB slave kept PREADY low for {} cycles on the {} of 0x{:08x}",
                                      name(), timeout_cycles_, write ? "write" : "read", word_addr);
            break;
        }
    }
    psel = false;
    penable = false;
    if (!ok) ++errors_;
    return ok;
}

void apb_bridge::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    // Lock-step: the transfer starts at the initiator's local time.
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
    // One transfer per 32-bit word the access covers, PSTRB = its bytes.
    for (unsigned done = 0; done < len;) {
        const std::uint64_t a = addr + done;
        const unsigned lane = static_cast<unsigned>(a & 3u);
        const unsigned n = std::min(4u - lane, len - done);
        std::uint32_t word = 0, strb = 0;
        for (unsigned i = 0; i < n; ++i) strb |= 1u << (lane + i);
        if (write)
            for (unsigned i = 0; i < n; ++i) word |= std::uint32_t{p[done + i]} << (8 * (lane + i));
        if (!transfer(static_cast<std::uint32_t>(a & ~std::uint64_t{3}), write, strb, word)) {
            t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
            return;
        }
        if (!write)
            for (unsigned i = 0; i < n; ++i) p[done + i] = static_cast<unsigned char>(word >> (8 * (lane + i)));
        done += n;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned apb_bridge::transport_dbg(tlm::tlm_generic_payload&) {
    // A debug access cannot wait for clock edges: the RTL's registers are
    // reached only by timed transfers (debuggers see 0 bytes transferred).
    return 0;
}

}  // namespace npu::rtl
