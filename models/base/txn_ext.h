// The one TLM extension npusim attaches to its transactions: who issued it
// (for memcheck and error reports in the targets) and, on the way back, which
// memory served it (for per-level traffic) and why the router refused it.
// Each initiator owns one instance for its whole life: nothing is allocated
// per access.
#pragma once

#include "sim_services.h"
#include "stats.h"

#include <tlm>

#include <cstdint>

namespace npu::base {

struct txn_ext;

// A target that serves a burst exactly as its b_transport would, without a
// payload: the same checks, data, memcheck, timing, counters and txn_ext
// results, for the offset the router would have forwarded. What a DMA
// channel moving a transfer between memories uses per burst instead of the
// whole socket chain (bus_initiator::direct). Memories implement it; a
// target that does not (a peripheral) is reached by b_transport as ever.
class burst_target {
public:
    virtual tlm::tlm_response_status burst(tlm::tlm_command cmd, std::uint64_t offset, unsigned char* data,
                                           unsigned len, sc_core::sc_time& delay, txn_ext& ext) = 0;
    // A read or write burst of [offset, offset + len) that burst() would
    // serve with nothing to report (the caller knows it stays inside the
    // target): its data, timing (delay grows from the arrival, SystemC time
    // + delay, as in burst) and counters, and the bytes in the initiator's
    // traffic counters, without the extension. False, having done nothing,
    // where burst() has more to do (a memcheck finding): the caller then
    // calls burst(). The default does nothing.
    virtual bool stream(bool write, std::uint64_t offset, unsigned char* data, unsigned len, sc_core::sc_time& delay,
                        const sc_core::sc_time& now, std::uint64_t beat_bytes, traffic_counters& traffic) {
        (void)write, (void)offset, (void)data, (void)len, (void)delay, (void)now, (void)beat_bytes, (void)traffic;
        return false;
    }
    // A hint that a burst of [offset, offset + len) comes next: a target
    // that keeps the bytes in host memory may start loading them (and their
    // memcheck shadow) into the host's caches. No effect on the simulation.
    virtual void prefetch(std::uint64_t offset, unsigned len) { (void)offset, (void)len; }

protected:
    ~burst_target() = default;
};

// Where a bus address leads, as the interconnect found it once: the target
// behind the window, the window's bus range, the hop every access through it
// adds, and the interconnect's count of forwarded transactions (a direct
// burst is one). Filled by a debug transaction carrying txn_ext::resolve
// (bus_initiator::resolve_burst_route); target stays null when anything on
// the way does not take part.
struct burst_route {
    burst_target* target = nullptr;
    std::uint64_t window_base = 0, window_end = 0;  // bus range, inclusive end
    sc_core::sc_time hop;
    std::uint64_t* forwarded = nullptr;
    bool covers(std::uint64_t lo, std::uint64_t hi) const {
        return target && lo >= window_base && hi <= window_end;
    }
};

struct txn_ext : tlm::tlm_extension<txn_ext> {
    const initiator_id* who = nullptr;
    std::uint64_t pc = 0;
    bool has_pc = false;
    // The address as the initiator issued it (routers rewrite the payload's
    // address to a target offset; reports want the bus address).
    std::uint64_t bus_address = 0;
    // The initiator's port width in bytes per cycle (a DMA channel's L1
    // side, dma.l1_width); 0: the target's own port bandwidth.
    std::uint64_t beat_bytes = 0;
    // Set by the target memory that served the access (traffic_registry id).
    int traffic_id = -1;
    // Set by the router.
    enum class route { ok, unmapped, not_visible } routed = route::ok;
    // On a debug transaction (TLM_IGNORE_COMMAND): instead of data, mark
    // the bytes' memcheck shadow as the destination of a DMA transfer in
    // flight (or clear that mark). See memory::transport_dbg.
    enum class memcheck_mark : std::uint8_t { none, in_flight, clear_in_flight } mark = memcheck_mark::none;
    // Bank booking in a banked memory (the L1). `ahead`: a TLM_IGNORE_COMMAND
    // b_transport that books the burst's banks at the cycles it will use them
    // and returns its timing, moving no data (a DMA channel books its L1 side
    // when it decides the burst, before its SystemC time reaches it: dma.cpp).
    // `booked`: the burst's data, whose banks were booked that way: the
    // memory moves the data without booking them again.
    enum class bank_booking : std::uint8_t { normal, ahead, booked } booking = bank_booking::normal;
    // On a debug transaction (TLM_IGNORE_COMMAND): instead of data, fill in
    // where the address leads (burst_route); the router adds its window,
    // hop and counter, a memory itself as the burst_target.
    burst_route* resolve = nullptr;

    tlm::tlm_extension_base* clone() const override { return new txn_ext(*this); }
    void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const txn_ext&>(e); }
};

}  // namespace npu::base
