#include "apb_bridge.h"

#include "word_transport.h"

#include <fmt/format.h>


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
    transport_by_words(t, delay, [this](std::uint32_t word_addr, bool write, std::uint32_t strb, std::uint32_t& data) {
        return transfer(word_addr, write, strb, data) ? tlm::TLM_OK_RESPONSE : tlm::TLM_GENERIC_ERROR_RESPONSE;
    });
}

unsigned apb_bridge::transport_dbg(tlm::tlm_generic_payload&) {
    // A debug access cannot wait for clock edges: the RTL's registers are
    // reached only by timed transfers (debuggers see 0 bytes transferred).
    return 0;
}

}  // namespace npu::rtl
