#include "event_unit.h"

#include "event_unit_regs.h"

#include <fmt/core.h>

#include <stdexcept>

namespace npu::cluster {

namespace {
static_assert(NPU_EU_NB_BARRIERS == 4, "barriers_ is sized for the register map");
static_assert(NPU_EU_NB_MUTEXES == 4, "mutex_owner_ is sized for the register map");
static_assert(NPU_EU_MUTEX(NPU_EU_NB_MUTEXES - 1) < NPU_EU_DISPATCH_FN, "mutexes overlap the dispatcher");

std::uint32_t low_bits(unsigned n) { return n >= 32 ? ~0u : (1u << n) - 1; }
}  // namespace

// Hart masks are 32-bit: the schema bounds cluster.workers to 31, so there
// are at most 32 harts.
event_unit::event_unit(sc_core::sc_module_name nm, const cfg::config& cfg)
    : base::peripheral(nm, cfg, "event_unit"),
      event_in("event_in"),
      wake_hart("wake_hart"),
      irq("irq"),
      harts_(static_cast<unsigned>(cfg.count("cluster.workers")) + 1),
      all_harts_(low_bits(harts_)),
      all_workers_(low_bits(harts_ - 1)),
      harts_state_(harts_) {
    event_in.init(NPU_EVT_NB_LINES, [this](const char* nm, std::size_t line) {
        return new base::line_in(nm, [this, line](unsigned, bool level, const sc_core::sc_time& delay) {
            if (level) raise(static_cast<unsigned>(line), ~0u, delay);
        });
    });
    wake_hart.init(harts_);
    irq.init(harts_);
    for (unsigned h = 0; h < harts_; ++h) hart_events_.emplace_back();
    for (unsigned b = 0; b < NPU_EU_NB_BARRIERS; ++b) barrier_events_.emplace_back();
    for (unsigned m = 0; m < NPU_EU_NB_MUTEXES; ++m) mutex_events_.emplace_back();

    auto own = [this](auto field) {
        return [this, field]() -> std::uint32_t {
            const int h = hart();
            return h < 0 ? 0 : harts_state_[h].*field;
        };
    };
    add_register(NPU_EU_EVT_MASK, "evt_mask", read_write, 0, own(&hart_state::mask), [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) harts_state_[h].mask = v;
    });
    add_register(NPU_EU_EVT_MASK_AND, "evt_mask_and", write_only, 0, nullptr, [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) harts_state_[h].mask &= ~v;
    });
    add_register(NPU_EU_EVT_MASK_OR, "evt_mask_or", write_only, 0, nullptr, [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) harts_state_[h].mask |= v;
    });
    add_register(NPU_EU_IRQ_MASK, "irq_mask", read_write, 0, own(&hart_state::irq_mask), [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) {
            harts_state_[h].irq_mask = v & low_bits(NPU_EVT_NB_IRQ_LINES);
            update_irq(static_cast<unsigned>(h));
        }
    });
    add_register(NPU_EU_BUFFER, "buffer", read_only, 0, own(&hart_state::buffer));
    add_register(NPU_EU_BUFFER_MASKED, "buffer_masked", read_only, 0, [this]() -> std::uint32_t {
        const int h = hart();
        return h < 0 ? 0 : harts_state_[h].buffer & harts_state_[h].mask;
    });
    add_register(NPU_EU_BUFFER_CLEAR, "buffer_clear", write_only, 0, nullptr, [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) {
            harts_state_[h].buffer &= ~v;
            update_irq(static_cast<unsigned>(h));
        }
    });
    add_register(NPU_EU_EVT_WAIT, "evt_wait", read_only, 0, [this]() { return wait_events(false); });
    add_register(NPU_EU_EVT_WAIT_CLEAR, "evt_wait_clear", read_only, 0, [this]() { return wait_events(true); });
    add_register(NPU_EU_HART_ID, "hart_id", read_only, 0, [this]() -> std::uint32_t {
        const int h = hart();
        return h < 0 ? 0 : static_cast<std::uint32_t>(h);
    });
    for (unsigned n = 0; n < NPU_EVT_NB_SW; ++n)
        add_register(NPU_EU_SW_EVENT(n), fmt::format("sw_event{}", n), write_only, 0, nullptr,
                     [this, n](std::uint32_t m) {
                         if (hart() < 0) return;
                         if (!valid_mask(m)) {
                             NPU_LOG(log(), warn, "SW_EVENT({}): hart mask {:#x} names harts that do not exist", n, m);
                             reject_access();
                             return;
                         }
                         apply(NPU_EVT_SW0 + n, m);
                     });
    for (unsigned b = 0; b < NPU_EU_NB_BARRIERS; ++b) {
        const std::uint32_t base = NPU_EU_BARRIER(b);
        add_register(
            base + NPU_EU_BARRIER_TEAM, fmt::format("barrier{}_team", b), read_write, 0,
            [this, b]() { return hart() < 0 ? 0u : barriers_[b].team; },
            [this, b](std::uint32_t m) {
                if (hart() < 0) return;
                barrier& br = barriers_[b];
                if (!valid_mask(m) || br.arrived) {
                    NPU_LOG(log(), warn, "BARRIER({}).TEAM = {:#x}: {}", b, m,
                            br.arrived ? fmt::format("harts {:#x} are waiting in the current round", br.arrived)
                                       : std::string("names harts that do not exist"));
                    reject_access();
                    return;
                }
                br.team = m;
            });
        add_register(base + NPU_EU_BARRIER_ARRIVED, fmt::format("barrier{}_arrived", b), read_only, 0,
                     [this, b]() { return hart() < 0 ? 0u : barriers_[b].arrived; });
        add_register(base + NPU_EU_BARRIER_WAIT, fmt::format("barrier{}_wait", b), read_only, 0, [this, b]() {
            arrive(b, true);
            return barriers_[b].team;
        });
        add_register(base + NPU_EU_BARRIER_ARRIVE, fmt::format("barrier{}_arrive", b), write_only, 0, nullptr,
                     [this, b](std::uint32_t) { arrive(b, false); });
    }
    for (unsigned m = 0; m < NPU_EU_NB_MUTEXES; ++m)
        add_register(
            NPU_EU_MUTEX(m), fmt::format("mutex{}", m), read_write, 0,
            [this, m]() -> std::uint32_t {
                mutex_lock(m);
                return 1;
            },
            [this, m](std::uint32_t) { mutex_unlock(m); });
    add_register(NPU_EU_DISPATCH_FN, "dispatch_fn", read_write, 0, own(&hart_state::fork_fn), [this](std::uint32_t v) {
        if (const int h = hart(); h >= 0) harts_state_[h].fork_fn = v;
    });
    add_register(NPU_EU_DISPATCH_ARG, "dispatch_arg", read_write, 0, own(&hart_state::fork_arg),
                 [this](std::uint32_t v) {
                     if (const int h = hart(); h >= 0) harts_state_[h].fork_arg = v;
                 });
    add_register(NPU_EU_DISPATCH_FORK, "dispatch_fork", write_only, 0, nullptr, [this](std::uint32_t m) { fork(m); });
    add_register(NPU_EU_DISPATCH_POP, "dispatch_pop", read_only, 0, [this]() { return pop(); });
    add_register(NPU_EU_DISPATCH_POP_ARG, "dispatch_pop_arg", read_only, 0, [this]() -> std::uint32_t {
        const int h = hart();
        return h < 0 ? 0 : harts_state_[h].current.arg;
    });
    add_register(NPU_EU_DISPATCH_TEAM, "dispatch_team", read_only, 0, [this]() -> std::uint32_t {
        const int h = hart();
        return h < 0 ? 0 : harts_state_[h].current.team;
    });
    add_register(NPU_EU_DISPATCH_DONE, "dispatch_done", write_only, 0, nullptr, [this](std::uint32_t) { done(); });
    add_register(NPU_EU_DISPATCH_JOIN, "dispatch_join", read_only, 0, [this]() { return join(); });
    const auto busy_mask = [this]() -> std::uint32_t {
        std::uint32_t m = 0;
        for (unsigned w = 0; w < harts_; ++w)
            if (harts_state_[w].has_job || !harts_state_[w].queue.empty()) m |= 1u << w;
        return m;
    };
    add_register(NPU_EU_DISPATCH_BUSY, "dispatch_busy", read_only, 0,
                 [this, busy_mask]() -> std::uint32_t { return hart() < 0 ? 0 : busy_mask(); });
    // The debugger (no hart of its own) sees the cluster's dispatch state.
    set_peek(NPU_EU_DISPATCH_BUSY, busy_mask);

    add_stat("events_raised", events_raised_, "events", "event lines raised (per hart reached)");
    add_stat("forks", forks_, "forks", "DISPATCH_FORK writes");
    add_stat("barriers_completed", barriers_completed_, "rounds", "hardware barrier rounds completed");
    add_stat("mutex_locks", mutex_locks_, "locks", "hardware mutexes taken (all mutexes, all harts)");
    for (unsigned h = 0; h < harts_; ++h) {
        add_stat(fmt::format("hart{}.wait_cycles", h), harts_state_[h].wait_cycles, "cycles",
                 "cycles hart " + std::to_string(h) + " slept in a blocking register (wait, barrier, pop, join)");
        add_stat(fmt::format("hart{}.jobs", h), harts_state_[h].jobs, "jobs", "dispatched jobs popped");
    }

    SC_METHOD(deliver_raised);
    sensitive << raised_event_;
    dont_initialize();
}

int event_unit::hart() {
    // Every access is a synchronisation point: its effect, and what it
    // reads, are at the hart's true time, in time order with other harts.
    synchronise_access();
    const base::initiator_id* who = current_initiator();
    if (!who || who->hart < 0 || static_cast<unsigned>(who->hart) >= harts_) {
        NPU_LOG(log(), warn, "access by {}, which is not a hart of this cluster",
                who ? who->name : "an unknown initiator");
        reject_access();
        return -1;
    }
    return who->hart;
}

void event_unit::raise(unsigned line, std::uint32_t hart_mask, const sc_core::sc_time& delay) {
    if (line >= NPU_EVT_NB_LINES) throw std::logic_error(fmt::format("{}: event line {} does not exist", name(), line));
    hart_mask &= all_harts_;
    if (delay == sc_core::SC_ZERO_TIME) {
        apply(line, hart_mask);
        return;
    }
    raised_.emplace(base::sim_time() + delay, std::make_pair(line, hart_mask));
    raised_event_.notify(delay);
}

void event_unit::deliver_raised() {
    const sc_core::sc_time now = base::sim_time();
    auto it = raised_.begin();
    for (; it != raised_.end() && it->first <= now; ++it) apply(it->second.first, it->second.second);
    raised_.erase(raised_.begin(), it);
    if (!raised_.empty()) raised_event_.notify(raised_.begin()->first - now);
}

void event_unit::apply(unsigned line, std::uint32_t hart_mask) {
    const std::uint32_t bit = 1u << line;
    for (unsigned h = 0; h < harts_; ++h) {
        if (!(hart_mask >> h & 1u)) continue;
        hart_state& s = harts_state_[h];
        s.buffer |= bit;
        ++events_raised_;
        hart_events_[h].notify(sc_core::SC_ZERO_TIME);
        // A hart asleep in WFI wakes on an event it waits for; one blocked in
        // this unit is woken by hart_events_ instead.
        if ((s.mask & bit) && !s.blocked) wake_hart[h]->drive(0, true, sc_core::SC_ZERO_TIME);
        update_irq(h);
    }
}

void event_unit::update_irq(unsigned h) {
    hart_state& s = harts_state_[h];
    const std::uint32_t level = s.buffer & s.irq_mask;
    const std::uint32_t changed = level ^ s.irq_level;
    s.irq_level = level;
    for (unsigned line = 0; line < NPU_EVT_NB_IRQ_LINES; ++line)
        if (changed >> line & 1u) irq[h]->drive(16 + line, level >> line & 1u, sc_core::SC_ZERO_TIME);
}

template <class Ready>
void event_unit::block(unsigned h, const sc_core::sc_event& e, Ready ready) {
    if (ready()) return;
    hart_state& s = harts_state_[h];
    const sc_core::sc_time t0 = base::sim_time();
    s.blocked = true;
    while (!ready()) wait_in_access(e);
    s.blocked = false;
    s.wait_cycles += static_cast<std::uint64_t>((base::sim_time() - t0) / clock_period());
}

std::uint32_t event_unit::wait_events(bool clear) {
    const int hi = hart();
    if (hi < 0) return 0;
    const unsigned h = static_cast<unsigned>(hi);
    hart_state& s = harts_state_[h];
    if (!s.mask) {
        NPU_LOG(log(), warn, "hart {}: EVT_WAIT with an empty event mask would sleep forever", h);
        reject_access();
        return 0;
    }
    block(h, hart_events_[h], [&s] { return (s.buffer & s.mask) != 0; });
    const std::uint32_t v = s.buffer & s.mask;
    if (clear) {
        s.buffer &= ~v;
        update_irq(h);
    }
    return v;
}

void event_unit::arrive(unsigned b, bool wait) {
    const int hi = hart();
    if (hi < 0) return;
    const unsigned h = static_cast<unsigned>(hi);
    barrier& br = barriers_[b];
    const std::uint32_t bit = 1u << h;
    if (!(br.team & bit) || (br.arrived & bit)) {
        NPU_LOG(
            log(), warn, "hart {}: barrier {} {}", h, b,
            br.team & bit ? "arrived twice in one round" : fmt::format("has team {:#x}, without this hart", br.team));
        reject_access();
        return;
    }
    br.arrived |= bit;
    if (br.arrived == br.team) {
        br.arrived = 0;
        ++br.round;
        ++barriers_completed_;
        barrier_events_[b].notify(sc_core::SC_ZERO_TIME);
        apply(NPU_EVT_BARRIER, br.team);
        return;
    }
    if (!wait) return;
    const std::uint64_t round = br.round;
    block(h, barrier_events_[b], [&br, round] { return br.round != round; });
}

void event_unit::mutex_lock(unsigned m) {
    const int hi = hart();
    if (hi < 0) return;
    const unsigned h = static_cast<unsigned>(hi);
    if (mutex_owner_[m] == hi) {
        NPU_LOG(log(), warn, "hart {}: MUTEX({}) taken again by the hart that holds it (it would wait forever)", h, m);
        reject_access();
        return;
    }
    int& owner = mutex_owner_[m];
    block(h, mutex_events_[m], [&owner] { return owner < 0; });
    owner = hi;
    ++mutex_locks_;
}

void event_unit::mutex_unlock(unsigned m) {
    const int hi = hart();
    if (hi < 0) return;
    if (mutex_owner_[m] != hi) {
        NPU_LOG(log(), warn, "hart {}: MUTEX({}) released by a hart that does not hold it ({})", hi, m,
                mutex_owner_[m] < 0 ? std::string("it is free") : fmt::format("hart {} does", mutex_owner_[m]));
        reject_access();
        return;
    }
    mutex_owner_[m] = -1;
    mutex_events_[m].notify(sc_core::SC_ZERO_TIME);
}

void event_unit::fork(std::uint32_t team) {
    const int hi = hart();
    if (hi < 0) return;
    const unsigned h = static_cast<unsigned>(hi);
    if (!team || (team & ~all_workers_) || barriers_[0].arrived) {
        NPU_LOG(log(), warn, "hart {}: DISPATCH_FORK {:#x}: {}", h, team,
                !team ? std::string("empty team")
                : (team & ~all_workers_)
                    ? fmt::format("not workers: {:#x} (workers are {:#x})", team & ~all_workers_, all_workers_)
                    : fmt::format("workers {:#x} still wait in barrier 0 of the previous team", barriers_[0].arrived));
        reject_access();
        return;
    }
    hart_state& s = harts_state_[h];
    const job j{s.fork_fn, s.fork_arg, team, h};
    for (unsigned w = 0; w < harts_; ++w)
        if (team >> w & 1u) {
            harts_state_[w].queue.push_back(j);
            ++s.pending_jobs;
        }
    barriers_[0].team = team;
    ++forks_;
    apply(NPU_EVT_DISPATCH, team);  // also wakes the workers blocked in POP
}

std::uint32_t event_unit::pop() {
    const int hi = hart();
    if (hi < 0) return 0;
    const unsigned h = static_cast<unsigned>(hi);
    hart_state& s = harts_state_[h];
    if (s.has_job) {
        NPU_LOG(log(), warn, "hart {}: DISPATCH_POP before DONE of the current job (fn {:#010x})", h, s.current.fn);
        reject_access();
        return 0;
    }
    block(h, hart_events_[h], [&s] { return !s.queue.empty(); });
    s.current = s.queue.front();
    s.queue.pop_front();
    s.has_job = true;
    ++s.jobs;
    return s.current.fn;
}

void event_unit::done() {
    const int hi = hart();
    if (hi < 0) return;
    const unsigned h = static_cast<unsigned>(hi);
    hart_state& s = harts_state_[h];
    if (!s.has_job) {
        NPU_LOG(log(), warn, "hart {}: DISPATCH_DONE without a current job", h);
        reject_access();
        return;
    }
    s.has_job = false;
    hart_state& f = harts_state_[s.current.forker];
    f.joined |= 1u << h;
    if (--f.pending_jobs == 0) {
        hart_events_[s.current.forker].notify(sc_core::SC_ZERO_TIME);
        apply(NPU_EVT_JOIN, 1u << s.current.forker);
    }
}

std::uint32_t event_unit::join() {
    const int hi = hart();
    if (hi < 0) return 0;
    const unsigned h = static_cast<unsigned>(hi);
    hart_state& s = harts_state_[h];
    // A job this hart forked to itself and has not ended could never finish.
    bool own = s.has_job && s.current.forker == h;
    for (const job& j : s.queue) own |= j.forker == h;
    if (own) {
        NPU_LOG(log(), warn, "hart {}: DISPATCH_JOIN while it holds a job it forked itself", h);
        reject_access();
        return 0;
    }
    block(h, hart_events_[h], [&s] { return s.pending_jobs == 0; });
    const std::uint32_t joined = s.joined;
    s.joined = 0;
    return joined;
}

}  // namespace npu::cluster
