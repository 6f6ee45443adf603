// SystemC core model: batches of the interpreter under a quantum keeper,
// memory through the bus initiator (DMI fast path inline, TLM slow path).
#include "core.h"

#include "interp.h"
#include "timing.h"

#include "base/peripheral.h"
#include "base/sim_services.h"
#include "base/slot_calendar.h"
#include "config/memory_map.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace npu::cpu {

namespace {

// The shared icache's geometry and miss cost (schema: icache.*); the miss
// cost derived from the L2 path when icache.miss_cycles is 0.
icache::params icache_params(const cfg::config& c) {
    icache::params p;
    p.size = static_cast<std::uint32_t>(c.size("icache.size"));
    p.line_bytes = static_cast<std::uint32_t>(c.size("icache.line_bytes"));
    p.ways = static_cast<std::uint32_t>(c.count("icache.ways"));
    if (std::uint64_t(p.ways) * p.line_bytes > p.size)
        throw cfg::config_error(fmt::format(
            "icache.size ({}, {}) holds less than one set of icache.ways x icache.line_bytes ({} x {})",
            c.size("icache.size"), c.where("icache.size").str(), p.ways, p.line_bytes));
    std::uint64_t miss = c.cycles("icache.miss_cycles");
    if (miss == 0) {
        const std::uint64_t beat = std::max<std::uint64_t>(1, c.size("l2.bandwidth"));
        miss = c.cycles("l2.latency") + c.cycles("interconnect.hop_latency") + (p.line_bytes + beat - 1) / beat - 1;
    }
    p.miss_cycles = static_cast<std::uint32_t>(miss);
    p.cached_base = c.address("l2.base");
    p.cached_size = c.size("l2.size");
    return p;
}

// Once elaboration is over an event may be notified; before that the thread
// has not run yet and will see the new state when it starts.
bool simulation_started() {
    const auto st = sc_core::sc_get_status();
    return st != sc_core::SC_ELABORATION && st != sc_core::SC_BEFORE_END_OF_ELABORATION &&
           st != sc_core::SC_END_OF_ELABORATION;
}

base::initiator_id make_id(const char* name, unsigned hart, bool cc) {
    base::initiator_id id;
    id.name = name;
    id.cls = static_cast<int>(cfg::initiator_class::core);
    id.hart = static_cast<int>(hart);
    id.role = cc ? "cluster controller" : "worker";
    return id;
}

// The schema bounds every core.cpi_* (but cpi_branch_taken) to one byte.
std::uint8_t cpi(const cfg::config& c, const char* key) { return static_cast<std::uint8_t>(c.cycles(key)); }

// Bytes of an n-byte shadow run (n = 1, 2 or 4: one access) that are not
// plainly written (never written, or a DMA transfer in flight has yet to
// write them)? One compare of the run as a word: every byte is 1.
template <unsigned N>
inline bool any_unwritten(const unsigned char* s) {
    using word = std::conditional_t<N == 4, std::uint32_t, std::conditional_t<N == 2, std::uint16_t, std::uint8_t>>;
    static_assert(sizeof(word) == N, "a 1, 2 or 4-byte access");
    word v;
    std::memcpy(&v, s, N);
    // A heap header's or padding's redzone mark (base::shadow_redzone) too:
    // the slow path tells the allocator's reads of its headers from a read
    // past a block (uninitialised_read).
    return v != static_cast<word>(0x01010101u);
}

// Bytes of an n-byte shadow run in a freed heap block (base::shadow_freed)
// or a heap block's header or padding (base::shadow_redzone)? One test of
// the run as a word, as any_unwritten.
template <unsigned N>
inline bool any_freed(const unsigned char* s) {
    using word = std::conditional_t<N == 4, std::uint32_t, std::conditional_t<N == 2, std::uint16_t, std::uint8_t>>;
    word v;
    std::memcpy(&v, s, N);
    return (v & static_cast<word>(0x18181818u)) != 0;
}

// The isa_ext bits of core.isa_extensions (the schema checked the names;
// `none`, the empty list, matches none of them).
std::uint32_t isa_extensions(const cfg::config& c) {
    static const struct {
        const char* name;
        std::uint32_t bit;
    } known[] = {{"c", ext_c},           {"xcvmem", ext_xcvmem}, {"xcvmac", ext_xcvmac},
                 {"xcvalu", ext_xcvalu}, {"xcvbi", ext_xcvbi},   {"xcvelw", ext_xcvelw},
                 {"xcvsimd", ext_xcvsimd}, {"xcvbitmanip", ext_xcvbitmanip}};
    std::uint32_t bits = 0;
    for (const std::string& n : c.names("core.isa_extensions"))
        for (const auto& k : known)
            if (n == k.name) bits |= k.bit;
    return bits;
}

}  // namespace

// The interpreter's memory policy for a core. The inline fast path checks two
// cached DMI windows; everything else goes through slow_access().
struct core::bus_memory {
    static constexpr int n_targets = base::traffic_registry::max_targets + 1;  // last: unknown target

    struct window {
        std::uint32_t start = 0;
        std::uint64_t size = 0;  // 0 = empty entry
        unsigned char* host = nullptr;
        unsigned char* shadow = nullptr;
        std::uint32_t latency = 0;  // cycles
        // Arbitrated with the other initiators: the L1 banks, or the
        // cluster's path to L2 (base/slot_calendar.h).
        enum class shared : std::uint8_t { none, l1, l2 } arbitration = shared::none;
        std::uint64_t* bytes = nullptr;   // traffic counter of the target
        std::uint64_t* accesses = nullptr;
        base::dmi_window dmi;  // for memcheck reports
    };

    core& c;
    hart_state& h;
    base::bus_initiator& bus;
    base::sim_services& svc;
    base::l1_bank_calendar& banks;
    base::l2_path_calendar& l2_path;
    window rd[2], wr[2];
    bool split;
    std::uint32_t tohost = 1;  // bit 0 set: matches no (addr & ~7)
    std::uint32_t tohost_addr = 0;
    std::uint64_t batch_start = 0;  // h.cycle when the batch began
    std::int64_t now_offset = 0;    // global cycle = h.cycle + now_offset
    std::uint32_t penalty = 0;
    // Stack guard (set_stack_guard): sp - guard_floor < guard_span means sp
    // is below the stack's limit guard_lo; the stack is [guard_lo, guard_hi).
    std::uint32_t guard_floor = 0, guard_span = 0, guard_lo = 0, guard_hi = 0;
    std::uint32_t no_dmi_pages[8] = {};
    unsigned no_dmi_next = 0;
    // Register windows (peripherals) the interconnect described: an access
    // in one goes straight to the peripheral (slow_access). Pages known to
    // have none (another target, an unmapped address) are not asked again.
    base::burst_route reg_routes[2];
    unsigned reg_next = 0;
    std::uint32_t no_route_pages[4] = {};
    unsigned no_route_next = 0;
    std::uint64_t loads[n_targets] = {};
    std::uint64_t stores[n_targets] = {};
    std::uint64_t unknown_bytes = 0;
    std::uint64_t stall_memory = 0;
    std::uint64_t stall_bank = 0;
    // Cycles accesses waited for a bank or the L2 path. Every wait adds at
    // least one, so a batch waited if and only if this moved during it.
    std::uint64_t arbitration_stall = 0;

    bus_memory(core& owner, bool split_misaligned)
        : c(owner),
          h(owner.h_),
          bus(owner.bus),
          svc(owner.services()),
          banks(owner.context().shared<base::l1_bank_calendar>()),
          l2_path(owner.context().shared<base::l2_path_calendar>()),
          split(split_misaligned) {
        std::fill(std::begin(no_dmi_pages), std::end(no_dmi_pages), 1u);  // never a page number << 12
        std::fill(std::begin(no_route_pages), std::end(no_route_pages), 1u);
    }

    // The route to the peripheral whose register window holds [a, a + size),
    // or null: a peripheral's access is then the one b_transport through the
    // interconnect would make (bus_initiator::direct: the router's hop and
    // forwarded count, peripheral::burst), without a payload through its
    // sockets. Only peripherals: a memory without DMI keeps b_transport.
    const base::burst_route* register_route(std::uint32_t a, unsigned size, std::uint32_t page) {
        const std::uint64_t last = std::uint64_t{a} + size - 1;
        for (const auto& r : reg_routes)
            if (r.covers(a, last)) return &r;
        for (std::uint32_t np : no_route_pages)
            if (np == page) return nullptr;
        base::burst_route r;
        bus.resolve_burst_route(a, r);
        if (r.covers(a, last) && dynamic_cast<base::peripheral*>(r.target)) {
            base::burst_route& slot = reg_routes[reg_next++ & 1];
            slot = r;
            return &slot;
        }
        no_route_pages[no_route_next++ & 3] = page;
        return nullptr;
    }

    bool split_misaligned() const { return split; }
    // The run is ending (an exit, a stopping bus error or finding): the hart
    // runs on to the end of its batch (the next taken transfer) as without
    // a watchdog, which then no longer stops it first (interp.h, Exact).
    bool stop_requested() const { return svc.stop_requested(); }

    sc_core::sc_time local_time(std::uint64_t cyc) const {
        return c.qk_.get_local_time() + c.cycles(cyc - batch_start);
    }

    std::uint32_t to_cycles(const sc_core::sc_time& t) const {
        return static_cast<std::uint32_t>(c.cycle_of(t));
    }

    // Books the access in what it shares (base/slot_calendar.h): its L1
    // bank, which serves it at its next free cycle (plus the penalty), or an
    // issue slot of the cluster's path to L2. Inline: one calendar slot
    // checked and written per L1 access when nothing waits.
    __attribute__((always_inline)) void arbitrate(const window& w, std::uint32_t a, unsigned size,
                                                  std::uint64_t& cyc) {
        const std::uint64_t now = cyc + static_cast<std::uint64_t>(now_offset);
        if (__builtin_expect(w.arbitration != window::shared::l1, 0)) return arbitrate_l2(w, now, cyc);
        base::l1_bank_calendar& t = banks;
        const std::uint64_t off = a - t.base;
        std::uint64_t served = t.banks.reserve_inline(t.bank_of(off), now);
        // An access wider than a bank (l1.bank_width below its size; an
        // aligned access never crosses a bank otherwise, and a misaligned
        // one is split into bytes) takes every bank it spans.
        if (__builtin_expect((off >> t.shift) != ((off + size - 1) >> t.shift), 0))
            served = arbitrate_wide(off, size, now, served);
        if (__builtin_expect(served != now, 0)) bank_wait(served - now, cyc);
    }

    // The further banks of an access wider than one: each booked at its
    // first free cycle from `now`; the access is served when its last bank
    // is (the banks need not all be free in the same cycle: an
    // approximation of a port that waits for all of them).
    __attribute__((noinline)) std::uint64_t arbitrate_wide(std::uint64_t off, unsigned size, std::uint64_t now,
                                                           std::uint64_t served) {
        base::l1_bank_calendar& t = banks;
        const std::uint64_t last = (off + size - 1) >> t.shift;
        for (std::uint64_t word = (off >> t.shift) + 1; word <= last; ++word)
            served = std::max(served, t.banks.reserve(t.bank_of(word << t.shift), now));
        return served;
    }

    __attribute__((noinline)) void bank_wait(std::uint64_t waited, std::uint64_t& cyc) {
        const std::uint64_t wait = waited + penalty;
        cyc += wait;
        stall_bank += wait;
        arbitration_stall += wait;
    }

    __attribute__((noinline)) void arbitrate_l2(const window& w, std::uint64_t now, std::uint64_t& cyc) {
        // The latency already counted is the round trip; the request went out
        // that many cycles ago.
        const std::uint64_t issued = now > w.latency ? now - w.latency : 0;
        const std::uint64_t wait = l2_path.reserve(issued, w.latency) - issued;
        cyc += wait;
        stall_memory += wait;
        arbitration_stall += wait;
    }

    // The interpreter's entry points. They hand the access a copy of the
    // cycle count: the interpreter's own count then never has its address
    // taken and stays in a register, instead of a store and reload on
    // every instruction it executes.
    template <class T>
    __attribute__((always_inline)) bool load(std::uint32_t a, T& v, std::uint64_t& cyc, std::uint32_t pc) {
        std::uint64_t c = cyc;
        const bool ok = load_access<T>(a, v, c, pc);
        cyc = c;
        return ok;
    }

    template <class T>
    __attribute__((always_inline)) bool store(std::uint32_t a, T v, std::uint64_t& cyc, std::uint32_t pc) {
        std::uint64_t c = cyc;
        const bool ok = store_access<T>(a, v, c, pc);
        cyc = c;
        return ok;
    }

    template <class T>
    __attribute__((always_inline)) bool load_access(std::uint32_t a, T& v, std::uint64_t& cyc, std::uint32_t pc) {
        for (window& w : rd) {
            const std::uint64_t off = a - w.start;
            if (off + sizeof(T) <= w.size) {
                if (w.shadow && any_unwritten<sizeof(T)>(w.shadow + off)) uninitialised_read(w, a, sizeof(T), pc, cyc);
                std::memcpy(&v, w.host + off, sizeof(T));
                cyc += w.latency;
                stall_memory += w.latency;
                *w.bytes += sizeof(T);
                ++*w.accesses;
                if (w.arbitration == window::shared::l1 && __builtin_expect(h.x[2] - guard_floor < guard_span, 0))
                    stack_check(a, sizeof(T), pc, false, cyc);
                if (w.arbitration != window::shared::none) arbitrate(w, a, sizeof(T), cyc);
                return true;
            }
        }
        return slow_access(a, &v, sizeof(T), cyc, pc, false);
    }

    template <class T>
    __attribute__((always_inline)) bool store_access(std::uint32_t a, T v, std::uint64_t& cyc, std::uint32_t pc) {
        if (__builtin_expect((a & ~7u) == tohost, 0)) on_tohost(a, static_cast<std::uint32_t>(v), cyc);
        for (window& w : wr) {
            const std::uint64_t off = a - w.start;
            if (off + sizeof(T) <= w.size) {
                if (w.arbitration == window::shared::l1 && __builtin_expect(h.x[2] - guard_floor < guard_span, 0))
                    stack_check(a, sizeof(T), pc, true, cyc);
                if (__builtin_expect(svc.watch_count != 0, 0) && svc.watched(a, sizeof(T)))
                    store_in_watch(a, sizeof(T), pc, cyc);
                if (w.shadow) {
                    if (!__builtin_expect(any_freed<sizeof(T)>(w.shadow + off), 0) ||
                        !freed_store(a, sizeof(T), pc, cyc, w.shadow + off))
                        std::memset(w.shadow + off, 1, sizeof(T));
                }
                std::memcpy(w.host + off, &v, sizeof(T));
                cyc += w.latency;
                stall_memory += w.latency;
                *w.bytes += sizeof(T);
                ++*w.accesses;
                if (w.arbitration != window::shared::none) arbitrate(w, a, sizeof(T), cyc);
                return true;
            }
        }
        return slow_access(a, &v, sizeof(T), cyc, pc, true);
    }

    // The checked instantiation (--log-level=trace, or a debugger attached):
    // one log line per instruction (before it executes); the debugger may stop it.
    bool trace(std::uint32_t pc, const insn& i, const hart_state& hs, std::uint64_t cyc) {
        NPU_LOG(c.log(), trace, "{:#010x}: {:<10} rd={} rs1={}({:#x}) rs2={}({:#x}) imm={}", pc, op_name(i.op), i.rd,
                i.rs1, hs.x[i.rs1], i.rs2, hs.x[i.rs2], i.imm);
        // A debugger's stop comes first: the instruction then does not run (yet).
        if (c.debug_ && (!c.debug_fault_.empty() || c.debug_->before(c, pc, i))) return true;
        if (c.observer_) c.observer_->before(c, pc, i, cyc + static_cast<std::uint64_t>(now_offset));
        return false;
    }

    // memcheck=error stops the run: end the batch instead of running on to the quantum's end.
    __attribute__((noinline)) void uninitialised_read(const window& w, std::uint32_t a, unsigned size,
                                                      std::uint32_t pc, std::uint64_t cyc) {
        // A load all of whose bytes are a heap block's header or padding
        // (base::shadow_redzone) reads past a block (an index one too large,
        // a memcpy too long): a heap overflow, unless it is the allocator's
        // own read of a header. A load only partly there (a word at a
        // block's end over its padding: C library string routines read
        // whole words) is judged by its other bytes, as before.
        const unsigned char* const s = w.shadow + (a - w.start);
        unsigned redzone = 0;
        bool bad = false;
        for (unsigned i = 0; i < size; ++i) {
            redzone += (s[i] & base::shadow_redzone) != 0;
            bad |= (s[i] & ~base::shadow_redzone) != base::shadow_written;
        }
        if (redzone == size && !svc.in_heap_code(pc)) {
            heap_finding(a, size, pc, cyc, s, base::shadow_redzone, false);
            return;
        }
        if (redzone && !bad) return;  // written bytes (a header the allocator reads)
        // memcheck=strict: bytes the startup code only zeroed are C's
        // zero-initialised scalars (counters, flags, pointers) to an integer
        // load, but never-loaded data to a floating-point one (weights).
        if (only_zeroed(w.shadow + (a - w.start), size) && !is_fp_load(pc)) return;
        // A word some of whose bytes were written and the rest never (not in
        // flight) is a struct's padding copied along with its fields (`*d =
        // r`, memcpy): C leaves padding unwritten, so an integer load of such
        // a word is no finding; in strict mode it is.
        if (svc.memcheck() != base::memcheck_mode::strict && partly_written(w.shadow + (a - w.start), size) &&
            !is_fp_load(pc))
            return;
        bus.set_pc(pc);
        const bool was_stopped = svc.stop_requested();
        bus.memcheck_read(w.dmi, a, size);
        if (!was_stopped) stopped_at(cyc);
        if (svc.stop_requested() && !c.memcheck_fault_) {
            h.cycle_limit = 0;
            // The registers as the load executes; the branch ring is taken
            // when the batch ends (the interpreter holds its count till then).
            c.memcheck_fault_ = true;
            c.record_fault(pc);
            if (c.debug_) c.debug_fault_ = fmt::format("{} (the load at pc {:#010x})", svc.stop_reason(), pc);
        }
    }

    // A store inside a buffer a DMA transfer or the SA's job uses
    // (sim_services::watch): checked against the buffers in use at the
    // store's time. A race found here is confirmed at the batch's end
    // (core::confirm_watched_store), after the hart has synchronised.
    __attribute__((noinline)) void store_in_watch(std::uint32_t a, unsigned size, std::uint32_t pc,
                                                  std::uint64_t cyc) {
        if (c.watched_store_.pending) return;  // one at a time: the batch ends at the first
        svc.unwatch_ended(base::sim_time());
        if (!svc.watched(a, size)) return;
        const sc_core::sc_time at = base::sim_time() + local_time(cyc);
        base::buffer_use mine;
        mine.spans.push_back({a, std::uint64_t{a} + size, true, "store"});
        if (!svc.buffer_write_conflict(mine, at)) return;
        auto& p = c.watched_store_;
        p.pending = true;
        p.addr = a;
        p.size = size;
        p.pc = pc;
        p.at = at;
        p.regs = h;
        p.regs.pc = pc;
        p.regs.cycle = cyc;
        h.cycle_limit = 0;  // end the batch at the next taken transfer
    }

    // sp is below the stack's limit: an access between sp and the limit is
    // the overflowed stack itself (the ABI has no red zone below sp).
    __attribute__((noinline)) void stack_check(std::uint32_t a, unsigned size, std::uint32_t pc, bool write,
                                               std::uint64_t cyc) {
        const std::uint32_t sp = h.x[2];
        if (a < sp || a >= guard_lo) return;
        base::memcheck_info m;
        m.who = &bus.who();
        m.pc = pc;
        m.has_pc = true;
        m.address = m.access = a;
        m.size = m.unwritten = size;
        m.stack_overflow = true;
        m.is_write = write;
        m.sp = sp;
        m.stack_lo = guard_lo;
        m.stack_hi = guard_hi;
        finding_at(m, pc, cyc, "access");
    }

    // Reports a finding at a core's own access: one that stops the run
    // ends the batch there, at the access's time, with the fault's state
    // (`what` names the access in a debugger's stop reason).
    void finding_at(const base::memcheck_info& m, std::uint32_t pc, std::uint64_t cyc, const char* what) {
        const bool was_stopped = svc.stop_requested();
        svc.memcheck_finding(m);
        if (!was_stopped) stopped_at(cyc);
        if (svc.stop_requested() && !c.memcheck_fault_) {
            h.cycle_limit = 0;
            c.memcheck_fault_ = true;
            c.record_fault(pc);
            if (c.debug_) c.debug_fault_ = fmt::format("{} (the {} at pc {:#010x})", svc.stop_reason(), what, pc);
        }
    }

    // A store into a heap block the program freed (base::shadow_freed): a
    // stale pointer's write, which silently corrupts whatever reuses the
    // block; into a block's header or past its requested size
    // (base::shadow_redzone): an overflow, which corrupts the allocator's
    // list or the next block. The allocator's own stores there (headers)
    // are not one: they keep the redzone mark (true: the shadow is set).
    __attribute__((noinline)) bool freed_store(std::uint32_t a, unsigned size, std::uint32_t pc, std::uint64_t cyc,
                                               unsigned char* shadow) {
        if (svc.in_heap_code(pc)) {
            for (unsigned i = 0; i < size; ++i)
                shadow[i] = static_cast<unsigned char>(base::shadow_written | (shadow[i] & base::shadow_redzone));
            return true;
        }
        unsigned char bit = base::shadow_redzone;
        unsigned first = 0;
        while (first < size && !(shadow[first] & bit)) ++first;
        if (first == size) bit = base::shadow_freed;
        heap_finding(a, size, pc, cyc, shadow, bit, true);
        return false;
    }

    // The finding of a core's store (is_write) into a freed block or a
    // block's header or padding, or its load from a header or padding: the
    // bytes with `bit` (base::shadow_freed or base::shadow_redzone) set.
    void heap_finding(std::uint32_t a, unsigned size, std::uint32_t pc, std::uint64_t cyc, const unsigned char* shadow,
                      unsigned char bit, bool is_write) {
        unsigned first = 0;
        while (first < size && !(shadow[first] & bit)) ++first;
        unsigned freed = 0;
        for (unsigned i = first; i < size; ++i) freed += (shadow[i] & bit) != 0;
        base::memcheck_info m;
        m.who = &bus.who();
        m.pc = pc;
        m.has_pc = true;
        m.address = a + first;
        m.access = a;
        m.size = size;
        m.unwritten = freed;
        m.is_write = is_write;
        m.freed_store = bit == base::shadow_freed;
        m.heap_overflow = bit == base::shadow_redzone;
        if (m.heap_overflow && svc.heap_redzone)
            if (const std::string b = svc.heap_redzone(a + first); !b.empty()) m.context = "  block     : " + b + "\n";
        // A store in the runtime or the C library (memset, memcpy): the
        // program's call of it.
        if (svc.capture_call_chain) {
            h.pc = pc;
            base::call_chain chain;
            svc.capture_call_chain(h.hart_id, chain);
            if (const std::string cl = svc.caller_of(chain); !cl.empty()) m.context += "  caller    : " + cl + "\n";
        }
        finding_at(m, pc, cyc, is_write ? "store" : "load");
    }

    static bool partly_written(const unsigned char* s, unsigned n) {
        bool written = false;
        for (unsigned i = 0; i < n; ++i) {
            if (s[i] == base::shadow_written)
                written = true;
            else if (s[i] != 0)
                return false;  // in flight, or zeroed only
        }
        return written;
    }

    static bool only_zeroed(const unsigned char* s, unsigned n) {
        for (unsigned i = 0; i < n; ++i)
            if (s[i] != base::shadow_written && s[i] != base::shadow_zeroed) return false;
        return true;
    }

    bool is_fp_load(std::uint32_t pc) {
        std::uint16_t lo = 0;
        if (bus.debug_read(pc, &lo, 2) != 2) return false;
        // LOAD-FP (flw, fld), c.flw, c.flwsp
        return (lo & 0x7f) == 0x07 || (lo & 0xe003) == 0x6000 || (lo & 0xe003) == 0x6002;
    }

    // The DMI window holding pc, if its target grants one (no access made).
    bool dmi_code_window(std::uint32_t pc, std::uint64_t& start, std::uint64_t& len, const unsigned char*& host) {
        // 2 bytes: a 16-bit instruction may end a window.
        const base::dmi_window* w = bus.dmi_for(pc, 2, false);
        if (!w) return false;
        start = w->start;
        len = w->end - w->start + 1;
        host = w->host;
        return true;
    }

    bool code_window(std::uint32_t pc, std::uint64_t& start, std::uint64_t& len, const unsigned char*& host) {
        if (dmi_code_window(pc, start, len, host)) return true;
        // No DMI there: either nothing answers (a bus error, reported as a
        // fetch fault) or a target without DMI, from which this ISS does not
        // execute (it decodes from host memory).
        std::uint32_t word;
        sc_core::sc_time d = local_time(h.cycle);
        bus.set_pc(pc);
        if (bus.read(pc, &word, 4, d) == tlm::TLM_OK_RESPONSE)
            NPU_LOG(c.log(), error, "hart {}: cannot execute from {:#010x}: the target grants no DMI", h.hart_id, pc);
        return false;
    }

    // A stop this hart's access just requested (its exit, a memcheck
    // finding) happened at the access's cycle, not at the hart's last
    // synchronisation with SystemC time: the run's cycles end there.
    void stopped_at(std::uint64_t cyc) {
        if (svc.stop_requested()) svc.stop_time_at_least(base::sim_time() + local_time(cyc));
    }

    void on_tohost(std::uint32_t a, std::uint32_t v, std::uint64_t cyc) {
        if (a != tohost_addr || !(v & 1)) return;  // fromhost / non-exit commands: ignored
        const std::uint32_t code = v >> 1;
        const bool was_stopped = svc.stop_requested();
        svc.request_stop(code ? base::exit_code::firmware_failure : base::exit_code::success,
                         fmt::format("tohost: hart {} wrote {:#x} (exit code {})", h.hart_id, v, code),
                         static_cast<int>(code));
        if (!was_stopped) stopped_at(cyc);
        h.cycle_limit = 0;  // end the batch at the next branch
    }

    void install(window (&cache)[2], const base::dmi_window& d, bool write) {
        cache[1] = cache[0];
        window& w = cache[0];
        w.start = static_cast<std::uint32_t>(d.start);
        w.size = d.end - d.start + 1;
        w.host = d.host;
        w.shadow = d.shadow;
        w.latency = to_cycles(write ? d.write_latency : d.read_latency);
        const base::l1_bank_calendar& t = banks;
        const base::l2_path_calendar& p = l2_path;
        w.arbitration = !t.banks.empty() && d.start >= t.base && d.end < t.base + t.size ? window::shared::l1
                        : p.outstanding && d.start >= p.base && d.end < p.base + p.size ? window::shared::l2
                                                                            : window::shared::none;
        // TCDM: a single-cycle access in the core's EX/WB stages (timing.h).
        if (w.arbitration == window::shared::l1)
            w.latency = w.latency > timing::tcdm_pipelined_cycles ? w.latency - timing::tcdm_pipelined_cycles : 0;
        const int tid = d.traffic_id;
        auto& ctr = bus.traffic();
        if (tid >= 0 && tid < base::traffic_registry::max_targets) {
            w.bytes = write ? &ctr.write_bytes[tid] : &ctr.read_bytes[tid];
            w.accesses = write ? &stores[tid] : &loads[tid];
        } else {
            w.bytes = &unknown_bytes;
            w.accesses = write ? &stores[n_targets - 1] : &loads[n_targets - 1];
        }
        w.dmi = d;
    }

    void forget_windows() { rd[0] = rd[1] = wr[0] = wr[1] = window{}; }

    // The target waited inside b_transport (a blocking register, or one that
    // synchronises the initiator): SystemC time moved from `stamp` to now and
    // the hart is `delay` past now. The hart's time from before the call
    // (stamp + before) up to now is sleep (clock-gated, as PULP's event unit
    // does: not counted in mcycle); what the target returned beyond that is
    // access latency. The batch restarts its time base at this point (the
    // quantum keeper holds the new local offset) and ends soon after.
    __attribute__((noinline)) void rebase(const sc_core::sc_time& stamp, const sc_core::sc_time& before,
                                          const sc_core::sc_time& delay, std::uint64_t& cyc) {
        const sc_core::sc_time now = base::sim_time();
        const sc_core::sc_time start = stamp + before;  // the hart's time when it issued the access
        const sc_core::sc_time end = std::max(now + delay, start);  // never back in time
        const sc_core::sc_time asleep = now > start ? now - start : sc_core::SC_ZERO_TIME;
        const std::uint32_t lat = to_cycles(end - start - asleep);
        cyc += lat;
        stall_memory += lat;
        const std::uint64_t slept = to_cycles(asleep);
        c.sleep_cycles_ += slept;
        c.event_wait_cycles_ += slept;
        if (base::activity_sink* a = c.context().activity) {
            a->hart_state(h.hart_id, "event wait", static_cast<std::uint64_t>(std::llround(start / c.clock_period())));
            a->hart_state(h.hart_id, "running", static_cast<std::uint64_t>(std::llround(now / c.clock_period())));
        }
        const sc_core::sc_time local = end - now;
        c.qk_.set(local);
        batch_start = cyc;
        now_offset = static_cast<std::int64_t>(std::llround(end / c.clock_period())) - static_cast<std::int64_t>(cyc);
        // End the batch at the next taken branch: the thread then writes back
        // the interpreter's counters (a hart that stays blocked until the run
        // ends would otherwise report those of a batch begun long ago) and
        // sizes the next batch from the quantum now current.
        h.cycle_limit = 0;
    }

    // DMI window lookup (installing it in the inline cache) then b_transport.
    __attribute__((noinline)) bool slow_access(std::uint32_t a, void* p, unsigned size, std::uint64_t& cyc,
                                               std::uint32_t pc, bool write) {
        const std::uint32_t page = a >> 12;
        bool known_no_dmi = false;
        for (std::uint32_t np : no_dmi_pages) known_no_dmi |= np == page;
        if (!known_no_dmi) {
            if (const base::dmi_window* d = bus.dmi_for(a, size, write)) {
                install(write ? wr : rd, *d, write);
                if (write) {
                    // Through the fast path now that the window is cached.
                    switch (size) {
                    case 1: {
                        std::uint8_t v;
                        std::memcpy(&v, p, 1);
                        return store_access<std::uint8_t>(a, v, cyc, pc);
                    }
                    case 2: {
                        std::uint16_t v;
                        std::memcpy(&v, p, 2);
                        return store_access<std::uint16_t>(a, v, cyc, pc);
                    }
                    default: {
                        std::uint32_t v;
                        std::memcpy(&v, p, 4);
                        return store_access<std::uint32_t>(a, v, cyc, pc);
                    }
                    }
                }
                switch (size) {
                case 1: return load_access<std::uint8_t>(a, *static_cast<std::uint8_t*>(p), cyc, pc);
                case 2: return load_access<std::uint16_t>(a, *static_cast<std::uint16_t*>(p), cyc, pc);
                default: return load_access<std::uint32_t>(a, *static_cast<std::uint32_t*>(p), cyc, pc);
                }
            }
            no_dmi_pages[no_dmi_next++ & 7] = page;
        }
        sc_core::sc_time delay = local_time(cyc);
        const sc_core::sc_time before = delay;
        const sc_core::sc_time stamp = base::sim_time();
        bus.set_pc(pc);
        h.pc = pc;  // what a deadlock report shows if the target blocks for good
        c.in_bus_access_ = true;
        const base::burst_route* route = register_route(a, size, page);
        const auto st = route ? bus.direct(*route, write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND, a,
                                           static_cast<unsigned char*>(p), size, delay)
                        : write ? bus.write(a, p, size, delay)
                                : bus.read(a, p, size, delay);
        c.in_bus_access_ = false;
        if (__builtin_expect(base::sim_time() != stamp, 0)) {
            rebase(stamp, before, delay, cyc);
        } else {
            const std::uint32_t lat = delay > before ? to_cycles(delay - before) : 0;
            cyc += lat;
            stall_memory += lat;
        }
        if (st != tlm::TLM_OK_RESPONSE) return false;
        const int tid = bus.last_ext().traffic_id;
        const int slot = tid >= 0 && tid < base::traffic_registry::max_targets ? tid : n_targets - 1;
        ++(write ? stores : loads)[slot];
        // A peripheral may have ended the run (sim-control exit) or woken harts.
        if (svc.stop_requested()) h.cycle_limit = 0;
        return true;
    }
};

core::core(sc_core::sc_module_name nm, const cfg::config& cfg, unsigned hart_id, bool is_cluster_controller)
    : component(nm, cfg, "core"),
      bus("bus", make_id(name(), hart_id, is_cluster_controller)),
      event_wake("event_wake",
                 [this](unsigned, bool level, const sc_core::sc_time& delay) {
          // An event ends a WFI of a running hart; only fetch enable starts a parked one.
                     if (level && !parked()) wake(delay);
                 }),
      fetch_enable("fetch_enable",
                   [this](unsigned, bool level, const sc_core::sc_time& delay) {
                       if (level) wake(delay);
                   }),
      irq("irq", [this](unsigned bit, bool level, const sc_core::sc_time&) { set_irq(bit, level); }),
      boot_address("boot_address", [this](std::uint32_t a) { set_boot_address(a); }),
      awake("awake", [this] { return running(); }),
      qk_(context()),
      is_cc_(is_cluster_controller) {
    // The schema bounds cluster.workers so that every hart id fits; a larger
    // one is a platform bug, not a configuration error.
    if (hart_id >= reservation_set::max_harts)
        throw std::logic_error(fmt::format("{}: hart id {} too large", name(), hart_id));
    h_.hart_id = hart_id;
    h_.reservations = &context().shared<reservation_set>();
    cost_table& ct = h_.costs;
    ct.cpi[cc_alu] = cpi(cfg, "core.cpi_alu");
    ct.cpi[cc_mul] = cpi(cfg, "core.cpi_mul");
    ct.mulh = cpi(cfg, "core.cpi_mulh");
    ct.cpi[cc_div] = cpi(cfg, "core.cpi_div");
    ct.cpi[cc_branch] = cpi(cfg, "core.cpi_branch");
    ct.cpi[cc_jump] = cpi(cfg, "core.cpi_jump");
    ct.cpi[cc_load] = cpi(cfg, "core.cpi_load");
    ct.cpi[cc_store] = cpi(cfg, "core.cpi_store");
    ct.cpi[cc_fpu] = cpi(cfg, "core.cpi_fpu");
    ct.cpi[cc_fdiv] = cpi(cfg, "core.cpi_fdiv");
    ct.cpi[cc_amo] = cpi(cfg, "core.cpi_amo");
    const std::uint64_t taken = cfg.cycles("core.cpi_branch_taken");
    ct.branch_taken_extra = taken > ct.cpi[cc_branch] ? static_cast<std::uint32_t>(taken - ct.cpi[cc_branch]) : 0;
    h_.extensions = isa_extensions(cfg);
    {
        // The first hart of the SoC sets what the shared decode cache
        // decodes for; a hart configured otherwise keeps its own.
        struct shared_decode {
            decode_cache cache;
            bool set = false;
            cost_table costs;
            std::uint32_t extensions = 0;
        };
        shared_decode& sd = context().shared<shared_decode>();
        if (!sd.set) sd.set = true, sd.costs = h_.costs, sd.extensions = h_.extensions;
        dc_ = sd.costs == h_.costs && sd.extensions == h_.extensions ? &sd.cache : &own_dc_;
        dc_->set_code(&context().code);
    }
    stop_on_bus_error_ = cfg.choice("soc.on_bus_error") == "stop";
    watchdog_ = cfg.cycles("soc.max_cycles");

    context().shared<base::l1_bank_calendar>().init(cfg);
    context().shared<base::l2_path_calendar>().init(cfg);
    if (cfg.boolean("icache.enabled")) {
        icache& ic = context().shared<icache>();  // one per cluster: every hart shares it
        if (!ic.configured()) ic.configure(icache_params(cfg));
        h_.fetch.attach(ic);
    }
    mem_ = new bus_memory(*this, cfg.choice("core.misaligned") == "split");
    mem_->penalty = static_cast<std::uint32_t>(cfg.cycles("core.l1_bank_conflict_penalty"));
    contended_batch_ = cfg.cycles("core.contended_batch");
    sparse_batch_ = cfg.cycles("core.sparse_contended_batch");

    // time CSR: global simulated time in cycles.
    h_.time_ctx = mem_;
    h_.time_source = [](void* ctx, const hart_state& hs) {
        return hs.cycle + static_cast<std::uint64_t>(static_cast<bus_memory*>(ctx)->now_offset);
    };

    add_stat("instructions", h_.instret, "", "instructions retired");
    add_stat("cycles", h_.cycle, "cycles", "cycles executing (instructions + stalls), sleep excluded");
    add_stat("sleep_cycles", sleep_cycles_, "cycles", "cycles parked or in WFI");
    add_stat("event_wait_cycles", event_wait_cycles_, "cycles",
             "part of sleep_cycles spent blocked in a bus access (event unit wait, barrier, join)");
    add_stat("stall_memory", stall_memory_, "cycles", "load/store/AMO latency of the memory touched");
    add_stat("stall_bank_conflict", stall_bank_, "cycles", "L1 bank conflicts with other harts (approximate)");
    add_stat("stall_div", stall_div_, "cycles", "DIV/REM cycles beyond an ALU instruction");
    add_stat("stall_fdiv", stall_fdiv_, "cycles", "waits for the FPU busy with an FDIV/FSQRT");
    add_stat("stall_load_use", h_.load_use_stalls, "cycles",
             "load-use stalls: the instruction after a load read the loaded register");
    add_stat("stall_branch", stall_branch_, "cycles", "extra cycles of taken branches");
    add_stat("batches_dense", batches_dense_, "",
             "batches of at most core.contended_batch cycles (dense L1-bank or L2-path waits, or a DMA into L1 in "
             "flight), each ending in a synchronisation");
    add_stat("batches_sparse", batches_sparse_, "",
             "batches of at most core.sparse_contended_batch cycles (occasional L1-bank or L2-path waits), each "
             "ending in a synchronisation");
    add_stat("icache_hits", h_.fetch.hits, "", "instruction-cache lines entered that were present");
    add_stat("icache_misses", h_.fetch.misses, "", "instruction-cache lines entered that were refilled from L2");
    add_stat("stall_icache", h_.fetch.stall_cycles, "cycles", "instruction-cache misses (icache.miss_cycles each)");

    SC_THREAD(thread);
}

core::~core() { delete mem_; }

void core::end_of_elaboration() {
    // Memories register their traffic ids while they are built: read the names now.
    const auto& targets = context().traffic.targets();
    for (std::size_t i = 0; i < targets.size() && i < std::size_t(base::traffic_registry::max_targets); ++i) {
        add_stat("loads." + targets[i], mem_->loads[i], "", "loads (and AMO reads) served by " + targets[i]);
        add_stat("stores." + targets[i], mem_->stores[i], "", "stores (and AMO writes) served by " + targets[i]);
    }
    add_stat("loads.other", mem_->loads[bus_memory::n_targets - 1], "", "loads from targets without a traffic id");
    add_stat("stores.other", mem_->stores[bus_memory::n_targets - 1], "", "stores to targets without a traffic id");
}

std::uint64_t core::stall_memory() const { return mem_->stall_memory; }
std::uint64_t core::stall_bank_conflict() const { return mem_->stall_bank; }
std::uint64_t core::loads(int id) const {
    return mem_->loads[id >= 0 && id < base::traffic_registry::max_targets ? id : bus_memory::n_targets - 1];
}
std::uint64_t core::stores(int id) const {
    return mem_->stores[id >= 0 && id < base::traffic_registry::max_targets ? id : bus_memory::n_targets - 1];
}

void core::start() {
    h_.pc = boot_address_;
    // The boot code's decode block is made here, at load, as run() would
    // make it at the hart's first fetch: the same DMI request for the boot
    // address, the same block (decode_cache::create, which also maps the
    // host pages of its slots for all of the firmware's code). Its host cost,
    // a calloc and a madvise of the code's pages, is start-up, like the
    // loader's, not the simulation's. Decoding itself stays lazy. Without
    // DMI there (a fetch fault), nothing is made and no access is made:
    // run() reports it.
    std::uint64_t start = 0, len = 0;
    const unsigned char* host = nullptr;
    if (!dc_->find(h_.pc) && mem_->dmi_code_window(h_.pc, start, len, host)) dc_->create(h_.pc, start, len, host);
    if (state_ == run_state::parked) {
        state_ = run_state::running;
        if (simulation_started()) wake_event_.notify(sc_core::SC_ZERO_TIME);
    }
}

void core::wake(const sc_core::sc_time& delay) {
    switch (state_) {
    case run_state::parked:
        h_.pc = boot_address_;
        state_ = run_state::running;
        if (simulation_started()) wake_event_.notify(delay);
        break;
    case run_state::wfi:
        state_ = run_state::running;
        wake_event_.notify(delay);
        break;
    case run_state::running: wake_pending_ = true; break;
    case run_state::halted: break;
    }
}

void core::set_irq(unsigned bit, bool level) {
    if (bit > 31) return;
    if (level)
        h_.mip |= 1u << bit;
    else
        h_.mip &= ~(1u << bit);
    // Ends a WFI when the line is enabled (whatever mstatus.MIE says), and
    // cuts a running batch short so the interrupt is taken promptly.
    if (level && (h_.mie >> bit & 1)) {
        h_.cycle_limit = 0;
        if (state_ == run_state::wfi) wake();
    }
}

void core::set_tohost(std::uint32_t addr) {
    mem_->tohost_addr = addr;
    mem_->tohost = addr & ~7u;
}

void core::set_stack_guard(std::uint32_t floor, std::uint32_t lo, std::uint32_t hi) {
    mem_->guard_floor = floor;
    mem_->guard_span = lo - floor;
    mem_->guard_lo = lo;
    mem_->guard_hi = hi;
}

void core::set_dense(bool dense) {
    if (dense == dense_counted_) return;
    dense_counted_ = dense;
    if (dense)
        ++mem_->banks.dense_harts;
    else
        --mem_->banks.dense_harts;
}

void core::halt() {
    set_dense(false);
    if (base::activity_sink* a = context().activity; a && state_ != run_state::halted)
        a->hart_state(h_.hart_id, "halted", now_cycles());
    state_ = run_state::halted;
    update_stats();
}

std::uint64_t core::now_cycles() const {
    return cycle_of(base::sim_time() + qk_.get_local_time());
}

void core::update_stats() {
    const cost_table& ct = h_.costs;
    stall_memory_ = mem_->stall_memory;
    stall_bank_ = mem_->stall_bank;
    stall_div_ =
        h_.div_ops * (ct.cpi[cc_div] > ct.cpi[cc_alu] ? ct.cpi[cc_div] - ct.cpi[cc_alu] : 0) + h_.div_extra_cycles;
    stall_fdiv_ = h_.fpu_wait_cycles;
    stall_branch_ = h_.taken_branches * ct.branch_taken_extra;
}

bool core::handle_exception() {
    auto& sim = services();
    const std::uint32_t cause = h_.exc_cause, tval = h_.exc_tval;
    // A run this exception ends, ends at the faulting instruction: the
    // hart's local time, ahead of SystemC's (it used to end at the hart's
    // last synchronisation: a store faulting at cycle 4601 after a join
    // reported a 4399-cycle run).
    const bool was_stopped = sim.stop_requested();
    const auto stop_here = [&] {
        if (!was_stopped && sim.stop_requested()) sim.stop_time_at_least(base::sim_time() + qk_.get_local_time());
    };
    // No handler: mtvec still holds its reset value 0.
    const bool no_handler = h_.mtvec == 0;
    // A debugger sees every synchronous exception but environment calls at
    // the faulting instruction, before the handler (or the report) runs.
    const bool debug_stop = debug_ && cause != cause_ecall_u && cause != cause_ecall_m;
    if (cause != cause_ecall_u && cause != cause_ecall_m) record_fault(h_.pc);
    if (h_.exc_from_bus && (stop_on_bus_error_ || no_handler)) {
        base::bus_error_info e;
        e.who = &bus.who();
        e.pc = h_.pc;
        e.has_pc = true;
        e.address = tval;
        e.size = h_.exc_size;
        e.is_write = cause == cause_store_access;
        e.is_fetch = cause == cause_fetch_access;
        sim.bus_error(e);
        if (debug_stop) debug_->stopped(*this, sim.stop_reason());
        stop_here();
        halt();
        return false;
    }
    if (debug_stop) debug_->stopped(*this, describe_trap(h_, cause, h_.pc, tval));
    // A trap as the reports name it: what, where, and the symbol there.
    auto trap_text = [&](std::uint32_t c, std::uint32_t pc, std::uint32_t v) {
        const std::string where = sim.symbol_of(pc);
        return describe_trap(h_, c, pc, v) + (where.empty() ? "" : " (" + where + ")");
    };
    if (no_handler) {
        sim.request_stop(base::exit_code::unhandled_trap,
                         trap_text(cause, h_.pc, tval) + ", no trap handler installed (mtvec = 0)");
        stop_here();
        halt();
        return false;
    }
    if (h_.pc == last_trap_pc_ && h_.instret == last_trap_instret_) {
        // Nothing retired since the last trap, taken at this same pc: the
        // handler traps before it can run (a loop no state change ends).
        const std::string first =
            chain_trap_pc_ != h_.pc
                ? "; it began with " + trap_text(chain_trap_cause_, chain_trap_pc_, chain_trap_tval_)
                : std::string();
        sim.request_stop(base::exit_code::unhandled_trap,
                         trap_text(cause, h_.pc, tval) +
                             fmt::format(", taken again at the same pc with no instruction retired since the last "
                                         "trap: the trap handler at mtvec {:#010x} cannot run{}{}",
                                         h_.mtvec, cause == cause_illegal && !(h_.extensions & ext_c)
                                                       ? " (compressed code on cores without `c`? "
                                                         "core.isa_extensions)"
                                                       : "",
                                         first));
        stop_here();
        halt();
        return false;
    }
    trap_snapshot now;
    now.pc = h_.pc;
    now.cause = cause;
    now.tval = tval;
    std::memcpy(now.x, h_.x, sizeof now.x);
    std::memcpy(now.f, h_.f, sizeof now.f);
    // Counted only when the trap came straight back: taken at the pc the
    // handler's mret returned to, with no instruction retired since. A loop
    // that traps at the same place from the same registers but gets past
    // it each time (a yield by ecall while polling memory; trap-and-emulate)
    // returns elsewhere.
    const bool straight_back = h_.pc == mret_pc_ && h_.instret == mret_instret_;
    identical_traps_ = straight_back && now == last_trap_state_ ? identical_traps_ + 1 : 0;
    last_trap_state_ = now;
    if (identical_traps_ + 1 >= identical_traps_limit) {
        sim.request_stop(base::exit_code::unhandled_trap,
                         trap_text(cause, h_.pc, tval) +
                             fmt::format(", taken {} times in a row from the same state (every register the same): "
                                         "the trap handler at mtvec {:#010x} returns to the instruction that "
                                         "trapped without changing what made it trap (mepc not advanced?)",
                                         identical_traps_limit, h_.mtvec));
        stop_here();
        halt();
        return false;
    }
    if (h_.instret != last_trap_instret_) {
        chain_trap_pc_ = h_.pc;
        chain_trap_cause_ = cause;
        chain_trap_tval_ = tval;
    }
    last_trap_pc_ = h_.pc;
    last_trap_instret_ = h_.instret;
    NPU_LOG(log(), debug, "{}, trap to {:#010x}", describe_trap(h_, cause, h_.pc, tval), h_.mtvec);
    enter_trap(h_, cause, tval);
    // The fault's snapshot keeps the registers and pc of the faulting
    // instruction but takes the trap CSRs as the trap set them: a handler
    // that then reports the trap unhandled (the runtime's default, exit 7)
    // prints them beside its mcause/mepc/mtval, which must agree.
    if (cause != cause_ecall_u && cause != cause_ecall_m) {
        fault_state_.mcause = h_.mcause;
        fault_state_.mepc = h_.mepc;
        fault_state_.mtval = h_.mtval;
        fault_state_.mstatus = h_.mstatus;
    }
    return true;
}

bool core::trap_snapshot::operator==(const trap_snapshot& o) const {
    return pc == o.pc && cause == o.cause && tval == o.tval && std::memcmp(x, o.x, sizeof x) == 0 &&
           std::memcmp(f, o.f, sizeof f) == 0;
}

namespace {
// Numbers the faults of one SoC's harts (one per sim_context).
struct fault_counter {
    std::uint64_t n = 0;
};
}  // namespace

void core::confirm_watched_store() {
    watched_store& p = watched_store_;
    p.pending = false;
    auto& svc = services();
    base::buffer_use mine;
    mine.spans.push_back({p.addr, std::uint64_t{p.addr} + p.size, true, "store"});
    const int hart = h_.hart_id;
    const std::string role = mem_->bus.who().role, name = mem_->bus.who().name;
    mine.describe = [&] {
        return fmt::format("store of {} byte{} by hart {} ({}, {}) at pc 0x{:08x}", p.size, p.size == 1 ? "" : "s",
                           hart, role, name, p.pc);
    };
    auto m = svc.buffer_write_conflict(mine, p.at);
    if (!m) return;  // the transfer had ended by the store's time
    m->who = &mem_->bus.who();
    m->pc = p.pc;
    m->has_pc = true;
    const bool was_stopped = svc.stop_requested();
    svc.memcheck_finding(*m);
    if (!was_stopped && svc.stop_requested()) {
        svc.stop_time_at_least(p.at);
        fault_state_ = p.regs;
        fault_serial_ = ++context().shared<fault_counter>().n;
        if (debug_) debug_fault_ = fmt::format("{} (the store at pc {:#010x})", svc.stop_reason(), p.pc);
    }
}

// Faults are rare: a copy of the whole state each costs nothing that matters.
void core::record_fault(std::uint32_t pc) {
    fault_state_ = h_;
    fault_state_.pc = pc;
    fault_serial_ = ++context().shared<fault_counter>().n;
}

std::uint64_t core::batch_budget(const sc_core::sc_time& now) const {
    // Cycles to the end of the current quantum (sc_time is unsigned: a local
    // time already past the boundary gives the minimum batch).
    const sc_core::sc_time to_boundary = context().compute_local_quantum(now);
    const sc_core::sc_time local = qk_.get_local_time();
    const std::uint64_t budget =
        to_boundary > local ? static_cast<std::uint64_t>((to_boundary - local) / clock_period()) : 0;
    return budget ? budget : 1;
}

bool core::alone_now(const base::sim_services& sim) {
    return !sim.stop_requested() && !sc_core::sc_pending_activity_at_current_time();
}

void core::thread() {
    auto& sim = services();
    qk_.reset();
    while (state_ == run_state::parked) {
        const sc_core::sc_time t0 = base::sim_time();
        sc_core::wait(wake_event_);
        sleep_cycles_ += static_cast<std::uint64_t>((base::sim_time() - t0) / clock_period());
    }
    qk_.reset();
    // Awake from here until it halts or sleeps (sim_context::harts_awake).
    unsigned& awake = context().harts_awake;
    ++awake;
    struct asleep_on_exit {
        unsigned& n;
        ~asleep_on_exit() { --n; }
    } on_exit{awake};
    if (base::activity_sink* a = context().activity) a->hart_state(h_.hart_id, "running", now_cycles());
    // SystemC time, carried from batch to batch instead of read (a library
    // call) several times per batch: only a wait changes it — in a bus access
    // of the batch, in the sync after it, or in a WFI — and each of those
    // reads it anew or knows it.
    sc_core::sc_time stamp = base::sim_time();
    for (;;) {
        if (sim.stop_requested() || state_ == run_state::halted) {
            halt();
            return;
        }
        if (const std::uint32_t irq = pending_interrupt(h_)) enter_trap(h_, irq, 0);
        // Run to the end of the current quantum.
        // A hart that waited for an L1 bank or the L2 path lately runs short batches and
        // synchronises after each, so contending harts take turns in time
        // order instead of a quantum each (base/slot_calendar.h): 128-cycle
        // ones (core.contended_batch) while its waits are dense, 1024-cycle
        // ones (core.sparse_contended_batch) while they are occasional (core.h).
        // Every hart runs the short ones while a DMA transfer into L1 is in
        // flight (l1_bank_calendar::dma_streams).
        const bool dma_in_flight = mem_->banks.dma_streams != 0;
        const bool dense = contended_batches_ || dma_in_flight || mem_->banks.dense_harts;
        batches_dense_ += dense;
        batches_sparse_ += !dense && sparse_batches_;
        const std::uint64_t budget = dense ? std::min<std::uint64_t>(batch_budget(stamp), contended_batch_)
                                     : sparse_batches_ ? std::min<std::uint64_t>(batch_budget(stamp), sparse_batch_)
                                                       : batch_budget(stamp);
        const std::uint64_t stall_before = mem_->arbitration_stall;
        mem_->batch_start = h_.cycle;
        mem_->now_offset = static_cast<std::int64_t>(cycle_of(stamp + qk_.get_local_time())) -
                           static_cast<std::int64_t>(h_.cycle);
        h_.cycle_limit = h_.cycle + budget;
        // The watchdog stops the hart at the first instruction boundary at or
        // after soc.max_cycles (global cycles = h_.cycle + now_offset),
        // whatever the quantum: the batch it falls in runs in the interpreter's
        // per-instruction-checking variant, every other one at full speed.
        std::uint64_t exact_limit = UINT64_MAX;
        if (watchdog_) {
            const std::int64_t now = static_cast<std::int64_t>(h_.cycle) + mem_->now_offset;
            const std::uint64_t left = now >= 0 && static_cast<std::uint64_t>(now) >= watchdog_
                                           ? 0
                                           : watchdog_ - static_cast<std::uint64_t>(std::max<std::int64_t>(now, 0));
            if (!left) {
                // Reached: this hart stays where it is until the kernel
                // stops at the watchdog time (platform::soc::run_together).
                update_stats();
                qk_.sync();
                for (;;) sc_core::wait(wake_event_);
            }
            if (left <= budget) exact_limit = h_.cycle + left;
        }
        dc_->enter();
        const stop s = debug_ || observer_ || log().enabled(base::log_level::trace)
                           ? run<bus_memory, true>(h_, *mem_, *dc_, exact_limit)
                       : exact_limit != UINT64_MAX ? run<bus_memory, false, true>(h_, *mem_, *dc_, exact_limit)
                                                   : run(h_, *mem_, *dc_);
        dc_->leave();
        if (observer_) observer_->after(*this, s == stop::exception);
        qk_.inc(cycles(h_.cycle - mem_->batch_start));
        if (mem_->arbitration_stall != stall_before) {
            sparse_batches_ = contended_batches_sticky;
            if ((mem_->arbitration_stall - stall_before) * dense_stall_share >= h_.cycle - mem_->batch_start)
                contended_batches_ = contended_batches_sticky;
            else if (contended_batches_)
                --contended_batches_;
        } else {
            if (contended_batches_) --contended_batches_;
            if (sparse_batches_) --sparse_batches_;
        }
        set_dense(contended_batches_ != 0);
        if (base::activity_sink* a = context().activity) {
            const std::uint64_t stall = mem_->stall_memory + mem_->stall_bank;
            a->hart_stall(h_.hart_id, now_cycles(), h_.cycle - mem_->batch_start, stall - traced_stall_);
            traced_stall_ = stall;
        }
        if (__builtin_expect(watched_store_.pending, 0)) {
            // Caught up with SystemC time first: a transfer that had ended
            // by the store's time has then said so (its busy bit).
            update_stats();
            stamp = qk_.sync_from(stamp);
            confirm_watched_store();
        }
        if (__builtin_expect(memcheck_fault_, 0)) {
            memcheck_fault_ = false;
            std::copy(std::begin(h_.branch_ring), std::end(h_.branch_ring), std::begin(fault_state_.branch_ring));
            // A batch cut short ends at the first taken branch after the load: not part of the fault's past.
            if (s == stop::limit && h_.branch_count) {
                // Its slot held the oldest entry: that one is gone (0: none).
                fault_state_.branch_count = h_.branch_count - 1;
                fault_state_.branch_ring[fault_state_.branch_count % hart_state::branch_ring_size] = 0;
            } else {
                fault_state_.branch_count = h_.branch_count;
            }
        }
        if (debug_) debug_->poll();
        switch (s) {
        case stop::limit:
        case stop::watchdog: break;
        case stop::resync:
            // Where an mret returned, and the instructions retired then (the
            // interpreter ends its run at mret): a trap there with none
            // retired since came straight back (handle_exception).
            if (h_.mret_pending) {
                h_.mret_pending = false;
                mret_pc_ = h_.pc;
                mret_instret_ = h_.instret;
            }
            break;
        case stop::debug: {
            update_stats();
            const std::string fault = std::move(debug_fault_);
            debug_fault_.clear();
            debug_->stopped(*this, fault);
            break;
        }
        case stop::exception:
            if (!handle_exception()) return;
            break;
        case stop::wfi:
            if (wake_pending_ || (h_.mip & h_.mie)) {
                wake_pending_ = false;
                break;
            }
            update_stats();
            // Asleep from now on: a wake() arriving while the local time is
            // synchronised must end this WFI, not be lost.
            state_ = run_state::wfi;
            qk_.sync();
            if (base::activity_sink* a = context().activity) a->hart_state(h_.hart_id, "wfi", now_cycles());
            {
                const sc_core::sc_time t0 = base::sim_time();
                --awake;
                set_dense(false);  // asleep, it contends with nobody
                while (state_ == run_state::wfi) sc_core::wait(wake_event_);
                ++awake;
                sleep_cycles_ += static_cast<std::uint64_t>((base::sim_time() - t0) / clock_period());
            }
            wake_pending_ = false;
            qk_.reset();
            if (base::activity_sink* a = context().activity) a->hart_state(h_.hart_id, "running", now_cycles());
            stamp = base::sim_time();
            continue;
        }
        stamp = base::sim_time();  // a bus access of the batch may have waited
        if (qk_.need_sync_at(stamp) || contended_batches_ || sparse_batches_ || dma_in_flight ||
            mem_->banks.dense_harts) {
            update_stats();
            stamp = qk_.sync_from(stamp);
            // Harts resuming at the same time take their turns in hart-id
            // order, one delta cycle each: who books the L1 banks first then
            // does not depend on the kernel's order of simultaneous wake-ups
            // (which changes with unrelated processes, e.g. another SoC's).
            // A hart with nothing else left to happen at this time (no other
            // process runnable, no delta notification or update pending)
            // starts its turn at once: the delta cycles it would wait through
            // would run nothing but its own wake-ups, so every process runs in
            // the same order as with the full wait (only the kernel's delta
            // count differs). Not after a stop request: sc_stop() ends the run
            // after the current delta cycle, before the hart's turn.
            for (unsigned k = h_.hart_id; k && !alone_now(sim); --k) sc_core::wait(sc_core::SC_ZERO_TIME);
        }
    }
}

}  // namespace npu::cpu
