// The one wrapper around a TLM initiator socket that every master uses.
//
// read/write try DMI first (a small cache of granted windows, no call into
// the target), fall back to b_transport with a payload owned by the wrapper
// (no allocation per access), keep the caller's local time offset, count
// traffic per target memory, and apply memcheck on DMI accesses through the
// shadow directory. The returned status is the TLM response status: models
// turn TLM_ADDRESS_ERROR_RESPONSE into their own fault behaviour.
#pragma once

#include "context.h"
#include "sim_services.h"
#include "txn_ext.h"

#include <tlm>
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>
#include <cstring>

namespace npu::base {

// A DMI window as the wrapper caches it.
struct dmi_window {
    unsigned char* host = nullptr;  // host pointer of `start`
    std::uint64_t start = 0;        // first bus address
    std::uint64_t end = 0;          // last bus address (inclusive, as in tlm_dmi)
    sc_core::sc_time read_latency;
    sc_core::sc_time write_latency;
    bool readable = false;
    bool writable = false;
    unsigned char* shadow = nullptr;  // memcheck bytes for `host`, or null (memcheck off)
    int traffic_id = -1;
    bool contains(std::uint64_t a, unsigned n) const { return a >= start && a + n - 1 <= end; }
};

class bus_initiator : public tlm::tlm_bw_transport_if<> {
public:
    static constexpr int dmi_cache_size = 8;

    bus_initiator(const char* socket_name, const initiator_id& who);
    ~bus_initiator() override;
    bus_initiator(const bus_initiator&) = delete;
    bus_initiator& operator=(const bus_initiator&) = delete;

    tlm::tlm_initiator_socket<32> socket;

    // Generic access; `delay` is the caller's local time offset (quantum keeper).
    tlm::tlm_response_status read(std::uint64_t addr, void* data, unsigned size, sc_core::sc_time& delay);
    tlm::tlm_response_status write(std::uint64_t addr, const void* data, unsigned size, sc_core::sc_time& delay);

    template <typename T>
    tlm::tlm_response_status read(std::uint64_t addr, T& out, sc_core::sc_time& delay) {
        return read(addr, &out, sizeof(T), delay);
    }
    template <typename T>
    tlm::tlm_response_status write(std::uint64_t addr, const T& v, sc_core::sc_time& delay) {
        return write(addr, &v, sizeof(T), delay);
    }

    // The same with a quantum keeper: the access is timed from the keeper's
    // local time, which it then advances, and the caller yields to SystemC
    // when the quantum is used up (temporal decoupling kept).
    template <typename T>
    tlm::tlm_response_status read(std::uint64_t addr, T& out, tlm_utils::tlm_quantumkeeper& qk) {
        return keep(qk, read(addr, &out, sizeof(T), local_ = qk.get_local_time()));
    }
    template <typename T>
    tlm::tlm_response_status write(std::uint64_t addr, const T& v, tlm_utils::tlm_quantumkeeper& qk) {
        return keep(qk, write(addr, &v, sizeof(T), local_ = qk.get_local_time()));
    }

    // Debug transport (no timing, no memcheck): loaders and report readers.
    unsigned debug_read(std::uint64_t addr, void* data, unsigned size);
    unsigned debug_write(std::uint64_t addr, const void* data, unsigned size);
    // Memcheck: marks [addr, addr + size) as the destination of a transfer
    // in flight (on) or clears that mark (off), through the target's debug
    // port. Until a write lands, a read of such a byte is a finding: a DMA
    // destination read before the transfer wrote it. Returns bytes marked.
    unsigned memcheck_in_flight(std::uint64_t addr, unsigned size, bool on);

    // Fast path for instruction-set simulators: the cached DMI window that
    // covers [addr, addr+size), requesting one if none is cached. Null when
    // the target grants no DMI there.
    const dmi_window* dmi_for(std::uint64_t addr, unsigned size, bool write);

    // The PC the report should name for the next accesses (cores set it
    // before a slow-path access; DMA/SA set the PC that programmed them).
    void set_pc(std::uint64_t pc) {
        ext_.pc = pc;
        ext_.has_pc = true;
    }

    // The port width (bytes per cycle) the next accesses' bursts move at in
    // a banked memory (a DMA channel's L1 side); 0: the memory's bandwidth.
    void set_beat_bytes(std::uint64_t b) { ext_.beat_bytes = b; }

    // Books the banks a burst of `size` bytes at `addr` will use in a banked
    // memory, issued at the caller's local time `delay`, without moving data
    // (txn_ext::bank_booking::ahead); `delay` grows by the burst's time as a
    // read or write would. The burst's data access follows with
    // set_banks_booked(true) so the memory does not book them twice.
    tlm::tlm_response_status book_banks(std::uint64_t addr, unsigned size, sc_core::sc_time& delay);
    void set_banks_booked(bool on) {
        ext_.booking = on ? txn_ext::bank_booking::booked : txn_ext::bank_booking::normal;
    }
    // set_banks_booked(true) for a scope, when `on` (an SA job whose port
    // booked its stream), back to normal when it ends, however it ends.
    class banks_booked_scope {
    public:
        banks_booked_scope(bus_initiator& bus, bool on) : bus_(bus), on_(on) {
            if (on_) bus_.set_banks_booked(true);
        }
        ~banks_booked_scope() {
            if (on_) bus_.set_banks_booked(false);
        }
        banks_booked_scope(const banks_booked_scope&) = delete;
        banks_booked_scope& operator=(const banks_booked_scope&) = delete;

    private:
        bus_initiator& bus_;
        bool on_;
    };

    // Direct bursts: where `addr` leads, asked once through the socket (a
    // debug transaction: no time, no data, no counters); `out.target` stays
    // null if a target on the way does not serve bursts directly.
    void resolve_burst_route(std::uint64_t addr, burst_route& out);
    // A read (TLM_READ_COMMAND) or write of a burst [addr, addr + size)
    // inside `r`'s window, or with TLM_IGNORE_COMMAND its bank booking
    // ahead (as book_banks), handed straight to the route's target: the
    // same data, timing, memcheck, counters and status as through the
    // socket (the interconnect's hop and forwarded count included), without
    // a payload travelling the socket chain. A burst outside the window
    // goes through the socket.
    tlm::tlm_response_status direct(const burst_route& r, tlm::tlm_command cmd, std::uint64_t addr,
                                    unsigned char* data, unsigned size, sc_core::sc_time& delay) {
        if (!r.covers(addr, addr + size - 1)) {
            if (cmd == tlm::TLM_IGNORE_COMMAND) return book_banks(addr, size, delay);
            return transport(cmd, addr, data, size, delay);
        }
        ext_.traffic_id = -1;
        ext_.bus_address = addr;
        ext_.routed = txn_ext::route::ok;
        // The router counts reads and writes, not bookings ahead, and adds its hop to each.
        *r.forwarded += cmd != tlm::TLM_IGNORE_COMMAND;
        delay += r.hop;
        tlm::tlm_response_status st;
        if (cmd == tlm::TLM_IGNORE_COMMAND) {
            const txn_ext::bank_booking was = ext_.booking;
            ext_.booking = txn_ext::bank_booking::ahead;
            st = r.target->burst(cmd, addr - r.window_base, data, size, delay, ext_);
            ext_.booking = was;
        } else {
            st = r.target->burst(cmd, addr - r.window_base, data, size, delay, ext_);
            if (st == tlm::TLM_OK_RESPONSE && ext_.traffic_id >= 0) {
                auto& ctr = cmd == tlm::TLM_READ_COMMAND ? traffic_.read_bytes : traffic_.write_bytes;
                ctr[ext_.traffic_id] += size;
            }
        }
        return st;
    }

    // Off: every access is a b_transport and no DMI window is requested, so
    // the target's timing (port contention, banks) applies to each burst —
    // what a DMA or accelerator master needs. On by default (cores).
    void set_dmi_enabled(bool on) {
        dmi_enabled_ = on;
        if (!on) dmi_count_ = 0;
    }
    bool dmi_enabled() const { return dmi_enabled_; }

    const initiator_id& who() const { return who_; }
    traffic_counters& traffic() { return traffic_; }
    const traffic_counters& traffic() const { return traffic_; }
    // What the interconnect said about the last failed access.
    const txn_ext& last_ext() const { return ext_; }

    // Memcheck on a DMI access (shared with ISS fast paths).
    void memcheck_read(const dmi_window& w, std::uint64_t addr, unsigned size) {
        if (w.shadow) {
            const unsigned char* s = w.shadow + (addr - w.start);
            // Never written, or a DMA in flight has yet to write it.
            if (const auto i = static_cast<unsigned>(first_not_written(s, size)); i < size) {
                report_uninit(w, addr, i, size, (s[i] & 2) != 0, s[i] == shadow_zeroed);
                // Reported once: later reads of the same bytes stay quiet. A
                // heap header's or padding's mark stays (a store there is
                // still an overflow).
                unsigned char* const m = w.shadow + (addr - w.start);
                for (unsigned k = 0; k < size; ++k)
                    m[k] = static_cast<unsigned char>(shadow_written | (m[k] & shadow_redzone));
            }
        }
    }
    static void memcheck_write(const dmi_window& w, std::uint64_t addr, unsigned size) {
        if (w.shadow) std::memset(w.shadow + (addr - w.start), 1, size);
    }

private:
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override;
    void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end) override;

    tlm::tlm_response_status transport(tlm::tlm_command cmd, std::uint64_t addr, unsigned char* data, unsigned size,
                                       sc_core::sc_time& delay);
    void request_dmi(std::uint64_t addr, bool write);
    tlm::tlm_response_status keep(tlm_utils::tlm_quantumkeeper& qk, tlm::tlm_response_status st) {
        qk.set(local_);
        if (qk.need_sync()) qk.sync();
        return st;
    }
    sc_core::sc_time local_;
    // Byte `first` of the access [addr, addr + size) is the first not written.
    void report_uninit(const dmi_window& w, std::uint64_t addr, unsigned first, unsigned size, bool in_flight,
                       bool zeroed_only);

    initiator_id who_;
    sim_services* svc_;  // the owning SoC's (found from the socket's module)
    tlm::tlm_generic_payload txn_;
    txn_ext ext_;
    dmi_window dmi_[dmi_cache_size];
    int dmi_count_ = 0;
    bool dmi_enabled_ = true;
    traffic_counters traffic_;
};

}  // namespace npu::base
