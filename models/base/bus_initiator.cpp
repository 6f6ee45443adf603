#include "bus_initiator.h"

namespace npu::base {

bus_initiator::bus_initiator(const char* socket_name, const initiator_id& who)
    : socket(socket_name), who_(who), svc_(&find_context(socket).services) {
    socket.bind(*this);
    ext_.who = &who_;
    // The extension lives as long as the initiator; the payload never frees it.
    txn_.set_extension(&ext_);
    txn_.set_streaming_width(0);
}

bus_initiator::~bus_initiator() {
    // The payload would delete its extensions; ours is a member.
    txn_.clear_extension(&ext_);
}

tlm::tlm_sync_enum bus_initiator::nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
    // Loosely-timed only: no target of ours answers on the backward path.
    return tlm::TLM_COMPLETED;
}

void bus_initiator::invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) {
    int kept = 0;
    for (int i = 0; i < dmi_count_; ++i)
        if (dmi_[i].end < start || dmi_[i].start > end) dmi_[kept++] = dmi_[i];
    dmi_count_ = kept;
}

void bus_initiator::request_dmi(std::uint64_t addr, bool write) {
    tlm::tlm_dmi d;
    txn_.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_length(0);
    if (!socket->get_direct_mem_ptr(txn_, d)) return;
    dmi_window w;
    w.host = d.get_dmi_ptr();
    w.start = d.get_start_address();
    w.end = d.get_end_address();
    w.read_latency = d.get_read_latency();
    w.write_latency = d.get_write_latency();
    w.readable = d.is_read_allowed();
    w.writable = d.is_write_allowed();
    if (const auto* r = svc_->find_host_range(w.host)) {
        if (svc_->memcheck() != memcheck_mode::off && r->shadow) w.shadow = r->shadow + (w.host - r->host);
        w.traffic_id = r->traffic_id;
    }
    // Most recent first; the oldest falls out when the cache is full.
    int n = dmi_count_ < dmi_cache_size ? dmi_count_ : dmi_cache_size - 1;
    for (int i = n; i > 0; --i) dmi_[i] = dmi_[i - 1];
    dmi_[0] = w;
    dmi_count_ = n + 1;
}

const dmi_window* bus_initiator::dmi_for(std::uint64_t addr, unsigned size, bool write) {
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < dmi_count_; ++i) {
            const dmi_window& w = dmi_[i];
            if (w.contains(addr, size) && (write ? w.writable : w.readable)) return &w;
        }
        if (pass == 0) request_dmi(addr, write);
    }
    return nullptr;
}

tlm::tlm_response_status bus_initiator::transport(tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data,
                                                  unsigned size, sc_core::sc_time& delay) {
    txn_.set_command(cmd);
    txn_.set_address(addr);
    txn_.set_data_ptr(data);
    txn_.set_data_length(size);
    txn_.set_streaming_width(size);
    txn_.set_byte_enable_ptr(nullptr);
    txn_.set_dmi_allowed(false);
    txn_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext_.traffic_id = -1;
    ext_.bus_address = addr;
    ext_.routed = txn_ext::route::ok;
    socket->b_transport(txn_, delay);
    const auto st = txn_.get_response_status();
    if (st == tlm::TLM_OK_RESPONSE && ext_.traffic_id >= 0) {
        auto& ctr = cmd == tlm::TLM_READ_COMMAND ? traffic_.read_bytes : traffic_.write_bytes;
        ctr[ext_.traffic_id] += size;
    }
    if (dmi_enabled_ && txn_.is_dmi_allowed()) request_dmi(addr, cmd == tlm::TLM_WRITE_COMMAND);
    return st;
}

tlm::tlm_response_status bus_initiator::read(std::uint64_t addr, void* data, unsigned size, sc_core::sc_time& delay) {
    for (int i = 0; i < dmi_count_; ++i) {
        const dmi_window& w = dmi_[i];
        if (w.readable && w.contains(addr, size)) {
            memcheck_read(w, addr, size);
            std::memcpy(data, w.host + (addr - w.start), size);
            delay += w.read_latency;
            if (w.traffic_id >= 0) traffic_.read_bytes[w.traffic_id] += size;
            return tlm::TLM_OK_RESPONSE;
        }
    }
    return transport(tlm::TLM_READ_COMMAND, addr, static_cast<unsigned char*>(data), size, delay);
}

tlm::tlm_response_status bus_initiator::write(std::uint64_t addr, const void* data, unsigned size,
                                              sc_core::sc_time& delay) {
    for (int i = 0; i < dmi_count_; ++i) {
        const dmi_window& w = dmi_[i];
        if (w.writable && w.contains(addr, size)) {
            memcheck_write(w, addr, size);
            std::memcpy(w.host + (addr - w.start), data, size);
            delay += w.write_latency;
            if (w.traffic_id >= 0) traffic_.write_bytes[w.traffic_id] += size;
            return tlm::TLM_OK_RESPONSE;
        }
    }
    // TLM payloads carry non-const data pointers even for writes.
    return transport(tlm::TLM_WRITE_COMMAND, addr, static_cast<unsigned char*>(const_cast<void*>(data)), size, delay);
}

tlm::tlm_response_status bus_initiator::book_banks(std::uint64_t addr, unsigned size, sc_core::sc_time& delay) {
    const txn_ext::bank_booking was = ext_.booking;
    ext_.booking = txn_ext::bank_booking::ahead;
    txn_.set_command(tlm::TLM_IGNORE_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_ptr(nullptr);
    txn_.set_data_length(size);
    txn_.set_streaming_width(size);
    txn_.set_byte_enable_ptr(nullptr);
    txn_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    ext_.bus_address = addr;
    ext_.routed = txn_ext::route::ok;
    socket->b_transport(txn_, delay);
    ext_.booking = was;
    return txn_.get_response_status();
}

void bus_initiator::resolve_burst_route(std::uint64_t addr, burst_route& out) {
    out = burst_route{};
    ext_.resolve = &out;
    txn_.set_command(tlm::TLM_IGNORE_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_ptr(nullptr);
    txn_.set_data_length(0);
    txn_.set_streaming_width(0);
    socket->transport_dbg(txn_);
    ext_.resolve = nullptr;
    // A route the interconnect did not describe (an initiator bound to a
    // memory directly, say) is not taken: its window and hop are unknown.
    if (!out.forwarded) out.target = nullptr;
}

unsigned bus_initiator::debug_read(std::uint64_t addr, void* data, unsigned size) {
    txn_.set_command(tlm::TLM_READ_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_ptr(static_cast<unsigned char*>(data));
    txn_.set_data_length(size);
    txn_.set_streaming_width(size);
    return socket->transport_dbg(txn_);
}

unsigned bus_initiator::debug_write(std::uint64_t addr, const void* data, unsigned size) {
    txn_.set_command(tlm::TLM_WRITE_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(data)));
    txn_.set_data_length(size);
    txn_.set_streaming_width(size);
    return socket->transport_dbg(txn_);
}

unsigned bus_initiator::memcheck_in_flight(std::uint64_t addr, unsigned size, bool on) {
    ext_.mark = on ? txn_ext::memcheck_mark::in_flight : txn_ext::memcheck_mark::clear_in_flight;
    txn_.set_command(tlm::TLM_IGNORE_COMMAND);
    txn_.set_address(addr);
    txn_.set_data_ptr(nullptr);
    txn_.set_data_length(size);
    txn_.set_streaming_width(size);
    const unsigned n = socket->transport_dbg(txn_);
    ext_.mark = txn_ext::memcheck_mark::none;
    return n;
}

void bus_initiator::report_uninit(const dmi_window& w, std::uint64_t addr, unsigned first, unsigned size,
                                  bool in_flight, bool zeroed_only) {
    memcheck_info m;
    m.access = addr;
    for (unsigned i = first; i < size; ++i) m.unwritten += w.shadow[addr - w.start + i] != shadow_written;
    m.in_flight = in_flight;
    m.zeroed_only = zeroed_only;
    m.who = &who_;
    m.pc = ext_.pc;
    m.has_pc = ext_.has_pc;
    m.address = addr + first;
    m.size = size;
    heap_overflow_read(m, w.shadow[addr - w.start + first], *svc_);
    svc_->memcheck_finding(m);
}

}  // namespace npu::base
