// The cluster event unit (PULP-style): per-hart event mask, buffer and
// blocking wait; hardware barriers; the fork/join dispatcher. Register map
// and event lines in event_unit_regs.h (shared with the firmware).
//
// Per-hart view: the accessing hart (the transaction's initiator id) selects
// its own mask/buffer, like PULP's demux window.
//
// Timing under temporal decoupling: every access by a core first
// synchronises (the target wait()s for the initiator's local offset), so
// events, arrivals, dispatches and completions take effect at the hart's true
// time, in time order; blocking registers then wait() on an event and the
// core re-bases its local time when the load returns (models/cpu/core.h).
// A barrier releases its team at the last arrival's time, a join returns at
// the last DONE's time, a dispatched worker starts at the fork's time; each
// plus the register latency (event_unit.latency).
//
// Events from other models (DMA, SA completion) come in on the event lines
// (`event_in`, or raise()) with the raiser's local-time offset; they are
// applied at that time.
#pragma once

#include "base/line.h"
#include "base/peripheral.h"

#include <cstdint>
#include <deque>
#include <map>
#include <vector>

namespace npu::cluster {

class event_unit : public base::peripheral {
public:
    event_unit(sc_core::sc_module_name nm, const cfg::config& cfg);

    // Raises event `line` in the buffer of every hart in `hart_mask`, at
    // SystemC time + `delay` (the raiser's local-time offset).
    void raise(unsigned line, std::uint32_t hart_mask, const sc_core::sc_time& delay = sc_core::SC_ZERO_TIME);

    // Event line n (NPU_EVT_*): a drive with level true raises event n in
    // every hart's buffer, `delay` after now. Lines nobody drives stay idle.
    sc_core::sc_vector<base::line_in> event_in;
    // Per hart h: `wake_hart[h]` pulses when an event in h's mask arrives
    // (ends a WFI; must not boot a parked hart); `irq[h]` drives h's local
    // interrupt lines, index = mip bit (16 + line), from BUFFER & IRQ_MASK.
    sc_core::sc_vector<base::line_out> wake_hart;
    sc_core::sc_vector<base::line_out> irq;

    unsigned harts() const { return harts_; }
    unsigned workers() const { return harts_ - 1; }
    // State, for tests and reports.
    std::uint32_t buffer(unsigned hart) const { return harts_state_.at(hart).buffer; }
    std::uint32_t mask(unsigned hart) const { return harts_state_.at(hart).mask; }
    std::uint64_t wait_cycles(unsigned hart) const { return harts_state_.at(hart).wait_cycles; }

private:
    SC_HAS_PROCESS(event_unit);

    struct job {
        std::uint32_t fn, arg, team;
        unsigned forker;
    };
    struct hart_state {
        std::uint32_t mask = 0, irq_mask = 0, buffer = 0;
        std::uint32_t irq_level = 0;              // last levels given to set_irq
        std::uint32_t fork_fn = 0, fork_arg = 0;  // DISPATCH_FN / DISPATCH_ARG
        bool blocked = false;                     // asleep in a blocking register
        std::deque<job> queue;      // dispatched, not popped yet
        bool has_job = false;       // popped, not DONE yet
        job current{};
        unsigned pending_jobs = 0;  // jobs this hart forked that are not done
        std::uint32_t joined = 0;   // harts that ran them
        std::uint64_t wait_cycles = 0;
        std::uint64_t jobs = 0;
    };
    struct barrier {
        std::uint32_t team = 0, arrived = 0;
        std::uint64_t round = 0;
        std::uint64_t completed = 0;
    };

    // Synchronises the access, then names the accessing hart, or -1 (not a
    // hart of this cluster: the access is rejected).
    int hart();
    bool valid_mask(std::uint32_t m) const { return (m & ~all_harts_) == 0; }
    void apply(unsigned line, std::uint32_t hart_mask);
    void update_irq(unsigned h);
    std::uint32_t wait_events(bool clear);
    void arrive(unsigned b, bool wait);
    void fork(std::uint32_t team);
    std::uint32_t pop();
    void done();
    std::uint32_t join();
    // Blocks the current access on `e` until `ready()`, counting the time as
    // the hart's wait cycles.
    template <class Ready>
    void block(unsigned h, const sc_core::sc_event& e, Ready ready);
    void deliver_raised();

    unsigned harts_;
    std::uint32_t all_harts_, all_workers_;
    std::vector<hart_state> harts_state_;
    std::deque<sc_core::sc_event> hart_events_;  // per hart: its buffer, queue or forked jobs changed
    barrier barriers_[4];
    std::deque<sc_core::sc_event> barrier_events_;
    // Hardware mutexes: the holding hart, or -1; an event per mutex for its waiters.
    void mutex_lock(unsigned m);
    void mutex_unlock(unsigned m);
    int mutex_owner_[4] = {-1, -1, -1, -1};
    std::deque<sc_core::sc_event> mutex_events_;
    std::uint64_t mutex_locks_ = 0;
    // raise() calls with a delay, applied at their time by deliver_raised().
    std::multimap<sc_core::sc_time, std::pair<unsigned, std::uint32_t>> raised_;
    sc_core::sc_event raised_event_;

    std::uint64_t events_raised_ = 0;
    std::uint64_t forks_ = 0;
    std::uint64_t barriers_completed_ = 0;
};

}  // namespace npu::cluster
