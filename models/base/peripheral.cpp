#include "peripheral.h"

#include "txn_ext.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>
#include <utility>

namespace npu::base {

peripheral::peripheral(sc_core::sc_module_name nm, const cfg::config& cfg, std::string section)
    : component(nm, cfg, std::move(section)), socket("socket") {
    latency_ = cycles(cfg.cycles(this->section() + ".latency"));
    socket.register_b_transport(this, &peripheral::b_transport);
    socket.register_transport_dbg(this, &peripheral::transport_dbg);
}

void peripheral::add_register(std::uint32_t offset, std::string name, access rights, std::uint32_t reset,
                              read_fn on_read, write_fn on_write) {
    if (find(offset))
        throw std::logic_error(std::string(this->name()) + ": two registers at offset " + std::to_string(offset));
    regs_.push_back(
        reg{offset, std::move(name), rights, reset, std::move(on_read), std::move(on_write), false, nullptr});
    const std::size_t word = offset / 4;
    if ((offset & 3) == 0 && word < (std::size_t{1} << 14) && regs_.size() < 0xFFFF) {
        if (by_word_.size() <= word) by_word_.resize(word + 1, 0);
        by_word_[word] = static_cast<std::uint16_t>(regs_.size());
    }
}

void peripheral::set_peek(std::uint32_t offset, read_fn peek) {
    reg* r = find(offset);
    if (!r) throw std::logic_error(std::string(name()) + ": no register at offset " + std::to_string(offset));
    r->peek = peek ? std::move(peek) : r->on_read;
}

void peripheral::set_register(std::uint32_t offset, std::uint32_t value) {
    reg* r = find(offset);
    if (!r) throw std::logic_error(std::string(name()) + ": no register at offset " + std::to_string(offset));
    r->value = value;
}

std::string peripheral::access_problem(std::uint64_t offset, bool write, bool by_core) const {
    for (const auto& r : regs_) {
        if (r.offset != (offset & ~3ull)) continue;
        if (!(r.rights & (write ? write_only : read_only)))
            return fmt::format("register {} (0x{:03x}) is {}: a {} is refused", r.name, r.offset,
                               r.rights == read_only ? "read-only" : "write-only", write ? "store" : "load");
        if (write && r.cores_only && !by_core)
            return fmt::format("register {} (0x{:03x}) takes a core's store only: a DMA transfer or the SA "
                               "writing it is refused",
                               r.name, r.offset);
    }
    return {};
}

void peripheral::cores_only(std::uint32_t offset) {
    if (reg* r = find(offset)) r->cores_only = true;
}

peripheral::reg* peripheral::find(std::uint32_t offset) {
    if ((offset & 3) == 0 && offset / 4 < by_word_.size()) {
        const std::uint16_t i = by_word_[offset / 4];
        if (i) return &regs_[i - 1u];
    }
    for (auto& r : regs_)
        if (r.offset == offset) return &r;
    return nullptr;
}

void peripheral::b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    t.set_response_status(serve(t.is_write(), t.get_address(), t.get_data_ptr(), t.get_data_length(),
                                t.get_byte_enable_ptr() != nullptr, t.get_extension<txn_ext>(), delay));
}

tlm::tlm_response_status peripheral::burst(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data,
                                           unsigned len, sc_core::sc_time& delay, txn_ext& ext) {
    // As b_transport: what is not a write is served as a read.
    return serve(cmd == tlm::TLM_WRITE_COMMAND, offset, data, len, false, &ext, delay);
}

tlm::tlm_response_status peripheral::serve(bool write, std::uint64_t offset, unsigned char* data, unsigned len,
                                           bool byte_enables, const txn_ext* ext, sc_core::sc_time& delay) {
    reg* r = offset <= 0xFFFFFFFFu ? find(static_cast<std::uint32_t>(offset & ~3ull)) : nullptr;
    if (!r) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (len != 4 || (offset & 3) || byte_enables || !(r->rights & (write ? write_only : read_only)))
        return tlm::TLM_COMMAND_ERROR_RESPONSE;
    if (write && r->cores_only && !(ext && ext->who && ext->who->hart >= 0)) return tlm::TLM_COMMAND_ERROR_RESPONSE;
    access_ctx ctx;
    ctx.who = ext ? ext->who : nullptr;
    ctx.pc = ext ? ext->pc : 0;
    ctx.offset = delay;
    ctx_ = &ctx;
    set_log_time_offset(&ctx.offset);
    std::uint32_t v = 0;
    const bool was_stopped = services().stop_requested();
    if (write) {
        std::memcpy(&v, data, 4);
        // Stored before the callback, as documented; a rejected write is undone.
        const std::uint32_t old = r->value;
        r->value = v;
        if (r->on_write) r->on_write(v);
        if (ctx.rejected) r->value = old;
    } else {
        v = r->on_read ? r->on_read() : r->value;
        std::memcpy(data, &v, 4);
    }
    // An access that ends the run (a write of the firmware's exit, a read
    // of PUSH_* that a refused DMA push turns into a bus error) ends it at
    // the access's time, the initiator's local time, not at SystemC time:
    // the initiator's cycles since its last synchronisation count.
    if (!was_stopped && services().stop_requested()) services().stop_time_at_least(access_time());
    // A callback that blocked re-installed its own context when it resumed;
    // between accesses nothing may point into this stack frame.
    ctx_ = &idle_ctx_;
    set_log_time_offset(nullptr);
    // What is left of the initiator's offset (none once a callback
    // synchronised), whether or not the access was refused: a refused one
    // returned the offset it came with, so an initiator that had caught up
    // inside the callback counted its time twice (a refused event-unit store
    // at 11 us ended the run at 22 us with a 100 us quantum).
    delay = ctx.offset + latency_ + ctx.extra;
    return ctx.rejected ? tlm::TLM_COMMAND_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE;
}

namespace {
bool in_thread() { return sc_core::sc_get_current_process_handle().proc_kind() == sc_core::SC_THREAD_PROC_; }
}  // namespace

void peripheral::synchronise_access() {
    // An initiator calling from an SC_METHOD cannot wait: its offset stays
    // in the returned delay (it is then only as ordered as its caller).
    if (ctx_->offset == sc_core::SC_ZERO_TIME || !in_thread()) return;
    access_ctx* const mine = ctx_;
    const sc_core::sc_time d = mine->offset;
    mine->offset = sc_core::SC_ZERO_TIME;
    sc_core::wait(d);
    ctx_ = mine;
    set_log_time_offset(&mine->offset);
}

void peripheral::wait_in_access(const sc_core::sc_event& e) {
    if (!in_thread())
        throw std::logic_error(std::string(name()) +
                               ": a blocking register was accessed from a process that cannot wait");
    // Catching up to the access's local time may take time, during which
    // the caller's condition can come true and `e` be notified with nobody
    // waiting on it: return then, so the caller looks again before it
    // sleeps (every caller loops on its condition). Only an access already
    // at its local time sleeps on `e`.
    if (ctx_->offset != sc_core::SC_ZERO_TIME) {
        synchronise_access();
        return;
    }
    access_ctx* const mine = ctx_;
    // A hart blocked here is asleep (sim_context::harts_awake).
    const bool hart = mine->who && mine->who->hart >= 0;
    unsigned& awake = context().harts_awake;
    awake -= hart;
    sc_core::wait(e);
    awake += hart;
    ctx_ = mine;
    set_log_time_offset(&mine->offset);
}

unsigned peripheral::transport_dbg(tlm::tlm_generic_payload& t) {
    // A route lookup (bus_initiator::resolve_burst_route): accesses through
    // this window may come straight to burst().
    if (auto* ext = t.get_extension<txn_ext>(); ext && ext->resolve) {
        ext->resolve->target = this;
        return 0;
    }
    // Debug reads show stored values without side effects; debug writes are
    // refused so a loader can never poke a register by accident.
    if (t.is_write() || t.get_command() != tlm::TLM_READ_COMMAND || t.get_data_length() != 4) return 0;
    reg* r = find(static_cast<std::uint32_t>(t.get_address()));
    if (!r) return 0;
    // Outside any access: a peek's access_time() is SystemC time.
    access_ctx* const serving = std::exchange(ctx_, &idle_ctx_);
    const std::uint32_t v = r->peek ? r->peek() : r->value;
    ctx_ = serving;
    std::memcpy(t.get_data_ptr(), &v, 4);
    return 4;
}

}  // namespace npu::base
