#include "report.h"

#include "energy.h"

#include "cpu/core.h"
#include "periph/soc_periph.h"

#include "base/component.h"
#include "base/sim_services.h"

#include <fmt/format.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdio>

namespace npu::platform {

namespace {

// A finding's kind as the findings summary names it; `engine`: found for a
// DMA channel or the SA (no hart).
const char* summary_name(base::memcheck_info::kind_t k, bool engine) {
    using kind_t = base::memcheck_info::kind_t;
    switch (k) {
    case kind_t::invalid_free: return "invalid free,";
    case kind_t::heap_overflow: return "heap overflow (a block's header or padding),";
    case kind_t::freed_store: return engine ? "write into a freed heap block," : "store into a freed heap block,";
    case kind_t::buffer_in_use: return "write into a buffer in use,";
    case kind_t::stack_crossing: return "DMA write across a stack's bound,";
    case kind_t::stack_overflow: return "stack overflow,";
    case kind_t::sa_result_read: return "read before the SA job ended";
    case kind_t::dma_destination_read: return "read before the DMA wrote";
    case kind_t::zeroed_read: return "read never loaded";
    case kind_t::unwritten_read: return "read unwritten";
    }
    return "";
}

std::string who_text(const base::initiator_id* w) {
    if (!w) return "unknown initiator";
    if (w->hart >= 0) return fmt::format("{} (hart {}, {})", w->name, w->hart, w->role);
    return fmt::format("{} ({})", w->name, w->role);
}

std::string pc_text(const base::sim_services& svc, std::uint64_t pc) {
    std::string sym = svc.symbol_of(pc);
    return fmt::format("0x{:08x}{}", pc, sym.empty() ? "" : " <" + sym + ">");
}

// region_stats::counters as sample_in_regions() in the constructor lays them out.
std::uint64_t counter(const periph::soc_periph::region_stats& g, std::size_t i) {
    return i < g.counters.size() ? g.counters[i] : 0;
}
std::uint64_t region_worker_cycles(const periph::soc_periph::region_stats& g) { return counter(g, 0); }
std::uint64_t region_read_bytes(const periph::soc_periph::region_stats& g, std::size_t target) {
    return counter(g, 1 + target);
}
std::uint64_t region_write_bytes(const periph::soc_periph::region_stats& g, std::size_t target, std::size_t n) {
    return counter(g, 1 + n + target);
}
// Workers busy (executing, not asleep) over the region, all workers together.
double worker_utilisation(const soc& s, const periph::soc_periph::region_stats& g) {
    const std::size_t workers = s.cores().size() > 1 ? s.cores().size() - 1 : 0;
    if (!workers || !g.cycles) return 0.0;
    return 100.0 * static_cast<double>(region_worker_cycles(g)) /
           (static_cast<double>(workers) * static_cast<double>(g.cycles));
}

}  // namespace

report::report(const cfg::config& cfg, soc& s) : cfg_(cfg), svc_(s.context().services) {
    // Per region: the workers' executing cycles, then the bytes every
    // initiator read from each memory level, then those written (the layout
    // region_counter_* below reads).
    s.sample_in_regions([&s] {
        const std::size_t n = s.context().traffic.targets().size();
        std::vector<std::uint64_t> v(1 + 2 * n);
        for (std::size_t h = 0; h + 1 < s.cores().size(); ++h) v[0] += s.cores()[h]->state().cycle;
        for (const auto* i : s.initiators())
            for (std::size_t t = 0; t < n; ++t) {
                v[1 + t] += i->traffic().read_bytes[t];
                v[1 + n + t] += i->traffic().write_bytes[t];
            }
        return v;
    });
    auto& svc = svc_;
    svc.on_bus_error = [this](const base::bus_error_info& e) {
        bus_errors_.push_back(format_bus_error(e));
        std::fputs(bus_errors_.back().c_str(), stderr);
        std::fflush(stderr);
    };
    svc.on_memcheck = [this](const base::memcheck_info& m) {
        if (merge_memcheck(m)) return svc_.memcheck_stops();
        ++memcheck_count_;
        if (memcheck_.size() < memcheck_limit_) {
            memcheck_.push_back(format_memcheck(m));
            std::fputs(memcheck_.back().c_str(), stderr);
        }
        return svc_.memcheck_stops();
    };
}

namespace {
// "1 byte", "4 bytes".
std::string bytes_text(std::uint64_t n) { return fmt::format("{} byte{}", n, n == 1 ? "" : "s"); }
}  // namespace

std::string report::self_check_failure(const soc& s) {
    const auto& periph = s.soc_periph();
    if (periph.stray_errors() || periph.stray_compared())
        return fmt::format("self-check: {} element{} and {} error{} reported while no check was open (after "
                           "npu_check_end, or before npu_check_begin): a comparison no check counts",
                           periph.stray_compared(), periph.stray_compared() == 1 ? "" : "s", periph.stray_errors(),
                           periph.stray_errors() == 1 ? "" : "s");
    if (!periph.nested_begin().empty())
        return fmt::format("self-check {}: one check is open at a time (npu_check_end the first)",
                           periph.nested_begin());
    if (periph.stray_ends())
        return fmt::format("self-check: npu_check_end called {} time{} with no check open: a harness that lost "
                           "track of its checks",
                           periph.stray_ends(), periph.stray_ends() == 1 ? "" : "s");
    for (const auto& c : periph.self_checks()) {
        if (c.compared == 0)
            return fmt::format(
                "self-check '{}' compared zero elements (declared {}): a check that compares nothing is "
                "a failure",
                c.name, c.expected);
        if (c.compared < c.expected)
            return fmt::format("self-check '{}' compared only {} of the {} elements it declared", c.name, c.compared,
                               c.expected);
        // More than declared: the declaration or the comparison loop is wrong
        // (a loop over the wrong bound, elements counted twice).
        if (c.compared > c.expected)
            return fmt::format("self-check '{}' compared {} elements, more than the {} it declared", c.name,
                               c.compared, c.expected);
        if (!c.ended) return fmt::format("self-check '{}' never ended (npu_check_end)", c.name);
        // Called for a run that exits 0 only: the harness counted mismatches
        // and still reported success (its verdict ignores its own count).
        if (c.errors)
            return fmt::format("self-check '{}' found {} error{} in {} elements, but the firmware exited 0", c.name,
                               c.errors, c.errors == 1 ? "" : "s", c.compared);
    }
    return "";
}

bool report::merge_memcheck(const base::memcheck_info& m) {
    // A heap overflow's range starts at its first byte past the block.
    const std::uint64_t first = m.size && !m.heap_overflow ? m.access : m.address,
                        end = (m.size ? m.access : m.address) + std::max(m.size, 1u);
    const std::uint64_t bytes = std::max(m.unwritten, 1u);
    // Newest first: a buffer is usually read in order. Whose result an
    // in-flight read met (the SA's or a DMA transfer's) is asked once per
    // range, not per access: the range's first access decided it.
    using kind_t = base::memcheck_info::kind_t;
    const auto unresolved = [](kind_t k) { return k == kind_t::sa_result_read ? kind_t::dma_destination_read : k; };
    const kind_t kind = m.kind(false);
    for (auto r = ranges_.rbegin(); r != ranges_.rend(); ++r) {
        if (r->who != m.who || r->pc != m.pc || r->has_pc != m.has_pc || unresolved(r->kind) != kind ||
            first > r->end || end < r->first)
            continue;
        r->first = std::min(r->first, first);
        r->end = std::max(r->end, end);
        r->bytes += bytes;
        ++r->accesses;
        return true;
    }
    const bool sa =
        m.in_flight && svc_.describe_in_flight && svc_.describe_in_flight(m.address).rfind("systolic array", 0) == 0;
    ranges_.push_back({m.who, m.pc, m.has_pc, m.kind(sa), first, end, bytes, 1,
                       m.heap_overflow && svc_.heap_redzone ? svc_.heap_redzone(m.address) : svc_.symbol_of(first)});
    return false;
}

std::string report::format_bus_error(const base::bus_error_info& e) const {
    const char* kind = e.is_fetch ? "instruction fetch" : e.is_write ? "store" : "load";
    std::string decode = svc_.describe_address ? svc_.describe_address(e.who ? e.who->cls : 0, e.address) : "";
    // A symbol only means something for an address that is mapped.
    std::string sym = decode.rfind("unmapped", 0) == 0 ? "" : svc_.symbol_of(e.address);
    // An access whose first byte is mapped but not its last (a burst over
    // a memory's end): the first byte's region alone read as a valid address.
    if (svc_.describe_address && e.size > 1 && decode.rfind("mapped: ", 0) == 0) {
        const auto region = [](const std::string& d) { return d.substr(0, d.find(" + ")); };
        const auto at = [&](std::uint64_t a) { return svc_.describe_address(e.who ? e.who->cls : 0, a); };
        const std::uint64_t last = e.address + e.size - 1;
        if (region(at(last)) != region(decode)) {
            std::uint64_t out = e.address + 1;
            while (out < last && region(at(out)) == region(decode)) ++out;
            decode += fmt::format(", but the {}-byte access runs {} byte{} past its end (from 0x{:08x})", e.size,
                                  last - out + 1, last == out ? "" : "s", out);
        }
    }
    std::string out = e.refused ? "*** bus error: DMA push refused ***\n" : "*** bus error ***\n";
    out += fmt::format("  initiator : {}\n", who_text(e.who));
    if (e.refused)
        out += fmt::format("  access    : none, refused at the push (its source: 0x{:08x}, rows of {})\n", e.address,
                           bytes_text(e.size));
    else
        out += fmt::format("  access    : {} of {} at 0x{:08x}\n", kind, bytes_text(e.size), e.address);
    if (e.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, e.pc));
    out += fmt::format("  address   : {}\n", decode);
    if (!sym.empty()) out += fmt::format("  symbol    : {}\n", sym);
    if (e.who && e.who->hart >= 0 && svc_.stack_overflow_note)
        if (const std::string note = svc_.stack_overflow_note(e.who->hart); !note.empty())
            out += fmt::format("  stack     : {}\n", note);
    if (svc_.describe_register && !e.is_fetch)
        if (std::string why = svc_.describe_register(e.who ? e.who->cls : 0, e.address, e.is_write); !why.empty())
            out += fmt::format("  register  : {}\n", why);
    if (!e.context.empty()) out += e.context + (e.context.back() == '\n' ? "" : "\n");
    return out;
}

std::string report::format_stack_overflow(const base::memcheck_info& m) const {
    // A DMA transfer (m.context names it) into or out of the part of its
    // pusher's stack that overflowed: the pusher's sp and stack.
    const bool dma = m.who && m.who->hart < 0;
    const char* kind = m.is_write ? "store" : "load";
    std::string out =
        fmt::format("*** memcheck: stack overflow: {} below the stack limit ***\n",
                    dma ? (m.is_write ? "DMA destination" : "DMA source") : kind);
    out += fmt::format("  initiator : {}\n", who_text(m.who));
    out += fmt::format("  access    : {} of {} at 0x{:08x}\n", dma ? (m.is_write ? "write" : "read") : kind,
                       bytes_text(m.size), m.access);
    if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
    out += m.context;
    out += fmt::format("  sp        : 0x{:08x}{} ({} bytes below the stack limit)\n", m.sp, dma ? ", the pusher's" : "",
                       m.stack_lo - m.sp);
    out += fmt::format("  stack     : [0x{:08x}, 0x{:08x}) ({} bytes, firmware.stack_size)\n", m.stack_lo,
                       m.stack_hi, m.stack_hi - m.stack_lo);
    // What the overflowed stack clobbers: a neighbour's stack, or the data below the stacks.
    std::string there = svc_.describe_stack ? svc_.describe_stack(m.access) : std::string();
    if (there.empty()) {
        const std::string sym = svc_.symbol_of(m.access);
        const std::string region = svc_.describe_address ? svc_.describe_address(m.who ? m.who->cls : 0, m.access) : "";
        there = sym.empty() ? region : "<" + sym + ">" + (region.empty() ? "" : ", " + region);
    }
    if (!there.empty()) out += fmt::format("  there     : {}\n", there);
    out +=
        "  hint      : the hart's stack grew past its limit: use less stack (large local arrays, deep call "
        "chains) or raise firmware.stack_size\n";
    return out;
}

std::string report::format_buffer_in_use(const base::memcheck_info& m) const {
    const std::string sym = svc_.symbol_of(m.address);
    std::string out = "*** memcheck: write into a buffer in use ***\n";
    out += fmt::format("  initiator : {}\n", who_text(m.who));
    out += fmt::format("  overlap   : {} at 0x{:08x}{}\n", bytes_text(m.size), m.address,
                       sym.empty() ? "" : " <" + sym + ">");
    if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
    out += m.context;
    out +=
        "  hint      : wait for the transfer or job (npu_dma_wait, npu_sa_wait) before reusing its buffer, or "
        "make the buffers (e.g. ping and pong) disjoint\n";
    return out;
}

std::string report::format_stack_crossing(const base::memcheck_info& m) const {
    const std::string sym = svc_.symbol_of(m.access);
    std::string out = "*** memcheck: DMA destination crosses a stack's bound ***\n";
    out += fmt::format("  initiator : {}\n", who_text(m.who));
    out += fmt::format("  row       : {} bytes at 0x{:08x}{}\n", m.size, m.access, sym.empty() ? "" : " <" + sym + ">");
    if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
    out += m.context;
    out +=
        "  hint      : a buffer on a stack lies wholly inside it: a destination that runs across a stack's bound "
        "overruns its own buffer (its size, a tile count, an allocation too small)\n";
    return out;
}

std::string report::format_memcheck(const base::memcheck_info& m) const {
    if (m.double_free) {
        const std::string sym = svc_.symbol_of(m.address);
        std::string out = "*** memcheck: invalid free: the pointer starts no allocated block ***\n";
        out += fmt::format("  initiator : {}\n", who_text(m.who));
        out += fmt::format("  pointer   : 0x{:08x}{}\n", m.address, sym.empty() ? "" : " <" + sym + ">");
        if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
        out += m.context;
        out += "  hint      : npu_l1_free takes a pointer npu_l1_malloc returned, once: a block freed twice "
               "(its memory may be another block's by now) or a pointer into a block\n";
        return out;
    }
    if (m.heap_overflow) {
        // No symbol on the access: the bytes are no block's (a freed block's
        // name may still cover them); the block line says whose they guard.
        // An engine's: a DMA transfer's destination row or an SA job's C row
        // (at the push or start), or the bytes a DMA burst or an SA operand
        // row reads; a core's: its store or load.
        const bool engine = m.who && m.who->hart < 0;
        std::string out = fmt::format("*** memcheck: heap overflow: {} a heap block's header or padding ***\n",
                                      base::heap_overflow_access(m));
        out += fmt::format("  initiator : {}\n", who_text(m.who));
        out += fmt::format("  {}: {}{} at 0x{:08x}{}\n", engine && m.is_write ? "row       " : "access    ",
                           engine ? (m.is_write ? "" : "read of ") : m.is_write ? "store of " : "load of ",
                           bytes_text(m.size), m.access,
                           m.address == m.access ? std::string()
                                                 : fmt::format(", header or padding from 0x{:08x}", m.address));
        if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
        out += m.context;
        out += m.is_write ? "  hint      : npu_l1_malloc's blocks sit next to each other, each after a 4-byte header: "
                            "a store past a block's requested size (a count or an index one too large, an "
                            "allocation too small) overwrites the next header, and the allocator's list with it\n"
                          : "  hint      : npu_l1_malloc's blocks sit next to each other, each after a 4-byte header: "
                            "a read past a block's requested size (a count or a length one too large, a tile "
                            "larger than its buffer) reads the next header or padding, not the program's data\n";
        return out;
    }
    if (m.freed_store) {
        const std::string sym = svc_.symbol_of(m.address);
        const bool engine = m.who && m.who->hart < 0;  // a DMA transfer's destination, at its push
        std::string out = engine ? "*** memcheck: destination in a freed heap block ***\n"
                                 : "*** memcheck: store into a freed heap block ***\n";
        out += fmt::format("  initiator : {}\n", who_text(m.who));
        if (engine)
            out += fmt::format("  row       : {} at 0x{:08x}, first freed byte 0x{:08x}{}\n", bytes_text(m.size),
                               m.access, m.address, sym.empty() ? "" : " <" + sym + ">");
        else
            out += fmt::format("  access    : store of {} at 0x{:08x}{}\n", bytes_text(m.size), m.access,
                               sym.empty() ? "" : " <" + sym + ">");
        if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
        out += m.context;
        out += "  hint      : a pointer into a block npu_l1_free freed: the block's memory goes to the next "
               "npu_l1_malloc, whose data this write would overwrite; free the block after its last use\n";
        return out;
    }
    if (m.stack_crossing) return format_stack_crossing(m);
    if (m.stack_overflow) return format_stack_overflow(m);
    if (m.in_use) return format_buffer_in_use(m);
    std::string sym = svc_.symbol_of(m.address);
    // In flight: a DMA transfer's destination, or a running SA job's C.
    const std::string in_flight =
        m.in_flight && svc_.describe_in_flight ? svc_.describe_in_flight(m.address) : std::string();
    const bool sa = in_flight.rfind("systolic array", 0) == 0;
    std::string out = fmt::format("*** memcheck: {} ***\n  initiator : {}\n",
                                  sa              ? "read of a systolic-array result before the job ended"
                                  : m.in_flight   ? "read of a DMA destination before the transfer wrote it"
                                  : m.zeroed_only ? "read of data never loaded (only zeroed at startup)"
                                                  : "read of never-written memory",
                                  who_text(m.who));
    out +=
        fmt::format("  access    : load of {}, first {} byte 0x{:08x}{}\n", bytes_text(m.size),
                    m.in_flight ? "not yet transferred" : "unwritten", m.address, sym.empty() ? "" : " <" + sym + ">");
    if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(svc_, m.pc));
    // An engine's read (a DMA channel's): where the firmware programmed it.
    if (const std::string c = svc_.engine_caller ? svc_.engine_caller(m.who) : ""; !c.empty())
        out += fmt::format("  caller    : {}\n", c);
    if (sa) {
        out += fmt::format("  sa        : {}\n", in_flight);
        out += "  hint      : wait for the job (npu_sa_wait) before reading its result\n";
    } else if (m.in_flight) {
        out += fmt::format("  dma       : {}\n", in_flight.empty() ? "a transfer in flight" : in_flight);
        out += "  hint      : wait for the transfer (npu_dma_wait) before reading its destination\n";
    }
    if (m.zeroed_only)
        out +=
            "  hint      : .bss is zeroed by crt0, never loaded: load the data (or initialise it in the "
            "declaration) before it is read as data (--memcheck=strict)\n";
    return out;
}

namespace {

// Per hart: the lines each hart entered in the cluster's shared instruction
// cache (icache.enabled; docs/cores.md, "Instruction fetch").
std::string icache_table(const soc& s, const cfg::config& c) {
    if (!c.boolean("icache.enabled")) return {};
    std::string o = fmt::format("\ninstruction cache (shared, {} B, {}-way, {} B lines)\n", c.size("icache.size"),
                                c.count("icache.ways"), c.size("icache.line_bytes"));
    o += fmt::format("  {:<6} {:>14} {:>14} {:>14}\n", "hart", "hits", "misses", "stall cycles");
    for (std::size_t h = 0; h < s.cores().size(); ++h) {
        const auto& f = s.cores()[h]->state().fetch;
        if (f.hits | f.misses) o += fmt::format("  {:<6} {:>14} {:>14} {:>14}\n", h, f.hits, f.misses, f.stall_cycles);
    }
    return o;
}

// The clock as given, never rounded to 0: "370 MHz", "370.5 MHz", "1 kHz",
// "1.5 kHz", "999 Hz" (the unit the value reaches, up to 6 decimals).
std::string clock_text(std::uint64_t hz) {
    const char* unit = hz >= 1000000 ? "MHz" : hz >= 1000 ? "kHz" : "Hz";
    const double scale = hz >= 1000000 ? 1e6 : hz >= 1000 ? 1e3 : 1.0;
    std::string v = fmt::format("{:.6f}", static_cast<double>(hz) / scale);
    while (v.back() == '0') v.pop_back();
    if (v.back() == '.') v.pop_back();
    return v + " " + unit;
}

// The status a report names: the exit code's, but a deadlock (exit code 5,
// like the watchdog) is named as such.
const char* status_name(const run_result& r) {
    if (r.code == base::exit_code::watchdog && r.reason.rfind("deadlock", 0) == 0) return "deadlock";
    return base::exit_code_name(r.code);
}

}  // namespace

std::string report::summary(const soc& s, const run_result& r) const {
    std::string o = "\n=== npusim report ===\n";
    o += fmt::format("status   : {} (exit code {}) — {}\n", status_name(r), static_cast<int>(r.code),
                     r.reason);
    const std::uint64_t hz = cfg_.frequency_hz("soc.cluster_clock");
    const double mhz = static_cast<double>(hz) / 1e6;
    o += fmt::format("cycles   : {} @ {} = {:.3f} us simulated, {:.3f} s host\n", r.cycles, clock_text(hz),
                     static_cast<double>(r.cycles) / mhz, r.host_seconds);

    o += "\ncores\n";
    o += fmt::format("  {:<6} {:<20} {:>14} {:>14} {:>6}\n", "hart", "role", "instructions", "cycles", "IPC");
    std::uint64_t total_instr = 0;
    for (std::size_t h = 0; h < s.cores().size(); ++h) {
        const auto& c = *s.cores()[h];
        const std::uint64_t instr = c.instret(), cyc = c.state().cycle;
        total_instr += instr;
        o += fmt::format("  {:<6} {:<20} {:>14} {:>14} {:>6.2f}\n", h,
                         h + 1 == s.cores().size() ? "cluster controller" : "worker", instr, cyc,
                         cyc ? static_cast<double>(instr) / static_cast<double>(cyc) : 0.0);
    }
    if (r.host_seconds > 0)
        o += fmt::format("  simulation speed: {:.1f} MIPS (all harts)\n",
                         static_cast<double>(total_instr) / r.host_seconds / 1e6);
    o += icache_table(s, cfg_);

    const auto& targets = s.context().traffic.targets();
    o += "\ntraffic per memory level (bytes read / written)\n";
    o += fmt::format("  {:<24}", "initiator");
    for (const auto& t : targets) o += fmt::format(" {:>23}", t);
    o += "\n";
    std::size_t idle = 0;
    for (const auto* i : s.initiators()) {
        std::uint64_t any = 0;
        for (std::size_t t = 0; t < targets.size(); ++t)
            any |= i->traffic().read_bytes[t] | i->traffic().write_bytes[t];
        if (!any) {
            ++idle;  // the JSON keeps every initiator; the table only those that moved data
            continue;
        }
        o += fmt::format("  {:<24}", i->who().name);
        for (std::size_t t = 0; t < targets.size(); ++t)
            o +=
                fmt::format(" {:>23}", fmt::format("{} / {}", i->traffic().read_bytes[t], i->traffic().write_bytes[t]));
        o += "\n";
    }
    if (idle) o += fmt::format("  ({} initiators moved no data)\n", idle);
    // Accelerators and engines report busy cycles; utilisation is against the run.
    std::string util;
    for (const auto& g : s.context().stats.groups())
        for (const auto& v : g.values)
            if (v.name == "busy_cycles" && r.cycles)
                util += fmt::format("  {:<24} {:>12} busy cycles  {:6.2f} %\n", g.owner, *v.value,
                                    100.0 * static_cast<double>(*v.value) / static_cast<double>(r.cycles));
    if (!util.empty()) o += "\nutilisation\n" + util;

    // Per-event energies times the run's counts (energy.* keys).
    const energy_breakdown en = run_energy(energy_model::from(cfg_), s, r.cycles);
    o += fmt::format("\nenergy   : {:.3f} uJ =", en.total() * 1e6);
    for (std::size_t i = 0; i < en.blocks.size(); ++i)
        o += fmt::format("{} {} {:.3f}", i ? "," : "", en.blocks[i].first, en.blocks[i].second * 1e6);
    o += " (energy.* keys, docs/architects.md)\n";
    o += "  cores' instruction classes, uJ:";
    for (const auto& [cls, joules] : insn_energy(energy_model::from(cfg_), s))
        o += fmt::format(" {} {:.3f}", cls, joules * 1e6);
    o += " (energy.insn_*, in the cores' figure)\n";

    const auto& regions = s.soc_periph().regions();
    if (!regions.empty()) {
        // Engines with busy counters, in the order busy_snapshot() samples them.
        std::vector<std::string> engines;
        for (const auto& g : s.context().stats.groups())
            for (const auto& v : g.values)
                if (v.name == "busy_cycles") engines.push_back(g.owner);
        o += "\nmarked regions (trace markers)\n";
        o += fmt::format("  {:<32} {:>5} {:>8} {:>14}", "region", "hart", "count", "cycles");
        for (const auto& e : engines) o += fmt::format(" {:>14}", e + " %");
        o += "\n";
        for (const auto& g : regions) {
            o += fmt::format("  {:<32} {:>5} {:>8} {:>14}", g.name, g.hart, g.count, g.cycles);
            for (std::size_t i = 0; i < engines.size(); ++i)
                o += fmt::format(" {:>14.1f}", i < g.busy.size() && g.cycles ? 100.0 * static_cast<double>(g.busy[i]) /
                                                                                   static_cast<double>(g.cycles)
                                                                             : 0.0);
            o += g.open ? " (still open at the end)\n" : "\n";
        }
    }
    if (!layer_macs_.empty() && !regions.empty()) o += layer_table(s);
    if (const auto& checks = s.soc_periph().self_checks(); !checks.empty()) {
        std::uint64_t compared = 0, expected = 0, errors = 0;
        o += "\nself-checks (npu_check_*)\n";
        for (const auto& c : checks) {
            o += fmt::format("  {}: compared {} of {} elements, {} errors{}\n", c.name, c.compared, c.expected,
                             c.errors, c.ended ? "" : " (never ended)");
            compared += c.compared;
            expected += c.expected;
            errors += c.errors;
        }
        o += fmt::format("self-check: compared {} of {}, {} errors\n", compared, expected, errors);
    }
    if (!ranges_.empty()) {
        o += "\nmemcheck findings (one per initiator, PC and contiguous range)\n";
        for (std::size_t i = 0; i < ranges_.size() && i < memcheck_limit_; ++i) {
            const auto& r = ranges_[i];
            const std::string& sym = r.symbol;
            o += fmt::format("  {}: {} {} B in [0x{:08x}, 0x{:08x}){} by {} access{}{}\n", who_text(r.who),
                             summary_name(r.kind, r.who && r.who->hart < 0),
                             r.bytes, r.first, r.end, sym.empty() ? "" : " <" + sym + ">", r.accesses,
                             r.accesses == 1 ? "" : "es", r.has_pc ? ", pc " + pc_text(svc_, r.pc) : "");
        }
        if (ranges_.size() > memcheck_limit_)
            o += fmt::format("  ... and {} more (--memcheck-limit)\n", ranges_.size() - memcheck_limit_);
    }
    o += fmt::format("\nbus errors: {}   memcheck findings: {}\n", bus_errors_.size(), memcheck_count_);
    return o;
}

std::string report::layer_table(const soc& s) const {
    std::vector<std::string> engines;
    for (const auto& g : s.context().stats.groups())
        for (const auto& v : g.values)
            if (v.name == "busy_cycles") engines.push_back(g.owner);
    const auto& targets = s.context().traffic.targets();
    std::string o = "\nlayers (npuc regions; MACs from the manifest; bytes read / written per level)\n";
    o += fmt::format("  {:<24} {:>12} {:>12} {:>9}", "layer", "cycles", "MACs", "MAC/cycle");
    for (const auto& e : engines) o += fmt::format(" {:>10}", e.substr(e.rfind('.') + 1) + " %");
    o += fmt::format(" {:>10}", "workers %");
    for (const auto& t : targets) o += fmt::format(" {:>21}", t);
    if (!layer_sources_.empty()) o += "  source";
    o += "\n";
    for (const auto& g : s.soc_periph().regions()) {
        auto it =
            std::find_if(layer_macs_.begin(), layer_macs_.end(), [&](const auto& l) { return l.first == g.name; });
        if (it == layer_macs_.end()) continue;
        o += fmt::format("  {:<24} {:>12} {:>12} {:>9}", g.name, g.cycles, it->second,
                         g.cycles && it->second
                             ? fmt::format("{:.2f}", static_cast<double>(it->second) / static_cast<double>(g.cycles))
                             : "-");
        for (std::size_t i = 0; i < engines.size(); ++i)
            o += fmt::format(" {:>10.1f}", i < g.busy.size() && g.cycles
                                               ? 100.0 * static_cast<double>(g.busy[i]) / static_cast<double>(g.cycles)
                                               : 0.0);
        o += fmt::format(" {:>10.1f}", worker_utilisation(s, g));
        for (std::size_t t = 0; t < targets.size(); ++t)
            o += fmt::format(" {:>21}",
                             fmt::format("{} / {}", region_read_bytes(g, t), region_write_bytes(g, t, targets.size())));
        if (auto src = layer_sources_.find(g.name); src != layer_sources_.end()) o += "  " + src->second;
        o += "\n";
    }
    return o;
}

namespace {
// One entry (a core, an initiator's traffic, a component's statistics, a
// region) as one compact line, as scripts grepping the report expect.
template <class Body>
std::string one_line(Body&& body) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::json::OStream j(os);
    body(j);
    return text;
}
}  // namespace

std::string report::json(const soc& s, const run_result& r) const {
    using llvm::json::OStream;
    std::string text;
    llvm::raw_string_ostream os(text);
    OStream j(os, 2);
    j.object([&] {
        j.attribute("status", status_name(r));
        j.attribute("exit_code", static_cast<int>(r.code));
        j.attribute("reason", r.reason);
        j.attribute("firmware_exit", r.firmware_code);
        j.attribute("cycles", r.cycles);
        j.attribute("cluster_clock_hz", cfg_.frequency_hz("soc.cluster_clock"));
        // The effective config, so a result can be traced to every key that
        // made it and where that value came from (default, file:line,
        // command line): a sweep's rows stand on their own.
        j.attributeObject("config", [&] {
            for (const auto& d : cfg::platform_schema().keys()) {
                j.attributeBegin(d.key);
                j.rawValue(one_line([&](OStream& e) {
                    e.object([&] {
                        e.attribute("value", cfg_.raw(d.key));
                        e.attribute("source", cfg_.where(d.key).str());
                        e.attribute("fingerprinted", d.fingerprinted);
                    });
                }));
                j.attributeEnd();
            }
        });
        // Microsecond resolution is all a host timing means.
        j.attributeBegin("host_seconds");
        j.rawValue(fmt::format("{:.6f}", r.host_seconds));
        j.attributeEnd();
        const energy_model em = energy_model::from(cfg_);
        const energy_breakdown en = run_energy(em, s, r.cycles);
        j.attributeObject("energy_uj", [&] {
            j.attribute("total", en.total() * 1e6);
            for (const auto& [block, joules] : en.blocks) j.attribute(block, joules * 1e6);
        });
        j.attributeObject("energy_insn_uj", [&] {
            for (const auto& [cls, joules] : insn_energy(em, s)) j.attribute(cls, joules * 1e6);
        });
        const bool f32_macs = sa_macs_mostly_f32(s);
        j.attributeArray("cores", [&] {
            for (std::size_t h = 0; h < s.cores().size(); ++h) {
                const auto& c = *s.cores()[h];
                j.rawValue(one_line([&](OStream& e) {
                    e.object([&] {
                        e.attribute("hart", static_cast<std::uint64_t>(h));
                        e.attribute("role", h + 1 == s.cores().size() ? "cluster controller" : "worker");
                        e.attribute("instructions", c.instret());
                        e.attribute("cycles", c.state().cycle);
                    });
                }));
            }
        });
        const auto& targets = s.context().traffic.targets();
        j.attributeObject("traffic", [&] {
            for (const auto* i : s.initiators()) {
                j.attributeBegin(i->who().name);
                j.rawValue(one_line([&](OStream& e) {
                    e.object([&] {
                        for (std::size_t t = 0; t < targets.size(); ++t)
                            e.attributeObject(targets[t], [&] {
                                e.attribute("read", i->traffic().read_bytes[t]);
                                e.attribute("write", i->traffic().write_bytes[t]);
                            });
                    });
                }));
                j.attributeEnd();
            }
        });
        j.attributeObject("stats", [&] {
            for (const auto& g : s.context().stats.groups()) {
                j.attributeBegin(g.owner);
                j.rawValue(one_line([&](OStream& e) {
                    e.object([&] {
                        for (const auto& v : g.values) e.attribute(v.name, *v.value);
                    });
                }));
                j.attributeEnd();
            }
        });
        j.attributeArray("regions", [&] {
            for (const auto& g : s.soc_periph().regions())
                j.rawValue(one_line([&](OStream& e) {
                    e.object([&] {
                        e.attribute("name", g.name);
                        e.attribute("hart", g.hart);
                        e.attribute("count", g.count);
                        e.attribute("cycles", g.cycles);
                        e.attribute("open", g.open);
                        // Host wall seconds between its markers (soc_periph::region_stats).
                        e.attribute("host_seconds", g.host_seconds);
                        auto it = std::find_if(layer_macs_.begin(), layer_macs_.end(),
                                               [&](const auto& l) { return l.first == g.name; });
                        if (it != layer_macs_.end()) {
                            e.attribute("macs", it->second);
                            e.attribute(
                                "macs_per_cycle",
                                g.cycles ? static_cast<double>(it->second) / static_cast<double>(g.cycles) : 0.0);
                        }
                        e.attributeObject("busy_cycles", [&] {
                            std::size_t i = 0;
                            for (const auto& sg : s.context().stats.groups())
                                for (const auto& v : sg.values)
                                    if (v.name == "busy_cycles") {
                                        e.attribute(sg.owner, i < g.busy.size() ? g.busy[i] : 0);
                                        ++i;
                                    }
                        });
                        e.attribute("worker_cycles", region_worker_cycles(g));
                        {
                            std::vector<std::uint64_t> rd(targets.size()), wr(targets.size());
                            for (std::size_t t = 0; t < targets.size(); ++t) {
                                rd[t] = region_read_bytes(g, t);
                                wr[t] = region_write_bytes(g, t, targets.size());
                            }
                            const energy_breakdown re = region_energy(
                                em, s, g.cycles, region_worker_cycles(g), rd, wr,
                                it != layer_macs_.end() ? it->second : 0, f32_macs,
                                region_busy(s, g.busy, "macs"), region_busy(s, g.busy, "bursts"));
                            e.attribute("energy_uj", re.total() * 1e6);
                        }
                        e.attribute("worker_utilisation", worker_utilisation(s, g) / 100.0);
                        e.attributeObject("bytes", [&] {
                            for (std::size_t t = 0; t < targets.size(); ++t)
                                e.attributeObject(targets[t], [&] {
                                    e.attribute("read", region_read_bytes(g, t));
                                    e.attribute("write", region_write_bytes(g, t, targets.size()));
                                });
                        });
                    });
                }));
        });
        j.attributeArray("bus_errors", [&] {
            for (const auto& e : bus_errors_) j.value(e);
        });
        j.attribute("memcheck_findings", static_cast<std::uint64_t>(memcheck_count_));
        j.attributeArray("memcheck", [&] {
            for (const auto& m : memcheck_) j.value(m);
        });
        if (!golden_json_.empty()) {
            j.attributeBegin("golden");
            j.rawValue(golden_json_);
            j.attributeEnd();
        }
    });
    os << "\n";
    return text;
}

std::string report::csv(const soc& s, const run_result& r) const {
    std::vector<std::pair<std::string, std::string>> cols;
    auto add = [&cols](std::string k, std::string v) { cols.emplace_back(std::move(k), std::move(v)); };
    auto num = [](double v) { return fmt::format("{:.6g}", v); };
    add("status", status_name(r));
    add("exit_code", std::to_string(static_cast<int>(r.code)));
    add("cycles", std::to_string(r.cycles));
    const double hz = static_cast<double>(cfg_.frequency_hz("soc.cluster_clock"));
    add("time_us", num(static_cast<double>(r.cycles) / hz * 1e6));
    const energy_model em = energy_model::from(cfg_);
    const energy_breakdown en = run_energy(em, s, r.cycles);
    add("energy_uj", num(en.total() * 1e6));
    for (const auto& [block, joules] : en.blocks) add("energy_uj_" + block, num(joules * 1e6));
    for (const auto& [cls, joules] : insn_energy(em, s)) add("energy_insn_uj_" + cls, num(joules * 1e6));
    if (!golden_json_.empty()) {
        // The comparison's own counts, from the object the JSON report embeds.
        auto g = llvm::json::parse(golden_json_);
        const llvm::json::Object* o = g ? g->getAsObject() : nullptr;
        if (!g) llvm::consumeError(g.takeError());
        auto count = [&](const char* k) {
            auto v = o ? o->getInteger(k) : std::nullopt;
            return v ? std::to_string(*v) : std::string();
        };
        add("compared", count("compared"));
        add("mismatches", count("mismatches"));
    }
    const auto& targets = s.context().traffic.targets();
    for (std::size_t t = 0; t < targets.size(); ++t) {
        std::uint64_t rd = 0, wr = 0;
        for (const auto* i : s.initiators()) {
            rd += i->traffic().read_bytes[t];
            wr += i->traffic().write_bytes[t];
        }
        add("bytes_" + targets[t] + "_read", std::to_string(rd));
        add("bytes_" + targets[t] + "_write", std::to_string(wr));
    }
    for (const auto& g : s.context().stats.groups())
        for (const auto& v : g.values)
            if (v.name == "busy_cycles")
                add("util_" + g.owner, num(r.cycles ? static_cast<double>(*v.value) / static_cast<double>(r.cycles) : 0));
    for (const auto& g : s.soc_periph().regions()) {
        auto it = std::find_if(layer_macs_.begin(), layer_macs_.end(), [&](const auto& l) { return l.first == g.name; });
        if (it == layer_macs_.end()) continue;  // the layers npuc counted, as in the sweep's CSV
        add("layer_cycles:" + g.name, std::to_string(g.cycles));
        add("layer_macs_per_cycle:" + g.name,
            num(g.cycles ? static_cast<double>(it->second) / static_cast<double>(g.cycles) : 0));
    }
    for (const auto& d : cfg::platform_schema().keys()) add("config:" + d.key, cfg_.raw(d.key));
    // RFC 4180: quote a field with a comma, quote or line break.
    auto field = [](const std::string& f) {
        if (f.find_first_of(",\"\n") == std::string::npos) return f;
        std::string q = "\"";
        for (char c : f) q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    std::string head, row;
    for (std::size_t i = 0; i < cols.size(); ++i) {
        head += (i ? "," : "") + field(cols[i].first);
        row += (i ? "," : "") + field(cols[i].second);
    }
    return head + "\n" + row + "\n";
}

}  // namespace npu::platform
