// What the register bridges (apb_bridge, axi_lite_bridge) do with a TLM
// access before their bus protocols differ: wait the caller's annotated
// delay (lock-step: the bus transfer starts at the initiator's own time),
// refuse what a 32-bit register bus cannot carry, and cut the access into
// one transfer per 32-bit word it touches, with the strobe of the bytes it
// covers in that word.
#pragma once

#include <systemc>
#include <tlm>

#include <algorithm>
#include <cstdint>

namespace npu::rtl {

// `word(word_addr, write, strb, data)` performs one bus transfer: for a
// write `data` holds the word (bytes outside `strb` zero), for a read it
// receives the word. A status other than TLM_OK_RESPONSE ends the access
// with that status.
template <class WordFn>
void transport_by_words(tlm::tlm_generic_payload& t, sc_core::sc_time& delay, WordFn&& word) {
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
    for (unsigned done = 0; done < len;) {
        const std::uint64_t a = addr + done;
        const unsigned lane = static_cast<unsigned>(a & 3u);
        const unsigned n = std::min(4u - lane, len - done);
        const auto word_addr = static_cast<std::uint32_t>(a & ~std::uint64_t{3});
        std::uint32_t data = 0, strb = 0;
        for (unsigned i = 0; i < n; ++i) strb |= 1u << (lane + i);
        if (write)
            for (unsigned i = 0; i < n; ++i) data |= std::uint32_t{p[done + i]} << (8 * (lane + i));
        const tlm::tlm_response_status st = word(word_addr, write, strb, data);
        if (st != tlm::TLM_OK_RESPONSE) {
            t.set_response_status(st);
            return;
        }
        if (!write)
            for (unsigned i = 0; i < n; ++i) p[done + i] = static_cast<unsigned char>(data >> (8 * (lane + i)));
        done += n;
    }
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace npu::rtl
