// DMA engine model.
//
// Concurrency: one SC_THREAD per channel (transfer id). A PUSH hands the
// descriptor to a free channel, whose thread starts at the pusher's local
// time. Channels share nothing but the memories, so two transfers on the
// same port interleave burst by burst and contend exactly like two masters.
//
// Timing of one transfer (cycles of the cluster clock), burst by burst:
//   - the first read is issued dma.startup_latency cycles after the push
//     (descriptor decode, command queue);
//   - a burst is at most dma.burst_size bytes and never crosses a row;
//   - the engine holds dma.outstanding bursts per channel (reads in flight,
//     data waiting for its write, writes in flight): read k + 1 is issued
//     dma.burst_latency cycles after read k was issued (not after it
//     returned) as long as a slot is free, so bursts, rows and planes
//     pipeline; a burst's slot frees when its write completes;
//   - read k completes when the source's b_transport says (hop + port wait +
//     beats + latency - 1); write k is issued when read k returned and the
//     channel's write port has sent the previous burst, and completes when
//     the destination's b_transport says;
//   - the channel's L1 side moves dma.l1_width bytes per cycle (its beat
//     width in the banked L1, whose banks it books like every initiator);
//     its other side moves what the memory's port allows;
//   - between L2 and L1 the L2 side also crosses the cluster's shared path
//     to L2, which the cores' L2 accesses use too: a burst books the path's
//     issue slots for its beats (l2.bandwidth bytes per cycle) and completes
//     no earlier than its last beat crossed it plus the L2 round trip
//     (base/slot_calendar.h, l2_path_calendar). L2 <-> L3 stays off it;
//   - with dma.bandwidth = B != 0, a read takes at least ceil(n / B) cycles
//     (the engine's own datapath limit, whatever the memories allow);
//   - the transfer ends when its last write completes.
// So a long uncontended transfer streams at the slowest of the source port,
// the destination port and dma.l1_width, after a startup of the
// startup latency plus one burst's latency.
// Each access is issued at its own SystemC time (the thread waits until
// then), so the memories see channels and other masters in time order and
// their busy-until port model yields the contention. A burst on the L1
// side books its banks earlier, when the channel decides it (the previous
// burst's time): the cores run ahead of SystemC time, and a DMA that booked
// only at its own time would find every contended bank-cycle already theirs
// (docs/memory-map.md, L1 arbitration).
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "dma.h"

#include "dma_regs.h"

#include "base/reuse_fifo.h"
#include "base/txn_ext.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace npu::dma {

using sc_core::sc_time;

// A burst read (or being read) and not yet written: its data and where it goes.
struct dma_burst {
    std::uint64_t dst = 0;
    unsigned n = 0;
    std::vector<unsigned char> data;
    sc_time ready;
    std::uint32_t p = 0, r = 0, o = 0;  // plane, row, byte of the row (fault reports)
};

struct dma::channel {
    unsigned index = 0;
    base::initiator_id id;
    std::unique_ptr<base::bus_initiator> bus;
    descriptor desc;
    sc_core::sc_event start, done;
    // Who pushed the current transfer: copied at push time because the
    // peripheral's current initiator changes with every register access.
    std::string by_name, by_role;
    int by_hart = -1;
    std::uint64_t pc = 0;
    bool has_pc = false;
    // The pusher's call stack at the push, symbolised only if a report
    // names it (the stack itself has changed by then).
    base::call_chain chain;
    int route = -1;  // route_bytes_ slot, -1: not between two memories
    bool l1_side = false;  // the transfer reads or writes L1 (l1_bank_calendar::dma_streams)
    // The pusher's local time at the push: a use of the transfer's buffers
    // starts there (a store by a hart behind it in time came before it).
    sc_core::sc_time pushed_at;
    // The channel's last transfers that ended, and when (memcheck): a
    // core's store is confirmed against the buffers in use at its own time
    // at the end of its batch, when the channel may have finished the
    // transfer it raced with, and a few more (the core waited for them in
    // that batch).
    struct ended_transfer {
        bool valid = false;
        descriptor desc;
        sc_core::sc_time pushed_at, ended_at;
        std::string by;
        std::uint64_t pc = 0;
        bool has_pc = false;
    };
    std::array<ended_transfer, 4> ended;
    unsigned ended_next = 0;
    // The running transfer's bursts read and not yet written, and the
    // completion times of its writes in flight (run_transfer). Kept with
    // the channel so that their slots, and the bursts' buffers, are reused
    // by every transfer: no host allocation per burst.
    base::reuse_fifo<dma_burst> writes;
    base::reuse_fifo<sc_time> writing;
};

namespace {
void wait_until(const sc_time& t) {
    if (t > base::sim_time()) sc_core::wait(t - base::sim_time());
}

// What alone_until learnt at SystemC time `at`, in delta cycle `delta`:
// nothing else is pending, and the quantum does not end, before `until`.
// timed_waits_only: its owner waits only for a time > 0, so while SystemC
// time is still `at` the delta cycle is too, and is not asked for (a
// library call per burst).
struct pending_horizon {
    sc_time at, until;
    std::uint64_t delta = 0;
    bool known = false;
    bool timed_waits_only = false;
};

// Waits until `t` (the caller's time, ahead of SystemC's) unless the
// caller is the only thing that would run before then: no hart awake (each
// awake hart has a wake-up of its own within the quantum), nothing runnable
// now and no event up to `t` (ties included: a process woken at `t` too would
// have run in an order the kernel picks). A wait skipped that way would have
// resumed the caller with nothing having happened in between: every process
// sees the same bookings, data and times as with the wait. Harts awake are
// the exception not because they would run in between (the event test covers
// that) but because they resume at the same times as each other and as other
// processes, and the kernel orders simultaneous wake-ups by the layout of its
// event queue, which a skipped wait would have changed: the run would stay
// deterministic but not identical to one with the waits. Beyond the quantum
// boundary the caller waits, as a core does, so a bounded run
// (--max-cycles) never sees work far past its end; after a stop request it
// waits too, so the kernel stops where it did.
//
// `now`: the current SystemC time (the caller read it). `horizon`: when
// given, what the kernel and the quantum said is kept there and reused
// while the caller has not yielded since (the same time and delta cycle):
// only the caller's own code ran, so no event can have been added --
// provided that code notifies none, i.e. its accesses reach memories only
// (run_transfer's memory-only transfers; a peripheral's register access
// may notify).
// The end of the quantum or the next pending activity after `now`,
// whichever is first (no overflow: each sum is at most sc_max_time()); a
// zero quantum leaves nothing (now). Kept in `horizon` when given.
__attribute__((noinline)) sc_time ask_horizon(const sc_time& now, const base::sim_context& ctx,
                                              pending_horizon* horizon) {
    const sc_time until =
        std::min(now + ctx.compute_local_quantum(now), now + sc_core::sc_time_to_pending_activity());
    if (horizon) *horizon = pending_horizon{now, until, sc_core::sc_delta_count(), true, horizon->timed_waits_only};
    return until;
}

// Inline: a memory-only transfer asks it once per burst, and most answers
// come from the horizon it keeps.
inline bool alone_until(const sc_time& t, const sc_time& now, const base::sim_context& ctx,
                        pending_horizon* horizon = nullptr) {
    if (t <= now) return true;
    if (ctx.harts_awake != 0 || ctx.services.stop_requested()) return false;
    if (horizon && horizon->known && horizon->at == now &&
        (horizon->timed_waits_only || horizon->delta == sc_core::sc_delta_count()))
        return t < horizon->until;
    return t < ask_horizon(now, ctx, horizon);
}

// Returns the SystemC time after: `now` (the current time, which the
// caller knows) unless it waited.
sc_time wait_unless_alone(const sc_time& t, const sc_time& now, const base::sim_context& ctx,
                          pending_horizon* horizon = nullptr) {
    if (alone_until(t, now, ctx, horizon)) return now;
    sc_core::wait(t - now);
    return base::sim_time();
}

const char* dims_name(unsigned d) { return d == 1 ? "1-D" : d == 2 ? "2-D" : "3-D"; }
}  // namespace

dma::dma(sc_core::sc_module_name nm, const cfg::config& cfg)
    : base::peripheral(nm, cfg, "dma_ctrl"),
      done("done"),
      error("error"),
      map_(cfg::memory_map::build(cfg)),
      burst_size_(cfg.size("dma.burst_size")),
      burst_latency_(cfg.cycles("dma.burst_latency")),
      bandwidth_(cfg.size("dma.bandwidth")),
      l1_width_(cfg.size("dma.l1_width")),
      outstanding_(cfg.count("dma.outstanding")),
      startup_latency_(cfg.cycles("dma.startup_latency")),
      l1_width_div_(l1_width_),
      bandwidth_div_(bandwidth_),
      hop_(cycles(cfg.cycles("interconnect.hop_latency"))),
      allow_l3_l1_(cfg.boolean("dma.allow_l3_l1")),
      stop_on_error_(cfg.choice("dma.on_error") == "stop"),
      l1_banks_(context().shared<base::l1_bank_calendar>()),
      l2_path_(context().shared<base::l2_path_calendar>()) {
    l2_path_.init(cfg);
    l1_ = map_.region_index("l1");
    l3_ = map_.region_index("l3");
    for (std::size_t i = 0; i < map_.regions().size(); ++i)
        if (map_.regions()[i].kind == cfg::region_kind::memory) memories_.push_back(static_cast<int>(i));

    engine_id_ = base::initiator_id{name(), static_cast<int>(cfg::initiator_class::dma), -1, "DMA engine"};
    const unsigned n = static_cast<unsigned>(cfg.count("dma.channels"));
    for (unsigned c = 0; c < n; ++c) {
        auto ch = std::make_unique<channel>();
        ch->index = c;
        ch->id = base::initiator_id{fmt::format("{}.ch{}", name(), c), static_cast<int>(cfg::initiator_class::dma), -1,
                                    fmt::format("DMA channel {}", c)};
        ch->bus = std::make_unique<base::bus_initiator>(fmt::format("ch{}", c).c_str(), ch->id);
        // Bursts must see the memories' port and bank timing: no DMI.
        ch->bus->set_dmi_enabled(false);
        chans_.push_back(std::move(ch));
        sc_core::sc_spawn_options opts;
        sc_core::sc_spawn([this, c] { channel_thread(c); }, fmt::format("ch{}_thread", c).c_str(), &opts);
    }

    // Descriptor registers: stored as usual, mirrored into regs_ for PUSH.
    auto rw = [this](std::uint32_t off, const char* nm, std::uint32_t& field) {
        add_register(off, nm, read_write, field, nullptr, [&field](std::uint32_t v) { field = v; });
    };
    rw(NPU_DMA_SRC, "src", regs_.src);
    rw(NPU_DMA_DST, "dst", regs_.dst);
    rw(NPU_DMA_LEN, "len", regs_.len);
    rw(NPU_DMA_SRC_STRIDE_2D, "src_stride_2d", regs_.src_stride_2d);
    rw(NPU_DMA_DST_STRIDE_2D, "dst_stride_2d", regs_.dst_stride_2d);
    rw(NPU_DMA_COUNT_2D, "count_2d", regs_.count_2d);
    rw(NPU_DMA_SRC_STRIDE_3D, "src_stride_3d", regs_.src_stride_3d);
    rw(NPU_DMA_DST_STRIDE_3D, "dst_stride_3d", regs_.dst_stride_3d);
    rw(NPU_DMA_COUNT_3D, "count_3d", regs_.count_3d);
    add_register(NPU_DMA_PUSH_1D, "push_1d", read_only, 0, [this] { return push(1); });
    add_register(NPU_DMA_PUSH_2D, "push_2d", read_only, 0, [this] { return push(2); });
    add_register(NPU_DMA_PUSH_3D, "push_3d", read_only, 0, [this] { return push(3); });
    add_register(NPU_DMA_STATUS, "status", read_only, 0, [this] { return busy_mask_; });
    add_register(NPU_DMA_WAIT, "wait", write_only, 0, nullptr, [this](std::uint32_t id) { wait_for(id); });
    add_register(
        NPU_DMA_ERROR, "error", read_write, 0, [this] { return error_mask_; },
        [this](std::uint32_t v) { error_mask_ &= ~v; });
    add_register(NPU_DMA_ERROR_ADDR, "error_addr", read_only, 0, [this] { return error_addr_; });
    add_register(NPU_DMA_ERROR_INFO, "error_info", read_only, 0, [this] { return error_info_; });
    // For the debugger (reads without side effects).
    for (const std::uint32_t r : {NPU_DMA_STATUS, NPU_DMA_ERROR_ADDR, NPU_DMA_ERROR_INFO}) set_peek(r);
    add_register(NPU_DMA_CHANNELS, "channels", read_only, n);

    add_stat("transfers", transfers_, "transfers", "transfers pushed and accepted");
    add_stat("bytes", bytes_, "B", "bytes written to destinations");
    add_stat("bursts", bursts_, "bursts", "bursts completed (one read + one write each)");
    add_stat("busy_cycles", busy_stat_, "cycles", "cycles with at least one transfer in flight (DMA utilisation)");
    add_stat("errors", errors_, "transfers", "transfers aborted by an error response");
    add_stat("refused", refused_, "pushes", "pushes refused (route not allowed, bad descriptor)");
    route_bytes_.assign(memories_.size() * memories_.size(), 0);
    for (std::size_t s = 0; s < memories_.size(); ++s)
        for (std::size_t d = 0; d < memories_.size(); ++d) {
            const auto& rs = map_.regions()[static_cast<std::size_t>(memories_[s])].name;
            const auto& rd = map_.regions()[static_cast<std::size_t>(memories_[d])].name;
            add_stat(fmt::format("bytes_{}_to_{}", rs, rd), route_bytes_[s * memories_.size() + d], "B",
                     fmt::format("bytes moved {} -> {}", rs, rd));
        }
}

dma::~dma() = default;

base::bus_initiator& dma::master(unsigned c) { return *chans_.at(c)->bus; }

bool dma::side_in_one_memory(std::uint64_t base, std::uint32_t s2, std::uint32_t s3, const descriptor& d) const {
    if (d.len == 0 || d.count_2d == 0 || d.count_3d == 0) return false;
    const std::uint64_t end = rows_end(base, s2, s3, d);
    if (end > 0x100000000ull) return false;
    const auto first = map_.lookup(cfg::initiator_class::dma, base);
    const auto last = map_.lookup(cfg::initiator_class::dma, end - 1);
    return first.what == cfg::address_info::status::mapped && last.what == cfg::address_info::status::mapped &&
           first.target == last.target && first.target->kind == cfg::region_kind::memory &&
           last.offset - first.offset == end - 1 - base;
}

int dma::route_index(std::uint64_t addr) const {
    const auto info = map_.lookup(cfg::initiator_class::dma, addr);
    if (info.what != cfg::address_info::status::mapped) return -1;
    const int r = static_cast<int>(info.target - map_.regions().data());
    for (std::size_t i = 0; i < memories_.size(); ++i)
        if (memories_[i] == r) return static_cast<int>(i);
    return -1;
}

std::string dma::describe(const descriptor& d) const {
    std::string s = fmt::format("src 0x{:08x} -> dst 0x{:08x}, {} B per row", d.src, d.dst, d.len);
    if (d.dims >= 2)
        s += fmt::format(", {} rows (src stride {}, dst stride {})", d.count_2d, d.src_stride_2d, d.dst_stride_2d);
    if (d.dims >= 3)
        s += fmt::format(", {} planes (src stride {}, dst stride {})", d.count_3d, d.src_stride_3d, d.dst_stride_3d);
    return s;
}

// Memcheck: from the push every destination byte counts as "in flight"
// until its burst writes it, so a core, the SA or
// another transfer reading it before then is a finding at that read (a DMA
// destination read without waiting for the transfer). An aborted transfer
// clears what it never wrote.
void dma::mark_destination(channel& ch, bool in_flight) {
    if (services().memcheck() == base::memcheck_mode::off) return;
    const descriptor& d = ch.desc;
    if (d.len == 0) return;
    // Rows that follow one another (a tile copied whole) are marked in one
    // call. The router clips a call at its window's end: rows past it are
    // then marked one by one, as they always were.
    const std::uint64_t rows = std::uint64_t{d.count_2d} * d.count_3d;
    const auto dst_row = [&d](std::uint64_t i) {
        return row_address(d.dst, d.dst_stride_2d, d.dst_stride_3d, d, i) & 0xFFFFFFFFu;
    };
    for (std::uint64_t i = 0; i < rows;) {
        const std::uint64_t a = dst_row(i);
        std::uint64_t n = 1;
        while (i + n < rows && (n + 1) * d.len <= UINT32_MAX && dst_row(i + n) == a + n * d.len) ++n;
        const unsigned marked = ch.bus->memcheck_in_flight(a, static_cast<unsigned>(n * d.len), in_flight);
        // Rows wholly or partly marked are done.
        i += n == 1 ? 1 : std::max<std::uint64_t>(1, (std::uint64_t{marked} + d.len - 1) / d.len);
    }
}

std::string dma::in_flight_transfer_at(std::uint64_t addr) const {
    for (const auto& cp : chans_) {
        const channel& ch = *cp;
        if (!(busy_mask_ >> ch.index & 1u)) continue;
        const descriptor& d = ch.desc;
        for (std::uint64_t p = 0; p < d.count_3d; ++p)
            for (std::uint64_t r = 0; r < d.count_2d; ++r) {
                const std::uint64_t a = std::uint64_t{d.dst} + p * d.dst_stride_3d + r * d.dst_stride_2d;
                if (addr >= a && addr < a + d.len) {
                    // The runtime call it came through, or (a push inlined
                    // into the program: npu_dma_copy_*) the pc's own symbol.
                    const std::string caller = services().caller_of(ch.chain);
                    std::string sym;
                    if (caller.empty() && ch.has_pc && services().symbolize) sym = services().symbolize(ch.pc);
                    return fmt::format("transfer id {} ({}-D) {}, pushed by {}{}{}{}", ch.index, d.dims, describe(d),
                                       programmer_text(ch), ch.has_pc ? fmt::format(" at pc 0x{:08x}", ch.pc) : "",
                                       sym.empty() ? "" : " <" + sym + ">", caller.empty() ? "" : " (" + caller + ")");
                }
            }
    }
    return {};
}

base::buffer_use dma::use_of(const descriptor& d, base::deferred_text describe, bool writes_only) {
    base::buffer_use u;
    u.describe = std::move(describe);
    u.spans.reserve((writes_only ? 1 : 2) * std::size_t(d.count_2d) * d.count_3d);
    for (std::uint64_t p = 0; p < d.count_3d; ++p)
        for (std::uint64_t r = 0; r < d.count_2d; ++r) {
            const std::uint64_t s = std::uint64_t{d.src} + p * d.src_stride_3d + r * d.src_stride_2d;
            const std::uint64_t t = std::uint64_t{d.dst} + p * d.dst_stride_3d + r * d.dst_stride_2d;
            if (!writes_only) u.spans.push_back({s, s + d.len, false, "src"});
            u.spans.push_back({t, t + d.len, true, "dst"});
        }
    return u;
}

void dma::add_extents(base::buffer_use& u, const descriptor& d) {
    // Its rows' bounds: the strides are unsigned, so the first row of the
    // first plane starts lowest and the last row of the last plane ends
    // highest (use_of's spans, in 64 bits as there).
    if (d.len != 0 && d.count_2d != 0 && d.count_3d != 0) {
        u.add_part(d.src, rows_end(d.src, d.src_stride_2d, d.src_stride_3d, d));
        u.add_part(d.dst, rows_end(d.dst, d.dst_stride_2d, d.dst_stride_3d, d));
    }
    u.make_spans = [d](std::vector<base::buffer_span>& spans) { spans = use_of(d, nullptr).spans; };
}

void dma::in_flight_uses(std::vector<base::buffer_use>& out, const sc_core::sc_time& at) const {
    for (const auto& cp : chans_) {
        const channel& ch = *cp;
        if (!(busy_mask_ >> ch.index & 1u) || ch.pushed_at > at) continue;
        base::buffer_use u;
        u.describe = [this, &ch] {
            return fmt::format("DMA transfer id {} ({}-D) {}, pushed by {}{}", ch.index, ch.desc.dims,
                               describe(ch.desc), programmer_text(ch),
                               ch.has_pc ? fmt::format(" at pc 0x{:08x}", ch.pc) : "");
        };
        u.pushed_from = &ch.chain;
        add_extents(u, ch.desc);
        out.push_back(std::move(u));
    }
    for (const auto& cp : chans_) {
        for (const channel::ended_transfer& e : cp->ended) {
            if (!e.valid || at < e.pushed_at || at >= e.ended_at) continue;
            base::buffer_use u;
            u.describe = [this, &e, id = cp->index] {
                return fmt::format("DMA transfer id {} ({}-D) {}, pushed by {}{}, ended at cycle {}", id, e.desc.dims,
                                   describe(e.desc), e.by, e.has_pc ? fmt::format(" at pc 0x{:08x}", e.pc) : "",
                                   cycle_of(e.ended_at));
            };
            add_extents(u, e.desc);
            out.push_back(std::move(u));
        }
    }
}

void dma::capture_pusher_chain(base::call_chain& out) const {
    const base::initiator_id* by = current_initiator();
    if (by && by->hart >= 0 && services().capture_call_chain) services().capture_call_chain(by->hart, out);
}

std::string dma::caller_of(const base::initiator_id* who) const {
    for (const auto& ch : chans_)
        if (&ch->bus->who() == who) return busy_mask_ >> ch->index & 1u ? services().caller_of(ch->chain) : std::string();
    return {};
}

void dma::check_buffers_in_use(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                               const base::call_chain& chain) {
    auto& svc = services();
    if (svc.memcheck() == base::memcheck_mode::off) return;
    const bool has_pc = by && by->hart >= 0;
    base::buffer_use mine;
    mine.describe = [&] {
        return fmt::format("new DMA transfer ({}-D) {}, pushed by {}{}", d.dims, describe(d), pusher_text(by),
                           has_pc ? fmt::format(" at pc 0x{:08x}", pc) : "");
    };
    mine.pushed_from = &chain;
    // Its destination rows, made only if an in-flight use meets their
    // bounds (a tile's 2-D transfer has a span per row: 160 on mlp_f32).
    if (d.len != 0 && d.count_2d != 0 && d.count_3d != 0) {
        mine.lo = d.dst;
        mine.hi = rows_end(d.dst, d.dst_stride_2d, d.dst_stride_3d, d);
    }
    mine.make_spans = [&d](std::vector<base::buffer_span>& spans) { spans = use_of(d, nullptr, true).spans; };
    if (!svc.buffer_write_conflict(mine, access_time())) return;
    // A transfer that ended before the pusher's (decoupled) local time may
    // not have cleared its busy bit yet: catch up and look again.
    synchronise_access();
    auto m = svc.buffer_write_conflict(mine, access_time());
    if (!m) return;
    m->who = &engine_id_;
    m->pc = pc;
    m->has_pc = has_pc;
    svc.memcheck_finding(*m);
}

void dma::check_stack_crossing(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                               const base::call_chain& chain) {
    auto& svc = services();
    if (svc.memcheck() == base::memcheck_mode::off || !svc.stack_crossed || d.len == 0 || d.count_2d == 0 ||
        d.count_3d == 0)
        return;
    std::uint64_t s_lo = 0, s_hi = 0;
    // The rows' extent first: most transfers are nowhere near a stack.
    const std::string hull_stack =
        svc.stack_crossed(d.dst, rows_end(d.dst, d.dst_stride_2d, d.dst_stride_3d, d), s_lo, s_hi);
    if (hull_stack.empty()) return;
    // The first row across the bound; else, with rows on both sides of it
    // (a 2-D destination whose rows end at the bound and go on inside the
    // stack: one buffer cannot lie partly in a stack), the first row inside.
    const std::uint64_t h_lo = s_lo, h_hi = s_hi, rows = std::uint64_t{d.count_3d} * d.count_2d;
    const auto row_at = [&d](std::uint64_t i) { return row_address(d.dst, d.dst_stride_2d, d.dst_stride_3d, d, i); };
    std::uint64_t found = rows, first_inside = rows;
    bool outside = false;
    for (std::uint64_t i = 0; i < rows; ++i) {
        const std::uint64_t a = row_at(i);
        std::uint64_t lo = 0, hi = 0;
        if (a >= h_lo && a + d.len <= h_hi)
            first_inside = std::min(first_inside, i);
        else if (a + d.len <= h_lo || a >= h_hi)
            outside = true;
        // Across a stack's bound: this one's, or another's.
        if (found == rows && !svc.stack_crossed(a, a + d.len, lo, hi).empty()) found = i;
    }
    if (outside) found = std::min(found, first_inside);
    if (found == rows) return;
    const std::uint64_t p = found / d.count_2d, r = found % d.count_2d, a = row_at(found);
    std::string stack = svc.stack_crossed(a, a + d.len, s_lo, s_hi);
    if (stack.empty()) stack = hull_stack, s_lo = h_lo, s_hi = h_hi;  // the first row inside
    // The first byte on the other side of the bound it crosses.
    const std::uint64_t bound = a < s_lo ? s_lo : s_hi;
    std::string from = svc.describe_stack ? svc.describe_stack(a) : std::string();
    if (from.empty() && svc.describe_address)
        from = svc.describe_address(static_cast<int>(cfg::initiator_class::dma), a);
    base::memcheck_info m;
    m.stack_crossing = true;
    m.is_write = true;
    m.who = &engine_id_;
    m.pc = pc;
    m.has_pc = by && by->hart >= 0;
    m.access = a;
    m.size = d.len;
    m.unwritten = d.len;
    m.address = bound;
    m.context = fmt::format("  transfer  : {}\n", pushed_transfer_text(d, by, chain));
    if (a >= s_lo && a + d.len <= s_hi)
        m.context += fmt::format("  crosses   : its row {} of plane {}, [0x{:08x}, 0x{:08x}), lies in {}, and other "
                                 "rows outside it: the destination runs across its bound\n",
                                 r, p, a, a + d.len, stack);
    else
        m.context += fmt::format("  crosses   : its row {} of plane {}, [0x{:08x}, 0x{:08x}), runs from {} {} {} at "
                                 "0x{:08x}\n",
                                 r, p, a, a + d.len, from.empty() ? "outside it" : from, a < s_lo ? "into" : "out of",
                                 stack, bound);
    svc.memcheck_finding(m);
}

void dma::check_stack_overflow(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                               const base::call_chain& chain) {
    auto& svc = services();
    if (svc.memcheck() == base::memcheck_mode::off || !svc.stack_overflowed_into || !by || by->hart < 0 ||
        d.len == 0 || d.count_2d == 0 || d.count_3d == 0 || svc.stop_requested())
        return;
    // The pusher's registers are current: it is inside the push's access.
    for (const bool dst_side : {true, false}) {
        const std::uint64_t base = dst_side ? d.dst : d.src;
        const std::uint64_t s2 = dst_side ? d.dst_stride_2d : d.src_stride_2d;
        const std::uint64_t s3 = dst_side ? d.dst_stride_3d : d.src_stride_3d;
        std::uint64_t sp = 0, s_lo = 0, s_hi = 0;
        // The rows' extent first; then the first row in [sp, limit).
        if (!svc.stack_overflowed_into(by->hart, base, rows_end(base, s2, s3, d), sp, s_lo, s_hi)) continue;
        const std::uint64_t rows = std::uint64_t{d.count_3d} * d.count_2d;
        for (std::uint64_t i = 0; i < rows; ++i) {
            const std::uint64_t a = row_address(base, s2, s3, d, i);
            if (!(a < s_lo && sp < a + d.len)) continue;
            base::memcheck_info m;
            m.stack_overflow = true;
            m.is_write = dst_side;
            m.who = &engine_id_;
            m.pc = pc;
            m.has_pc = true;
            m.access = a;
            m.address = std::max(a, sp);
            m.size = m.unwritten = d.len;
            m.sp = sp;
            m.stack_lo = s_lo;
            m.stack_hi = s_hi;
            m.context = fmt::format("  transfer  : {}; its {} row {} of plane {} lies below the pusher's stack "
                                    "limit, in what its stack overflowed into\n",
                                    pushed_transfer_text(d, by, chain), dst_side ? "dst" : "src", i % d.count_2d,
                                    i / d.count_2d);
            svc.memcheck_finding(m);
            return;
        }
    }
}

void dma::check_freed_destination(const descriptor& d, const base::initiator_id* by, std::uint64_t pc,
                                  const base::call_chain& chain) {
    auto& svc = services();
    if (svc.memcheck() == base::memcheck_mode::off || !svc.first_freed || !svc.first_redzone || d.len == 0 ||
        d.count_2d == 0 || d.count_3d == 0 || svc.stop_requested())
        return;
    // The rows' extent first: most pushes are nowhere near a freed block or
    // a heap block's header. A row in freed memory, else one that runs into
    // a header or padding (past its block: an overflow).
    const std::uint64_t extent = rows_end(d.dst, d.dst_stride_2d, d.dst_stride_3d, d);
    const bool freed = svc.first_freed(d.dst, extent).has_value();
    if (!freed && !svc.first_redzone(d.dst, extent)) return;
    const std::uint64_t rows = std::uint64_t{d.count_3d} * d.count_2d;
    for (std::uint64_t i = 0; i < rows; ++i) {
        const std::uint64_t a = row_address(d.dst, d.dst_stride_2d, d.dst_stride_3d, d, i) & 0xFFFFFFFFu;
        auto f = freed ? svc.first_freed(a, a + d.len) : std::nullopt;
        const bool overflow = !f;
        if (!f) f = svc.first_redzone(a, a + d.len);
        if (!f) continue;
        base::memcheck_info m;
        m.freed_store = !overflow;
        m.heap_overflow = overflow;
        m.is_write = true;
        m.who = &engine_id_;
        m.pc = pc;
        m.has_pc = by && by->hart >= 0;
        m.access = a;
        m.address = *f;
        m.size = m.unwritten = d.len;
        if (overflow) m.unwritten = static_cast<unsigned>(a + d.len - *f);  // the row's bytes from the first past the block
        m.context = fmt::format("  transfer  : {}; its dst row {} of plane {}\n", pushed_transfer_text(d, by, chain),
                                i % d.count_2d, i / d.count_2d);
        if (overflow && svc.heap_redzone)
            if (const std::string b = svc.heap_redzone(*f); !b.empty()) m.context += "  block     : " + b + "\n";
        svc.memcheck_finding(m);
        return;
    }
}

std::string dma::pushed_transfer_text(const descriptor& d, const base::initiator_id* by,
                                      const base::call_chain& chain) const {
    const std::string caller = services().caller_of(chain);
    return fmt::format("new DMA transfer ({}-D) {}, pushed by {}{}", d.dims, describe(d), pusher_text(by),
                       caller.empty() ? "" : " (" + caller + ")");
}

std::string dma::pusher_text(const base::initiator_id* by) {
    if (!by) return "unknown initiator";
    return by->hart >= 0 ? fmt::format("hart {} ({}, {})", by->hart, by->role, by->name) : by->name;
}

std::string dma::programmer_text(const channel& ch) const {
    if (ch.by_hart >= 0) return fmt::format("hart {} ({}, {})", ch.by_hart, ch.by_role, ch.by_name);
    return ch.by_name.empty() ? std::string("unknown initiator") : fmt::format("{} ({})", ch.by_name, ch.by_role);
}

void dma::refuse(const descriptor& d, unsigned cause, const std::string& why) {
    ++refused_;
    error_addr_ = d.src;
    error_info_ = NPU_DMA_ERR_ID(0xFFu) | (NPU_DMA_SIDE_NONE << 8) | (cause << 12);
    NPU_LOG(log(), warn, "push refused: {} ({})", why, describe(d));
    if (!stop_on_error_) return;
    base::bus_error_info e;
    e.who = &engine_id_;
    e.pc = current_pc();
    e.has_pc = current_initiator() != nullptr;
    e.address = d.src;
    e.size = d.len;
    e.is_write = false;
    e.refused = true;
    const auto* by = current_initiator();
    e.context =
        fmt::format("  dma       : {} transfer refused at push: {}\n", dims_name(d.dims), why) +
        fmt::format("  descriptor: {}\n", describe(d)) +
        fmt::format("  pushed by : {}",
                    by ? (by->hart >= 0 ? fmt::format("hart {} ({}, {})", by->hart, by->role, by->name) : by->name)
                       : std::string("unknown initiator"));
    base::call_chain chain;
    capture_pusher_chain(chain);
    if (const std::string caller = services().caller_of(chain); !caller.empty())
        e.context += "\n  caller    : " + caller;
    services().bus_error(e);
}

std::uint32_t dma::push(unsigned dims) {
    descriptor d = regs_;
    d.dims = dims;
    // A lower-dimension push ignores the higher-dimension registers.
    if (dims < 2) {
        d.count_2d = 1;
        d.src_stride_2d = d.dst_stride_2d = 0;
    }
    if (dims < 3) {
        d.count_3d = 1;
        d.src_stride_3d = d.dst_stride_3d = 0;
    }
    if (d.count_2d == 0 || d.count_3d == 0) {
        refuse(d, NPU_DMA_CAUSE_DESC, fmt::format("a zero {} count", d.count_2d == 0 ? "COUNT_2D" : "COUNT_3D"));
        return NPU_DMA_REFUSED;
    }
    const auto src = map_.lookup(cfg::initiator_class::dma, d.src);
    const auto dst = map_.lookup(cfg::initiator_class::dma, d.dst);
    auto region = [](const cfg::address_info& a) {
        return a.what == cfg::address_info::status::mapped ? a.target : nullptr;
    };
    if (!allow_l3_l1_ && l1_ >= 0 && l3_ >= 0 && region(src) && region(dst)) {
        const auto* r1 = &map_.regions()[static_cast<std::size_t>(l1_)];
        const auto* r3 = &map_.regions()[static_cast<std::size_t>(l3_)];
        if ((region(src) == r3 && region(dst) == r1) || (region(src) == r1 && region(dst) == r3)) {
            refuse(d, NPU_DMA_CAUSE_ROUTE,
                   fmt::format("{} -> {} direct transfers are not allowed (dma.allow_l3_l1 = false); "
                               "stage through l2",
                               region(src)->name, region(dst)->name));
            return NPU_DMA_REFUSED;
        }
    }

    // Who pushed, captured before any wait (the peripheral's current
    // initiator belongs to whatever access it serves next).
    const base::initiator_id* by = current_initiator();
    const std::uint64_t pc = current_pc();
    base::call_chain chain;
    capture_pusher_chain(chain);

    // Every channel busy: the push blocks until one frees (MCHAN stalls a
    // full command queue the same way); the pusher sleeps in the access.
    channel* ch = nullptr;
    bool synced = false;
    for (;;) {
        for (auto& c : chans_)
            if (!(busy_mask_ >> c->index & 1u)) {
                ch = c.get();
                break;
            }
        if (ch) break;
        // Catch up to the pusher's local time and look again before sleeping
        // (a channel freed meanwhile would not wake us, as in wait_for).
        if (!synced) {
            synced = true;
            synchronise_access();
            continue;
        }
        wait_in_access(channel_freed_);
    }
    check_buffers_in_use(d, by, pc, chain);
    check_stack_crossing(d, by, pc, chain);
    check_stack_overflow(d, by, pc, chain);
    check_freed_destination(d, by, pc, chain);
    const sc_time offset = access_time() - base::sim_time();
    ch->desc = d;
    ch->by_name = by ? by->name : std::string();
    ch->by_role = by ? by->role : std::string();
    ch->by_hart = by ? by->hart : -1;
    ch->pc = pc;
    ch->has_pc = by != nullptr && by->hart >= 0;
    ch->chain = chain;
    const int rs = route_index(d.src), rd = route_index(d.dst);
    ch->route = rs >= 0 && rd >= 0 ? rs * static_cast<int>(memories_.size()) + rd : -1;
    busy_mask_ |= 1u << ch->index;
    ch->pushed_at = access_time();
    // Memcheck: a core's store into what the transfer reads or writes,
    // from now until it ends, races with it (sim_services::watch).
    if (services().memcheck() != base::memcheck_mode::off && d.len != 0 && d.count_2d != 0 && d.count_3d != 0) {
        services().watch(ch, d.src, rows_end(d.src, d.src_stride_2d, d.src_stride_3d, d));
        services().watch(ch, d.dst, rows_end(d.dst, d.dst_stride_2d, d.dst_stride_3d, d));
    }
    // From the push, in the pusher's time: harts that run their next batch
    // before the channel's thread starts already keep it short.
    ch->l1_side = route_is_l1(d.src) || route_is_l1(d.dst);
    l1_banks_.dma_streams += ch->l1_side;
    error_mask_ &= ~(1u << ch->index);
    ++transfers_;
    NPU_LOG(log(), debug, "push id {} by {}: {} {}", ch->index, ch->by_name, dims_name(dims), describe(d));
    // Marked now, in the pusher's program order: the pusher (decoupled,
    // ahead of the channel thread) reading the destination next is the bug.
    mark_destination(*ch, true);
    // The transfer starts at the pusher's local time.
    ch->start.notify(offset);
    return ch->index;
}

void dma::wait_for(std::uint32_t id) {
    // Waiting for an id that cannot exist is a firmware bug, not a no-op.
    if (id >= chans_.size()) {
        reject_access();
        return;
    }
    // The waiter is first synchronised to its local time, then sleeps in the
    // access until the transfer finished (the core counts it as sleep). The
    // busy bit is looked at again after the synchronisation: a transfer that
    // ends while a decoupled core catches up notifies `done` before anyone
    // waits on it, and waiting then would never end.
    if (busy_mask_ >> id & 1u) synchronise_access();
    while (busy_mask_ >> id & 1u) wait_in_access(chans_[id]->done);
}

void dma::channel_thread(unsigned c) {
    channel& ch = *chans_[c];
    for (;;) {
        sc_core::wait(ch.start);
        if (active_++ == 0) busy_since_ = base::sim_time();
        const sc_core::sc_time began = base::sim_time();
        const bool ok = run_transfer(ch);
        if (base::activity_sink* a = context().activity) {
            const descriptor& d = ch.desc;
            const std::uint64_t bytes = std::uint64_t(d.len) * d.count_2d * d.count_3d;
            a->span(fmt::format("dma channel {}", c), fmt::format("{} B {:#x} -> {:#x}{}", bytes, d.src, d.dst, ok ? "" : " (aborted)"),
                    static_cast<std::uint64_t>(began / clock_period()),
                    static_cast<std::uint64_t>(base::sim_time() / clock_period()),
                    {{"descriptor", describe(d)},
                     {"bytes", std::to_string(bytes)},
                     {"pushed by", ch.by_name + (ch.has_pc ? fmt::format(" at pc {:#010x}", ch.pc) : "")},
                     {"status", ok ? "done" : "aborted"}});
        }
        if (!ok) mark_destination(ch, false);
        if (--active_ == 0) {
            busy_time_ += base::sim_time() - busy_since_;
            busy_stat_ = static_cast<std::uint64_t>(busy_time_ / clock_period());
        }
        busy_mask_ &= ~(1u << c);
        services().unwatch(&ch);
        if (services().memcheck() != base::memcheck_mode::off) {
            channel::ended_transfer& e = ch.ended[ch.ended_next++ % ch.ended.size()];
            e.valid = true;
            e.desc = ch.desc;
            e.pushed_at = ch.pushed_at;
            e.ended_at = base::sim_time();
            e.by = programmer_text(ch);
            e.pc = ch.pc;
            e.has_pc = ch.has_pc;
        }
        l1_banks_.dma_streams -= ch.l1_side;
        ch.done.notify();
        channel_freed_.notify();
        NPU_LOG(log(), debug, "id {} {}", c, ok ? "done" : "failed");
        if (ok) {
            done->drive(c, true, sc_core::SC_ZERO_TIME);
        } else {
            error->drive(c, true, sc_core::SC_ZERO_TIME);
        }
    }
}

bool dma::run_transfer(channel& ch) {
    const descriptor& d = ch.desc;
    base::bus_initiator& bus = *ch.bus;
    // Memcheck and bus reports name the PC that programmed the transfer.
    if (ch.has_pc) bus.set_pc(ch.pc);

    // Burst generator: plane p, row r, byte offset o inside the row.
    std::uint32_t p = 0, r = 0, o = 0;
    bool more = d.len != 0;
    // The burst at (p, r, o): its source address and its length.
    auto src_at = [&d](std::uint32_t p, std::uint32_t r, std::uint32_t o) {
        return std::uint64_t{d.src} + std::uint64_t{p} * d.src_stride_3d + std::uint64_t{r} * d.src_stride_2d + o;
    };
    auto burst_bytes = [&](std::uint32_t o) {
        return static_cast<unsigned>(std::min<std::uint64_t>(burst_size_, d.len - o));
    };
    base::reuse_fifo<dma_burst>& writes = ch.writes;  // read (or reading), not yet written
    base::reuse_fifo<sc_time>& writing = ch.writing;  // completion times of the writes in flight
    writes.clear();
    writing.clear();
    // The earliest completion among the writes in flight (not in time order).
    auto earliest_writing = [&] {
        sc_time m = writing.front();
        for (std::size_t i = 1; i < writing.size(); ++i) m = std::min(m, writing[i]);
        return m;
    };
    const sc_time never = sc_core::sc_max_time();
    const sc_time burst_latency = cycles(burst_latency_);
    // The channel's own time. The burst loop runs ahead of SystemC time
    // while nothing else could run before it (advance_to): the same bursts,
    // bookings and data at the same times as with a wait before every burst,
    // without a SystemC context switch per burst.
    sc_time lt = base::sim_time();
    // A transfer whose bursts all reach memories (each side's rows in one
    // memory's bus window) runs no code that could add an event: the
    // kernel's next pending activity is asked once per stretch of running
    // ahead, not per burst (alone_until).
    const bool memory_only = side_in_one_memory(d.src, d.src_stride_2d, d.src_stride_3d, d) &&
                             side_in_one_memory(d.dst, d.dst_stride_2d, d.dst_stride_3d, d);
    // Its waits (advance_to, issue) are all for a time ahead of SystemC's.
    pending_horizon horizon;
    horizon.timed_waits_only = true;
    pending_horizon* const reuse = memory_only ? &horizon : nullptr;
    // Such a transfer's bursts go straight to the two memories
    // (base::burst_target): the same accesses, without a payload through the
    // socket chain per burst. Any other transfer's routes stay unresolved,
    // and bus_initiator::direct sends its bursts through the socket.
    base::burst_route src_route, dst_route;
    if (memory_only) {
        bus.resolve_burst_route(d.src, src_route);
        bus.resolve_burst_route(d.dst, dst_route);
    }
    // SystemC time as last read. It moves only in this thread's waits (kept
    // up to date after each) and, for a burst that reaches a peripheral, in
    // the access (read again after it): a memory-only transfer reads it once
    // per wait instead of twice per burst.
    sc_time stamp = lt;
    auto advance_to = [&](const sc_time& t) {
        if (t > lt) lt = t;
        stamp = wait_unless_alone(lt, stamp, context(), reuse);
    };
    sc_time next_read = lt + cycles(startup_latency_);
    sc_time next_write = sc_core::SC_ZERO_TIME, last_done = lt;
    // Whether a burst's address on the source (dst = false) or destination
    // side is in L1: for a side in one memory (one bus window), the same
    // for every burst.
    const bool src_l1 = memory_only && route_is_l1(d.src), dst_l1 = memory_only && route_is_l1(d.dst);
    auto in_l1 = [&](bool dst, std::uint64_t addr) {
        return memory_only ? (dst ? dst_l1 : src_l1) : route_is_l1(addr);
    };
    // Cycles a burst of n bytes occupies the channel's side at `addr`: its L1
    // side moves l1_width bytes per cycle; elsewhere the memory's port paces it.
    auto side_cycles = [&](bool dst, std::uint64_t addr, unsigned n) -> sc_time {
        if (l1_width_ && in_l1(dst, addr)) return cycles(l1_width_div_.div_up(n));
        return cycles(1);
    };

    // Issues one burst at `t` (>= now, the current SystemC time) and sets
    // `done` to when it completes.
    // A burst on the L1 side books its banks now, when the channel decides
    // it, at the cycles it will use them (base/slot_calendar.h): a core that
    // books one of those bank-cycles later waits for the DMA, as the DMA
    // waits for the cycles cores booked before. The data moves at `t`.
    // The L2 side of a transfer with L1 on its other side crosses the
    // cluster's shared path to L2, booked the same way (its issue slots for
    // the burst's beats, base/slot_calendar.h): cores' L2 requests and DMA
    // bursts then wait for each other. The burst completes no earlier than
    // its last beat crossed the path plus the round trip's latency.
    auto issue = [&](bool is_write, std::uint64_t addr, unsigned char* data, unsigned n, const sc_time& t,
                     const sc_time& now, sc_time& done) __attribute__((always_inline)) {
        const bool l1 = in_l1(is_write, addr);
        bus.set_beat_bytes(l1 ? l1_width_ : 0);
        // Whether the channel waits for `t` (advance_to), decided before
        // the bookings below, which schedule nothing. Only with a wait does
        // another process run between the bookings and the data: then the
        // banks are booked now, ahead of the data. Without one the write
        // books them itself, at the same cycles, in one transaction.
        // SystemC time (`stamp`), read again only where it can have moved:
        // after a wait, and after an access that may reach a peripheral.
        const bool waits = t > now && !alone_until(t, stamp, context(), reuse);
        sc_time delay = t - stamp;
        // A burst running past the L1's end faults at `t`, not here.
        const base::burst_route& route = is_write ? dst_route : src_route;
        const bool booked = waits && l1 && route_is_l1(addr + n - 1) &&
                            bus.direct(route, tlm::TLM_IGNORE_COMMAND, addr, nullptr, n, delay) == tlm::TLM_OK_RESPONSE;
        if (booked) done = stamp + delay;
        sc_time path_done = sc_core::SC_ZERO_TIME;
        if (ch.l1_side && !l1 && route_is_l2_path(addr, n)) {
            const std::uint64_t cycle = cycle_of(t);
            path_done = cycles(l2_path_.reserve_burst(cycle, n) + l2_path_.round_trip - 1);
        }
        if (t > now) {
            lt = t;
            if (waits) {
                sc_core::wait(lt - stamp);
                stamp = base::sim_time();
            }
        }
        delay = lt - stamp;
        // A memory-only burst with nothing booked ahead: straight to the
        // memory's stream(), the access bus.direct would make (the
        // interconnect's hop and forwarded count, the memory's data, timing
        // and counters, the channel's traffic) without the extension and
        // its layers. It cannot fault or stop the run; a burst the memory
        // has a finding for goes through bus.direct below.
        if (memory_only && !booked && route.covers(addr, addr + n - 1)) {
            sc_time d = delay + route.hop;
            if (route.target->stream(is_write, addr - route.window_base, data, n, d, stamp, l1 ? l1_width_ : 0,
                                     bus.traffic())) {
                ++*route.forwarded;
                if (stamp > lt) lt = stamp;
                done = std::max(stamp + d, path_done);
                return tlm::TLM_OK_RESPONSE;
            }
        }
        bus.set_banks_booked(booked);
        const bool was_stopped = services().stop_requested();
        const auto st =
            bus.direct(route, is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, addr, data, n, delay);
        bus.set_banks_booked(false);
        // A memcheck finding that stops the run stops it at the burst's time.
        if (!was_stopped && services().stop_requested()) services().stop_time_at_least(lt);
        // A target that waited inside the access (a peripheral's sync) took
        // SystemC time past the channel's; a memory never waits.
        if (!memory_only) stamp = base::sim_time();
        if (stamp > lt) lt = stamp;
        if (!booked) done = std::max(stamp + delay, path_done);
        return st;
    };

    while (more || !writes.empty()) {
        // The channel's time moves only in issue() and the wait below.
        const sc_time now = lt;
        while (!writing.empty() && writing.front() <= now) writing.pop();
        // A free slot: now, or when the earliest write in flight completes.
        sc_time slot = now;
        if (writes.size() + writing.size() >= outstanding_)
            slot = writing.empty() ? never : earliest_writing();
        const sc_time tr = more && slot != never ? std::max({next_read, slot, now}) : never;
        const sc_time tw = writes.empty() ? never : std::max({writes.front().ready, next_write, now});
        if (tr == never && tw == never) {
            // Every slot waits for a write in flight: no new read before one completes.
            advance_to(earliest_writing());
            continue;
        }
        if (tw <= tr) {
            dma_burst& w = writes.front();
            sc_time done;
            if (issue(true, w.dst, w.data.data(), w.n, tw, now, done) != tlm::TLM_OK_RESPONSE) {
                wait_until(lt);  // the fault, and the error interrupt, at the burst's time
                fail(ch, true, w.dst, w.n, fmt::format("plane {}, row {}, byte {} of the row", w.p, w.r, w.o));
                return false;
            }
            writing.push() = done;
            last_done = std::max(last_done, done);
            // The L1 side sends the next burst once this one's words are all
            // served (bank conflicts hold the port), the hop excluded.
            next_write = lt + side_cycles(true, w.dst, w.n);
            if (in_l1(true, w.dst) && done - hop_ > next_write) next_write = done - hop_;
            bytes_ += w.n;
            ++bursts_;
            if (ch.route >= 0) route_bytes_[static_cast<std::size_t>(ch.route)] += w.n;
            writes.pop();
        } else {
            const unsigned n = burst_bytes(o);
            const std::uint64_t src = src_at(p, r, o);
            const std::uint64_t dst =
                std::uint64_t{d.dst} + std::uint64_t{p} * d.dst_stride_3d + std::uint64_t{r} * d.dst_stride_2d + o;
            // The burst's slot (its buffer from an earlier burst) is taken
            // now; a failed read leaves the transfer, and the FIFO, behind.
            dma_burst& w = writes.push();
            w.dst = dst & 0xFFFFFFFFu;
            w.n = n;
            w.ready = sc_time();
            w.p = p, w.r = r, w.o = o;
            // Zeros where a target leaves bytes unread, as a fresh buffer; a
            // memory's read fills every byte (or fails the transfer), so its
            // buffer only needs room: a whole burst's, once per slot (a
            // resize to each burst's length zero-filled the difference
            // whenever a row's short last burst came before a full one).
            if (memory_only) {
                if (w.data.size() < n) w.data.resize(std::max<std::size_t>(n, burst_size_));
            } else {
                w.data.assign(n, 0);
            }
            if (issue(false, src & 0xFFFFFFFFu, w.data.data(), n, tr, now, w.ready) != tlm::TLM_OK_RESPONSE) {
                wait_until(lt);  // the fault, and the error interrupt, at the burst's time
                fail(ch, false, src & 0xFFFFFFFFu, n, fmt::format("plane {}, row {}, byte {} of the row", p, r, o));
                return false;
            }
            const sc_time issued = lt;
            next_read = issued + std::max(burst_latency, side_cycles(false, src, n));
            if (bandwidth_ != 0) {
                const sc_time datapath = cycles(bandwidth_div_.div_up(n));
                w.ready = std::max(w.ready, issued + datapath);
                next_read = std::max(next_read, issued + datapath);
            }
            // Next burst: rest of the row, else next row, else next plane.
            o += n;
            if (o >= d.len) {
                o = 0;
                if (++r >= d.count_2d) {
                    r = 0;
                    if (++p >= d.count_3d) more = false;
                }
            }
            // Its source towards the host's caches while this burst is
            // written (memory-only transfers: the route is a memory's).
            if (more && memory_only) {
                const std::uint64_t next = src_at(p, r, o) & 0xFFFFFFFFu;
                const unsigned next_n = burst_bytes(o);
                if (src_route.covers(next, next + next_n - 1))
                    src_route.target->prefetch(next - src_route.window_base, next_n);
            }
        }
    }
    wait_until(std::max(last_done, lt));
    return true;
}

bool dma::route_is_l2_path(std::uint64_t addr, unsigned n) const {
    return addr >= l2_path_.base && addr - l2_path_.base + n <= l2_path_.size;
}

bool dma::route_is_l1(std::uint64_t addr) const {
    if (l1_ < 0) return false;
    const auto& r = map_.regions()[static_cast<std::size_t>(l1_)];
    return addr >= r.base && addr - r.base < r.size;
}

void dma::fail(channel& ch, bool dst_side, std::uint64_t addr, unsigned size, const std::string& where) {
    ++errors_;
    error_mask_ |= 1u << ch.index;
    error_addr_ = static_cast<std::uint32_t>(addr);
    error_info_ = ch.index | ((dst_side ? NPU_DMA_SIDE_DST : NPU_DMA_SIDE_SRC) << 8) | (NPU_DMA_CAUSE_BUS << 12);
    auto& svc = services();
    const std::string decoded = svc.describe_address ? svc.describe_address(ch.id.cls, addr) : std::string();
    NPU_LOG(log(), warn, "id {} aborted: {} 0x{:08x} failed ({})", ch.index, dst_side ? "write to" : "read from", addr,
            decoded);
    if (!stop_on_error_) return;
    base::bus_error_info e;
    e.who = &ch.id;
    e.pc = ch.pc;
    e.has_pc = ch.has_pc;
    e.address = addr;
    e.size = size;
    e.is_write = dst_side;
    std::string pc_text = fmt::format("0x{:08x}", ch.pc);
    if (const std::string sym = svc.symbol_of(ch.pc); !sym.empty()) pc_text += " <" + sym + ">";
    e.context =
        fmt::format("  dma       : transfer id {} ({}) aborted: the {} side faulted\n", ch.index,
                    dims_name(ch.desc.dims), dst_side ? "destination (write)" : "source (read)") +
        fmt::format("  descriptor: {}\n", describe(ch.desc)) +
        fmt::format("  faulted at: {} 0x{:08x} ({} B burst, {})\n", dst_side ? "dst" : "src", addr, size, where) +
        fmt::format("  programmed: by {}{}", programmer_text(ch), ch.has_pc ? " at pc " + pc_text : "");
    if (const std::string caller = svc.caller_of(ch.chain); !caller.empty()) e.context += "\n  caller    : " + caller;
    svc.bus_error(e);
}

}  // namespace npu::dma
