// The event unit through real TLM sockets, one bus initiator per hart (the
// per-hart view comes from the transaction's initiator id): masks, buffer and
// clear, blocking wait woken at the raiser's time, software events, events
// raised by other models with a delay, interrupt lines, hardware barriers
// (release at the last arrival's time), fork/join dispatch, and every error
// path (unclaimed offset = address error, wrong access = command error).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "cluster/event_unit.h"
#include "cluster/event_unit_regs.h"
#include "util/harness.h"

#include <algorithm>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

using namespace npu;
using sc_core::SC_NS;
using sc_core::sc_time;
using sc_core::SC_ZERO_TIME;

namespace {

constexpr unsigned workers = 3, cc = workers, n_harts = workers + 1;
const sc_time lat(2, SC_NS);  // event_unit.latency = 2 cycles of 1 ns

// N masters onto the event unit's one target socket, addresses unchanged
// (the unit sees offsets, as behind the router).
struct mux : sc_core::sc_module {
    tlm_utils::simple_target_socket_tagged<mux> in[n_harts + 1];
    tlm_utils::simple_initiator_socket<mux> out{"out"};
    explicit mux(sc_core::sc_module_name nm) : sc_core::sc_module(nm) {
        for (unsigned i = 0; i <= n_harts; ++i) in[i].register_b_transport(this, &mux::fwd, static_cast<int>(i));
    }
    void fwd(int, tlm::tlm_generic_payload& t, sc_time& d) { out->b_transport(t, d); }
};

struct env {
    cfg::config cfg = cfg::config::load(
        "", {"soc.cluster_clock=1GHz", "event_unit.latency=2", "cluster.workers=" + std::to_string(workers)});
    test::test_context ctx{"ctx", cfg};
    // Harts 0..2 are workers, 3 the cluster controller; the last master is no hart.
    test::harness h{"h", {{"w0", 0, 0}, {"w1", 0, 1}, {"w2", 0, 2}, {"cc", 0, 3}, {"dma", 1, -1}}};
    mux m{"mux"};
    cluster::event_unit eu{"eu", cfg};
    std::vector<std::tuple<unsigned, unsigned, bool>> irqs;
    std::vector<unsigned> wakes;
    std::vector<std::unique_ptr<test::line_probe>> probes;  // per hart: wake, irq
    env() {
        for (unsigned i = 0; i <= n_harts; ++i) h.master(i).socket.bind(m.in[i]);
        m.out.bind(eu.socket);
        for (unsigned hart = 0; hart < eu.harts(); ++hart) {
            probes.push_back(std::make_unique<test::line_probe>(
                ("wake" + std::to_string(hart)).c_str(),
                [this, hart](unsigned, bool, const sc_time&) { wakes.push_back(hart); }));
            eu.wake_hart[hart].bind(probes.back()->in);
            probes.push_back(std::make_unique<test::line_probe>(
                ("irq" + std::to_string(hart)).c_str(),
                [this, hart](unsigned bit, bool level, const sc_time&) { irqs.emplace_back(hart, bit, level); }));
            eu.irq[hart].bind(probes.back()->in);
        }
    }
};
env* E;

// One hart's side of the bus: its local time offset travels with it.
struct port {
    base::bus_initiator& bus;
    sc_time local;
    explicit port(unsigned master, sc_time start = SC_ZERO_TIME) : bus(E->h.master(master)), local(start) {}
    tlm::tlm_response_status read(std::uint32_t off, std::uint32_t& v) { return bus.read(off, v, local); }
    tlm::tlm_response_status write(std::uint32_t off, std::uint32_t v) { return bus.write(off, v, local); }
    std::uint32_t rd(std::uint32_t off) {
        std::uint32_t v = 0xdeadbeef;
        EXPECT_EQ(read(off, v), tlm::TLM_OK_RESPONSE) << "read of offset " << off;
        return v;
    }
    void wr(std::uint32_t off, std::uint32_t v) {
        EXPECT_EQ(write(off, v), tlm::TLM_OK_RESPONSE) << "write of offset " << off;
    }
    sc_time now() const { return sc_core::sc_time_stamp() + local; }
    void work(sc_time t) { local += t; }
};

// Runs the functions as concurrent SystemC threads and returns when all ended.
void in_parallel(std::vector<std::function<void()>> fns) {
    std::vector<sc_core::sc_process_handle> hs;
    for (auto& f : fns) hs.push_back(sc_core::sc_spawn(f));
    for (auto& p : hs)
        if (!p.terminated()) sc_core::wait(p.terminated_event());
}

void reset_hart(unsigned h) {
    port p(h);
    p.wr(NPU_EU_EVT_MASK, 0);
    p.wr(NPU_EU_IRQ_MASK, 0);
    p.wr(NPU_EU_BUFFER_CLEAR, ~0u);
}

}  // namespace

TEST(EventUnit, MaskBufferAndClearArePerHart) {
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        port w0(0), w1(1);
        EXPECT_EQ(w0.rd(NPU_EU_HART_ID), 0u);
        EXPECT_EQ(w1.rd(NPU_EU_HART_ID), 1u);
        w0.wr(NPU_EU_EVT_MASK, 0x5);
        EXPECT_EQ(w0.rd(NPU_EU_EVT_MASK), 0x5u);
        EXPECT_EQ(w1.rd(NPU_EU_EVT_MASK), 0u) << "hart 1 sees its own mask";
        w0.wr(NPU_EU_EVT_MASK_OR, 0x2);
        EXPECT_EQ(w0.rd(NPU_EU_EVT_MASK), 0x7u);
        w0.wr(NPU_EU_EVT_MASK_AND, 0x4);
        EXPECT_EQ(w0.rd(NPU_EU_EVT_MASK), 0x3u);

        w1.wr(NPU_EU_SW_EVENT(1), 1u << 0);  // hart 1 signals hart 0
        w1.wr(NPU_EU_SW_EVENT(4), 1u << 0);
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER), (1u << 1) | (1u << 4));
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER_MASKED), 1u << 1);
        EXPECT_EQ(w1.rd(NPU_EU_BUFFER), 0u);
        EXPECT_EQ(E->eu.buffer(0), (1u << 1) | (1u << 4));
        w0.wr(NPU_EU_BUFFER_CLEAR, 1u << 1);
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER), 1u << 4);
        // Already pending: EVT_WAIT returns at once, without sleeping.
        w0.wr(NPU_EU_EVT_MASK, 1u << 4);
        const sc_time t0 = w0.now();
        EXPECT_EQ(w0.rd(NPU_EU_EVT_WAIT), 1u << 4);
        EXPECT_EQ(w0.now() - t0, lat);
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER), 1u << 4) << "EVT_WAIT does not clear";
        EXPECT_EQ(w0.rd(NPU_EU_EVT_WAIT_CLEAR), 1u << 4);
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER), 0u) << "EVT_WAIT_CLEAR clears what it returned";
    });
}

TEST(EventUnit, BlockingWaitWakesAtTheRaisersLocalTime) {
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        const std::uint64_t wait0 = E->eu.wait_cycles(0);
        const sc_time t0 = sc_core::sc_time_stamp();
        sc_time woke, raised_at;
        std::uint32_t got = 0;
        in_parallel({
            [&] {
                port w0(0, sc_time(5, SC_NS));
                w0.wr(NPU_EU_EVT_MASK, 1u << 3);
                got = w0.rd(NPU_EU_EVT_WAIT_CLEAR);
                woke = w0.now();
            },
            [&] {
                // The raiser runs 100 ns ahead of SystemC time (temporal decoupling).
                port w1(1, sc_time(100, SC_NS));
                raised_at = w1.now();
                w1.wr(NPU_EU_SW_EVENT(3), 1u << 0);
            },
        });
        EXPECT_EQ(got, 1u << 3);
        EXPECT_EQ(raised_at - t0, sc_time(100, SC_NS));
        EXPECT_EQ(woke - raised_at, lat) << "woken at the raise time plus the register latency";
        EXPECT_EQ(E->eu.buffer(0), 0u);
        // It went to sleep at 5 + lat (the mask write) and woke at 100.
        EXPECT_EQ(E->eu.wait_cycles(0) - wait0, 100u - 5u - 2u);
    });
}

TEST(EventUnit, EventRaisedWhileTheWaiterCatchesUpIsNotLost) {
    // The waiter runs 100 ns ahead; the raiser's event lands at 30 ns, while
    // the waiter's access is still catching up to its local time. The wait
    // must see it then (a lost wake-up would sleep forever: deadlock).
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        const sc_time t0 = sc_core::sc_time_stamp();
        sc_time woke;
        std::uint32_t got = 0;
        bool returned = false;
        in_parallel({
            [&] {
                port w0(0);
                w0.wr(NPU_EU_EVT_MASK, 1u << 3);
                w0.work(sc_time(100, SC_NS));
                got = w0.rd(NPU_EU_EVT_WAIT_CLEAR);
                woke = w0.now();
                returned = true;
            },
            [&] {
                port w1(1, sc_time(30, SC_NS));
                w1.wr(NPU_EU_SW_EVENT(3), 1u << 0);
            },
        });
        ASSERT_TRUE(returned) << "EVT_WAIT never returned";
        EXPECT_EQ(got, 1u << 3);
        EXPECT_EQ(woke - t0, sc_time(100, SC_NS) + 2 * lat) << "the event was pending at the waiter's time";
    });
}

TEST(EventUnit, EventsRaisedByOtherModelsArriveAtTheirTime) {
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        const sc_time start = sc_core::sc_time_stamp();
        // A DMA completion 50 ns ahead of SystemC time, to hart 0 and the CC.
        E->eu.raise(NPU_EVT_DMA_DONE, (1u << 0) | (1u << cc), sc_time(50, SC_NS));
        E->eu.raise(NPU_EVT_SA_DONE, 1u << 0, sc_time(80, SC_NS));
        port w0(0);
        EXPECT_EQ(w0.rd(NPU_EU_BUFFER), 0u) << "not yet: the event belongs to t = 50 ns";
        w0.wr(NPU_EU_EVT_MASK, (1u << NPU_EVT_DMA_DONE) | (1u << NPU_EVT_SA_DONE));
        EXPECT_EQ(w0.rd(NPU_EU_EVT_WAIT_CLEAR), 1u << NPU_EVT_DMA_DONE);
        EXPECT_EQ(w0.now() - start, sc_time(50, SC_NS) + lat);
        EXPECT_EQ(w0.rd(NPU_EU_EVT_WAIT_CLEAR), 1u << NPU_EVT_SA_DONE);
        EXPECT_EQ(w0.now() - start, sc_time(80, SC_NS) + lat);
        port c(cc);
        EXPECT_EQ(c.rd(NPU_EU_BUFFER), 1u << NPU_EVT_DMA_DONE);
        EXPECT_THROW(E->eu.raise(NPU_EVT_NB_LINES, 1, SC_ZERO_TIME), std::logic_error);
    });
}

TEST(EventUnit, InterruptLinesAndWfiWakeUps) {
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        E->irqs.clear();
        E->wakes.clear();
        port w0(0), w2(2);
        w0.wr(NPU_EU_IRQ_MASK, 1u << NPU_EVT_DMA_DONE);
        EXPECT_EQ(w0.rd(NPU_EU_IRQ_MASK), 1u << NPU_EVT_DMA_DONE);
        E->eu.raise(NPU_EVT_DMA_DONE, 1u << 0);
        ASSERT_EQ(E->irqs.size(), 1u);
        EXPECT_EQ(E->irqs[0], std::make_tuple(0u, 16u + NPU_EVT_DMA_DONE, true));
        w0.wr(NPU_EU_BUFFER_CLEAR, 1u << NPU_EVT_DMA_DONE);
        ASSERT_EQ(E->irqs.size(), 2u);
        EXPECT_EQ(E->irqs[1], std::make_tuple(0u, 16u + NPU_EVT_DMA_DONE, false));
        // Lines above 15 cannot interrupt.
        w0.wr(NPU_EU_IRQ_MASK, ~0u);
        EXPECT_EQ(w0.rd(NPU_EU_IRQ_MASK), 0xFFFFu);
        w0.wr(NPU_EU_IRQ_MASK, 0);
        // A masked event for a hart not blocked in the unit ends its WFI; an
        // unmasked one does not.
        E->irqs.clear();
        w2.wr(NPU_EU_EVT_MASK, 1u << 5);
        w0.wr(NPU_EU_SW_EVENT(6), 1u << 2);
        EXPECT_TRUE(E->wakes.empty());
        w0.wr(NPU_EU_SW_EVENT(5), 1u << 2);
        ASSERT_EQ(E->wakes.size(), 1u);
        EXPECT_EQ(E->wakes[0], 2u);
    });
}

TEST(EventUnit, BarrierReleasesEveryoneAtTheLastArrival) {
    E->h.run_job([] {
        port c(cc);
        c.wr(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_TEAM, 0b111);
        EXPECT_EQ(c.rd(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_TEAM), 0b111u);
        const sc_time t0 = sc_core::sc_time_stamp();
        const sc_time arrive[3] = {sc_time(10, SC_NS), sc_time(70, SC_NS), sc_time(30, SC_NS)};
        sc_time left[3];
        std::uint32_t ret[3] = {};
        std::uint32_t arrived_seen = 0;
        std::vector<std::function<void()>> harts;
        for (unsigned h = 0; h < 3; ++h)
            harts.push_back([&, h] {
                port p(h, arrive[h]);
                ret[h] = p.rd(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_WAIT);
                left[h] = p.now();
            });
        harts.push_back([&] {
            // At 50 ns harts 0 and 2 have arrived, hart 1 not yet.
            port probe(cc, sc_time(50, SC_NS));
            arrived_seen = probe.rd(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_ARRIVED);
        });
        in_parallel(harts);
        EXPECT_EQ(arrived_seen, 0b101u);
        for (unsigned h = 0; h < 3; ++h) {
            EXPECT_EQ(ret[h], 0b111u);
            EXPECT_EQ(left[h] - t0, sc_time(70, SC_NS) + lat) << "hart " << h;
        }
        EXPECT_EQ(c.rd(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_ARRIVED), 0u) << "a new round begins";
        // A second round: ARRIVE (no wait) from two, WAIT from the last.
        port w0(0), w1(1), w2(2);
        w0.wr(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_ARRIVE, 0);
        w1.wr(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_ARRIVE, 0);
        const sc_time t1 = w2.now();
        EXPECT_EQ(w2.rd(NPU_EU_BARRIER(1) + NPU_EU_BARRIER_WAIT), 0b111u);
        EXPECT_EQ(w2.now() - t1, lat) << "the last arrival does not sleep";
    });
}

TEST(EventUnit, BarrierMisuseIsACommandError) {
    E->h.run_job([] {
        port c(cc), w0(0);
        std::uint32_t v = 0;
        c.wr(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_TEAM, 0b011);
        EXPECT_EQ(c.read(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_WAIT, v), tlm::TLM_COMMAND_ERROR_RESPONSE)
            << "not in the team";
        w0.wr(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_ARRIVE, 0);
        EXPECT_EQ(w0.write(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_ARRIVE, 0), tlm::TLM_COMMAND_ERROR_RESPONSE)
            << "arrived twice in one round";
        EXPECT_EQ(c.write(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_TEAM, 0b111), tlm::TLM_COMMAND_ERROR_RESPONSE)
            << "new team while hart 0 waits in the round";
        EXPECT_EQ(c.rd(NPU_EU_BARRIER(2) + NPU_EU_BARRIER_TEAM), 0b011u) << "a rejected write changes nothing";
        EXPECT_EQ(c.write(NPU_EU_BARRIER(3) + NPU_EU_BARRIER_TEAM, 1u << n_harts), tlm::TLM_COMMAND_ERROR_RESPONSE)
            << "a hart that does not exist";
    });
}

// Hardware mutexes: a load takes the mutex, sleeping while another hart holds
// it, and returns at the release's time (+ the latency); a store releases it.
TEST(EventUnit, MutexSerialisesHartsAndWakesAWaiterAtTheRelease) {
    E->h.run_job([] {
        const std::uint32_t m = NPU_EU_MUTEX(2);
        sc_time got[3], released[3];
        std::vector<std::function<void()>> harts;
        for (unsigned h = 0; h < 3; ++h)
            harts.push_back([&, h] {
                port p(h, sc_time(10 * (h + 1), SC_NS));  // arrive at 10, 20, 30 ns
                EXPECT_EQ(p.rd(m), 1u);
                got[h] = p.now();
                p.work(sc_time(100, SC_NS));  // the critical section
                released[h] = p.now();
                p.wr(m, 0);
            });
        const sc_time t0 = sc_core::sc_time_stamp();
        in_parallel(harts);
        // Hart 0 takes it at once; each other hart gets it when the holder
        // before it released it: the sections never overlap.
        EXPECT_EQ(got[0] - t0, sc_time(10, SC_NS) + lat);
        sc_time order[3] = {got[0], got[1], got[2]};
        std::sort(std::begin(order), std::end(order));
        for (unsigned k = 1; k < 3; ++k) {
            unsigned prev = 0;
            for (unsigned h = 0; h < 3; ++h)
                if (got[h] == order[k - 1]) prev = h;
            EXPECT_EQ(order[k], released[prev] + lat) << "the next holder starts at the release";
        }
        port c(cc);
        EXPECT_EQ(c.rd(m), 1u) << "free again after the last release";
        c.wr(m, 0);
    });
}

TEST(EventUnit, MutexMisuseIsACommandError) {
    E->h.run_job([] {
        port c(cc), w0(0);
        std::uint32_t v = 0;
        EXPECT_EQ(w0.write(NPU_EU_MUTEX(1), 0), tlm::TLM_COMMAND_ERROR_RESPONSE) << "release of a free mutex";
        EXPECT_EQ(w0.rd(NPU_EU_MUTEX(1)), 1u);
        EXPECT_EQ(w0.read(NPU_EU_MUTEX(1), v), tlm::TLM_COMMAND_ERROR_RESPONSE) << "taken again by its holder";
        EXPECT_EQ(c.write(NPU_EU_MUTEX(1), 0), tlm::TLM_COMMAND_ERROR_RESPONSE) << "released by another hart";
        w0.wr(NPU_EU_MUTEX(1), 0);
    });
}

TEST(EventUnit, ForkDispatchesAtTheForkTimeAndJoinReturnsAtTheLastDone) {
    E->h.run_job([] {
        for (unsigned h = 0; h < n_harts; ++h) reset_hart(h);
        const sc_time t0 = sc_core::sc_time_stamp();
        struct seen {
            std::uint32_t fn = 0, arg = 0, team = 0;
            sc_time start, done;
        } w[2];
        sc_time joined_at;
        std::uint32_t joined = 0, busy_during = 0;
        const sc_time work[2] = {sc_time(100, SC_NS), sc_time(300, SC_NS)};
        std::vector<std::function<void()>> threads;
        for (unsigned h = 0; h < 2; ++h)
            threads.push_back([&, h] {
                port p(h);
                w[h].fn = p.rd(NPU_EU_DISPATCH_POP);  // asleep until the fork
                w[h].start = p.now();
                w[h].arg = p.rd(NPU_EU_DISPATCH_POP_ARG);
                w[h].team = p.rd(NPU_EU_DISPATCH_TEAM);
                p.work(work[h]);
                w[h].done = p.now();
                p.wr(NPU_EU_DISPATCH_DONE, 1);
            });
        threads.push_back([&] {
            port c(cc, sc_time(20, SC_NS));
            c.wr(NPU_EU_DISPATCH_FN, 0x1C000100);
            c.wr(NPU_EU_DISPATCH_ARG, 0x55);
            c.wr(NPU_EU_DISPATCH_FORK, 0b011);
            busy_during = c.rd(NPU_EU_DISPATCH_BUSY);
            joined = c.rd(NPU_EU_DISPATCH_JOIN);
            joined_at = c.now();
        });
        in_parallel(threads);
        const sc_time fork_at = t0 + sc_time(20, SC_NS) + 2 * lat;  // FN, ARG before the FORK write
        for (unsigned h = 0; h < 2; ++h) {
            EXPECT_EQ(w[h].fn, 0x1C000100u);
            EXPECT_EQ(w[h].arg, 0x55u);
            EXPECT_EQ(w[h].team, 0b011u);
            EXPECT_EQ(w[h].start, fork_at + lat) << "worker " << h << " starts at the fork's time";
        }
        EXPECT_EQ(busy_during, 0b011u);
        EXPECT_EQ(joined, 0b011u);
        EXPECT_EQ(joined_at, w[1].done + lat) << "the join returns at the slowest worker's DONE";
        port c(cc);
        EXPECT_EQ(c.rd(NPU_EU_DISPATCH_BUSY), 0u);
        EXPECT_EQ(c.rd(NPU_EU_BUFFER) & (1u << NPU_EVT_JOIN), 1u << NPU_EVT_JOIN);
        EXPECT_EQ(c.rd(NPU_EU_BARRIER(0) + NPU_EU_BARRIER_TEAM), 0b011u) << "barrier 0 follows the fork's team";
        // Nothing forked: the join returns at once with no harts.
        EXPECT_EQ(c.rd(NPU_EU_DISPATCH_JOIN), 0u);
    });
}

TEST(EventUnit, JobsQueueForWorkersThatAreNotWaitingYet) {
    E->h.run_job([] {
        port c(cc), w2(2);
        c.wr(NPU_EU_DISPATCH_FN, 0x10);
        c.wr(NPU_EU_DISPATCH_FORK, 1u << 2);
        c.wr(NPU_EU_DISPATCH_FN, 0x20);
        c.wr(NPU_EU_DISPATCH_FORK, 1u << 2);
        EXPECT_EQ(w2.rd(NPU_EU_DISPATCH_POP), 0x10u);
        w2.wr(NPU_EU_DISPATCH_DONE, 1);
        EXPECT_EQ(w2.rd(NPU_EU_DISPATCH_POP), 0x20u);
        w2.wr(NPU_EU_DISPATCH_DONE, 1);
        EXPECT_EQ(c.rd(NPU_EU_DISPATCH_JOIN), 1u << 2);
        EXPECT_EQ(E->eu.mask(2), 0u);
    });
}

TEST(EventUnit, DispatchMisuseIsACommandError) {
    E->h.run_job([] {
        port c(cc), w0(0);
        std::uint32_t v = 0;
        EXPECT_EQ(c.write(NPU_EU_DISPATCH_FORK, 0), tlm::TLM_COMMAND_ERROR_RESPONSE) << "empty team";
        EXPECT_EQ(c.write(NPU_EU_DISPATCH_FORK, 1u << cc), tlm::TLM_COMMAND_ERROR_RESPONSE) << "the CC is no worker";
        EXPECT_EQ(w0.write(NPU_EU_DISPATCH_DONE, 1), tlm::TLM_COMMAND_ERROR_RESPONSE) << "DONE without a job";
        c.wr(NPU_EU_DISPATCH_FORK, 1u << 0);
        EXPECT_EQ(w0.read(NPU_EU_DISPATCH_POP, v), tlm::TLM_OK_RESPONSE);
        EXPECT_EQ(w0.read(NPU_EU_DISPATCH_POP, v), tlm::TLM_COMMAND_ERROR_RESPONSE) << "POP before DONE";
        // A worker that forks onto itself and joins before running the job would never return.
        w0.wr(NPU_EU_DISPATCH_FORK, 1u << 0);
        EXPECT_EQ(w0.read(NPU_EU_DISPATCH_JOIN, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
        w0.wr(NPU_EU_DISPATCH_DONE, 1);
        EXPECT_EQ(w0.rd(NPU_EU_DISPATCH_POP), 0u);
        w0.wr(NPU_EU_DISPATCH_DONE, 1);
        EXPECT_EQ(w0.rd(NPU_EU_DISPATCH_JOIN), 1u);
        EXPECT_EQ(c.rd(NPU_EU_DISPATCH_JOIN), 1u);
        port p(0);
        p.wr(NPU_EU_EVT_MASK, 0);
        EXPECT_EQ(p.read(NPU_EU_EVT_WAIT, v), tlm::TLM_COMMAND_ERROR_RESPONSE) << "waiting on an empty mask";
        EXPECT_EQ(p.write(NPU_EU_SW_EVENT(0), 1u << n_harts), tlm::TLM_COMMAND_ERROR_RESPONSE);
    });
}

TEST(EventUnit, BusErrors) {
    E->h.run_job([] {
        port p(0);
        std::uint32_t v = 0;
        EXPECT_EQ(p.read(0x030, v), tlm::TLM_ADDRESS_ERROR_RESPONSE) << "unclaimed offset";
        EXPECT_EQ(p.read(NPU_EU_SPAN, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
        EXPECT_EQ(p.write(NPU_EU_BUFFER, 1), tlm::TLM_COMMAND_ERROR_RESPONSE) << "write to a read-only register";
        EXPECT_EQ(p.read(NPU_EU_EVT_MASK_OR, v), tlm::TLM_COMMAND_ERROR_RESPONSE) << "read of a write-only register";
        std::uint8_t b = 0;
        EXPECT_EQ(p.bus.read(NPU_EU_EVT_MASK, b, p.local), tlm::TLM_COMMAND_ERROR_RESPONSE) << "byte access";
        port dma(n_harts);  // an initiator that is no hart of the cluster
        EXPECT_EQ(dma.read(NPU_EU_EVT_MASK, v), tlm::TLM_COMMAND_ERROR_RESPONSE);
        EXPECT_EQ(dma.write(NPU_EU_SW_EVENT(0), 1), tlm::TLM_COMMAND_ERROR_RESPONSE);
    });
}

int sc_main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    test::fail_on_systemc_reports();
    env e;
    e.ctx.context().level = base::log_level::error;  // rejected accesses log warnings by design
    E = &e;
    return RUN_ALL_TESTS();
}
