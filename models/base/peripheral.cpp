#include "peripheral.h"

#include "txn_ext.h"

#include <cstring>

namespace npu::base {

peripheral::peripheral(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section)
    : component(nm, cfg, std::move(section)), socket("socket") {
    latency_ = cycles(param<std::uint64_t>(*this, "latency"));
    socket.register_b_transport(this, &peripheral::b_transport);
    socket.register_transport_dbg(this, &peripheral::transport_dbg);
}

void peripheral::add_register(std::uint32_t offset, std::string name, access rights, std::uint32_t reset,
                              read_fn on_read, write_fn on_write) {
    if (find(offset)) throw std::logic_error(std::string(this->name()) + ": two registers at offset " + std::to_string(offset));
    regs_.push_back(reg{offset, std::move(name), rights, reset, std::move(on_read), std::move(on_write)});
}

void peripheral::set_register(std::uint32_t offset, std::uint32_t value) {
    reg* r = find(offset);
    if (!r) throw std::logic_error(std::string(name()) + ": no register at offset " + std::to_string(offset));
    r->value = value;
}

peripheral::reg* peripheral::find(std::uint32_t offset) {
    for (auto& r : regs_)
        if (r.offset == offset) return &r;
    return nullptr;
}

void peripheral::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t offset = t.get_address();
    reg* r = offset <= 0xFFFFFFFFu ? find(static_cast<std::uint32_t>(offset & ~3ull)) : nullptr;
    if (!r) {
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    const bool write = t.is_write();
    if (t.get_data_length() != 4 || (offset & 3) || t.get_byte_enable_ptr() ||
        !(r->rights & (write ? write_only : read_only))) {
        t.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
        return;
    }
    auto* ext = t.get_extension<txn_ext>();
    current_ = ext ? ext->who : nullptr;
    current_pc_ = ext ? ext->pc : 0;
    access_delay_ = sc_core::SC_ZERO_TIME;
    current_offset_ = delay;
    if (write) {
        std::memcpy(&r->value, t.get_data_ptr(), 4);
        if (r->on_write) r->on_write(r->value);
    } else {
        std::uint32_t v = r->on_read ? r->on_read() : r->value;
        std::memcpy(t.get_data_ptr(), &v, 4);
    }
    delay += latency_ + access_delay_;
    t.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned peripheral::transport_dbg(tlm::tlm_generic_payload& t) {
    // Debug reads show stored values without side effects; debug writes are
    // refused so a loader can never poke a register by accident.
    if (t.is_write() || t.get_data_length() != 4) return 0;
    reg* r = find(static_cast<std::uint32_t>(t.get_address()));
    if (!r) return 0;
    std::memcpy(t.get_data_ptr(), &r->value, 4);
    return 4;
}

}  // namespace npu::base
