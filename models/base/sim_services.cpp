#include "sim_services.h"

#include <systemc>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace npu::base {

const char* exit_code_name(exit_code c) {
    switch (c) {
    case exit_code::success: return "success";
    case exit_code::firmware_failure: return "firmware failure";
    case exit_code::bad_input: return "bad input";
    case exit_code::bus_error: return "bus error";
    case exit_code::memcheck_error: return "memcheck error";
    case exit_code::watchdog: return "watchdog";
    case exit_code::golden_mismatch: return "golden mismatch";
    case exit_code::unhandled_trap: return "unhandled trap";
    case exit_code::self_check_failed: return "self-check failed";
    case exit_code::debugger_kill: return "killed from the debugger";
    case exit_code::internal_error: return "internal error";
    }
    return "?";
}

void sim_services::request_stop(exit_code code, const std::string& reason, int firmware_code) {
    if (stopped_) return;  // the first cause is the one worth reporting
    stopped_ = true;
    code_ = code;
    reason_ = reason;
    firmware_code_ = firmware_code;
    if (!sc_core::sc_is_running()) return;
    stopped_running_ = true;
    stop_time_ = sc_core::sc_time_stamp();
    if (!group_ || ++group_->stopped == group_->members) sc_core::sc_stop();
}

void sim_services::bus_error(const bus_error_info& e) {
    if (stopped_) return;
    if (on_bus_error) on_bus_error(e);
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(e.address));
    request_stop(exit_code::bus_error, std::string("bus error: ") +
                                           (e.refused    ? "DMA push refused, source"
                                            : e.is_fetch ? "fetch"
                                            : e.is_write ? "store"
                                                         : "load") +
                                           " at " + buf + " by " + (e.who ? e.who->name : std::string("?")));
}

const char* by_access(const memcheck_info& m, const char* engine_write, const char* engine_read,
                      const char* core_write, const char* core_read) {
    const bool engine = m.who && m.who->hart < 0;
    return engine ? (m.is_write ? engine_write : engine_read) : m.is_write ? core_write : core_read;
}

const char* heap_overflow_access(const memcheck_info& m) {
    return by_access(m, "destination in", "source in", "store into", "load from");
}

void heap_overflow_read(memcheck_info& m, unsigned char shadow, const sim_services& svc) {
    if (!(shadow & shadow_redzone)) return;
    m.heap_overflow = true;
    m.is_write = false;
    m.in_flight = m.zeroed_only = false;
    // The bytes of the read from the first in the header or padding on.
    m.unwritten = static_cast<unsigned>(m.access + m.size - m.address);
    if (svc.heap_redzone)
        if (const std::string b = svc.heap_redzone(m.address); !b.empty()) m.context += "  block     : " + b + "\n";
}

void sim_services::memcheck_finding(const memcheck_info& m) {
    if (memcheck_ == memcheck_mode::off || stopped_) return;
    if (m.in_flight && in_flight_ended && in_flight_ended(m.address)) return;
    bool stop = on_memcheck ? on_memcheck(m) : memcheck_stops();
    if (stop) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "0x%08llx", static_cast<unsigned long long>(m.address));
        // The finding's name, by kind; an engine's (a DMA channel's, the
        // SA's: no hart) where it differs, then a hart's load or store.
        const bool engine = m.who && m.who->hart < 0;
        const bool sa = m.in_flight && describe_in_flight &&
                        describe_in_flight(m.address).rfind("systolic array", 0) == 0;
        const char* what = "";
        std::string heap;  // a heap overflow's name, by its access
        switch (m.kind(sa)) {
        case memcheck_info::kind_t::invalid_free:
            what = "memcheck: invalid free (freed already, or not allocated) of ";
            break;
        case memcheck_info::kind_t::heap_overflow:
            heap = std::string("memcheck: heap overflow: ") + heap_overflow_access(m) +
                   " a heap block's header or padding at ";
            what = heap.c_str();
            break;
        case memcheck_info::kind_t::freed_store:
            what = engine ? "memcheck: destination in a freed heap block at "
                          : "memcheck: store into a freed heap block at ";
            break;
        case memcheck_info::kind_t::buffer_in_use: what = "memcheck: write into a buffer in use at "; break;
        case memcheck_info::kind_t::stack_crossing:
            what = "memcheck: DMA destination crosses a stack's bound at ";
            break;
        case memcheck_info::kind_t::stack_overflow:
            what = by_access(m, "memcheck: stack overflow: DMA destination below the stack limit at ",
                             "memcheck: stack overflow: DMA source below the stack limit at ",
                             "memcheck: stack overflow: store below the stack limit at ",
                             "memcheck: stack overflow: load below the stack limit at ");
            break;
        case memcheck_info::kind_t::sa_result_read:
            what = "memcheck: read of a systolic-array result before the job ended at ";
            break;
        case memcheck_info::kind_t::dma_destination_read:
            what = "memcheck: read of a DMA destination before the transfer wrote it at ";
            break;
        case memcheck_info::kind_t::zeroed_read:
            what = "memcheck: read of data never loaded (only zeroed at startup) at ";
            break;
        case memcheck_info::kind_t::unwritten_read: what = "memcheck: read of never-written memory at "; break;
        }
        request_stop(exit_code::memcheck_error,
                     std::string(what) + buf + " by " + (m.who ? m.who->name : std::string("?")));
    }
}

std::string sim_services::pushed_from(const buffer_use& u) const {
    const std::string c = u.pushed_from ? caller_of(*u.pushed_from) : std::string();
    return c.empty() ? c : " (" + c + ")";
}

namespace {

// How write span `w` overlaps the spans of another buffer user: the bytes
// of `w` it overlaps [first, end), and the overlapped spans' hull
// [o_first, o_end), operand (of the lowest) and whether one is written.
struct span_overlap {
    std::uint64_t first = 0, end = 0, o_first = UINT64_MAX, o_end = 0;
    const char* operand = "";
    bool o_write = false;
};

// The first write span of `mine` that overlaps a span of `other`, in the
// order of `mine`, with every span of `other` it overlaps (the rows of one
// operand, usually) in `o`; null if none. Among overlapped spans starting
// at the same address, the operand is the first one's in `other` sorted
// by start (std::sort, as this check has always named it).
const buffer_span* first_overlap(const buffer_use& mine, const buffer_use& other, std::uint64_t w_lo,
                                 std::uint64_t w_hi, span_overlap& o) {
    // Directly when few pairs can overlap (the spans of `other` inside the
    // writes' bounds): no sorted copy.
    std::size_t near = 0, writes = 0, nonempty = 0;
    for (const auto& sp : other.spans)
        if (sp.first < sp.end) ++nonempty, near += sp.first < w_hi && w_lo < sp.end;
    if (near == 0) return nullptr;
    for (const auto& w : mine.spans) writes += w.write && w.first < w.end;
    if (writes * near <= 4096) {
        bool ask_sort = false;
        for (const auto& w : mine.spans) {
            if (!w.write || w.first >= w.end) continue;
            span_overlap r;
            r.first = w.end;
            r.end = w.first;
            bool any = false, tie = false;
            for (const auto& sp : other.spans) {
                if (sp.first >= sp.end || sp.end <= w.first || w.end <= sp.first) continue;
                if (sp.first < r.o_first)
                    r.operand = sp.operand, tie = false;
                else if (sp.first == r.o_first && std::strcmp(sp.operand, r.operand) != 0)
                    tie = true;
                r.first = std::min(r.first, std::max(w.first, sp.first));
                r.end = std::max(r.end, std::min(w.end, sp.end));
                r.o_first = std::min(r.o_first, sp.first);
                r.o_end = std::max(r.o_end, sp.end);
                r.o_write |= sp.write;
                any = true;
            }
            if (!any) continue;
            // Up to 16 spans std::sort is an insertion sort, which keeps
            // equal starts in order (the first one found here); beyond,
            // which one it puts first is its own business: ask it.
            if (!tie || nonempty <= 16) {
                o = r;
                return &w;
            }
            ask_sort = true;
            break;
        }
        if (!ask_sort) return nullptr;
    }
    // Sorted by start, with the running maximum of the ends: a write span
    // is checked with one binary search (a 3-D transfer has thousands of
    // rows).
    std::vector<buffer_span> spans;
    spans.reserve(nonempty);
    for (const auto& sp : other.spans)
        if (sp.first < sp.end) spans.push_back(sp);
    std::sort(spans.begin(), spans.end(), [](const buffer_span& a, const buffer_span& b) { return a.first < b.first; });
    std::vector<std::uint64_t> max_end(spans.size());
    for (std::size_t i = 0; i < spans.size(); ++i) max_end[i] = std::max(spans[i].end, i ? max_end[i - 1] : 0);
    for (const auto& w : mine.spans) {
        if (!w.write || w.first >= w.end) continue;
        std::size_t n = static_cast<std::size_t>(
            std::lower_bound(spans.begin(), spans.end(), w.end,
                             [](const buffer_span& s, std::uint64_t e) { return s.first < e; }) -
            spans.begin());
        if (n == 0 || max_end[n - 1] <= w.first) continue;
        span_overlap r;
        r.first = w.end;
        r.end = w.first;
        for (std::size_t i = 0; i < n; ++i) {
            const buffer_span& sp = spans[i];
            if (sp.end <= w.first) continue;
            if (sp.first < r.o_first) r.operand = sp.operand;
            r.first = std::min(r.first, std::max(w.first, sp.first));
            r.end = std::max(r.end, std::min(w.end, sp.end));
            r.o_first = std::min(r.o_first, sp.first);
            r.o_end = std::max(r.o_end, sp.end);
            r.o_write |= sp.write;
        }
        o = r;
        return &w;
    }
    return nullptr;
}

}  // namespace

std::optional<memcheck_info> sim_services::buffer_write_conflict(const buffer_use& mine,
                                                                 const sc_core::sc_time& at) const {
    if (memcheck_ == memcheck_mode::off || !buffers_in_use) return std::nullopt;
    // The bounds of the write spans: a use outside them (another memory,
    // another buffer: most of them) cannot conflict. A write that knows
    // them (make_spans: a DMA push's rows) makes its spans only if a use
    // meets them.
    std::uint64_t w_lo = UINT64_MAX, w_hi = 0;
    if (mine.make_spans) {
        w_lo = mine.lo, w_hi = mine.hi;
    } else {
        for (const auto& w : mine.spans)
            if (w.write && w.first < w.end) w_lo = std::min(w_lo, w.first), w_hi = std::max(w_hi, w.end);
    }
    if (w_lo >= w_hi) return std::nullopt;
    buffer_use mine_made;
    const buffer_use* writes = mine.make_spans ? nullptr : &mine;
    for (const buffer_use& listed : buffers_in_use(at)) {
        std::uint64_t o_lo = listed.lo, o_hi = listed.hi;
        if (!listed.make_spans)
            for (const auto& sp : listed.spans)
                if (sp.first < sp.end) o_lo = std::min(o_lo, sp.first), o_hi = std::max(o_hi, sp.end);
        if (o_hi <= w_lo || w_hi <= o_lo) continue;
        if (listed.make_spans && listed.parts) {
            bool meets = false;
            for (unsigned i = 0; i < listed.parts && !meets; ++i)
                meets = listed.part[i].first < w_hi && w_lo < listed.part[i].end;
            if (!meets) continue;
        }
        buffer_use made;
        if (listed.make_spans) {
            made.describe = listed.describe;
            made.pushed_from = listed.pushed_from;
            listed.make_spans(made.spans);
        }
        const buffer_use& other = listed.make_spans ? made : listed;
        if (!writes) {
            mine_made.describe = mine.describe;
            mine_made.pushed_from = mine.pushed_from;
            mine.make_spans(mine_made.spans);
            writes = &mine_made;
        }
        span_overlap o;
        const buffer_span* w = first_overlap(*writes, other, w_lo, w_hi, o);
        if (!w) continue;
        // One finding covering every span of `other` the write overlaps.
        memcheck_info m;
        m.in_use = true;
        m.is_write = true;
        m.address = m.access = o.first;
        m.size = m.unwritten = static_cast<unsigned>(o.end - o.first);
        const auto text = [](const buffer_use& u) { return u.describe ? u.describe() : std::string(); };
        char range[64];
        std::snprintf(range, sizeof range, "[0x%08llx, 0x%08llx)", static_cast<unsigned long long>(w->first),
                      static_cast<unsigned long long>(w->end));
        m.context = std::string("  writer    : ") + text(mine) + pushed_from(mine) + "\n" + "              its " +
                    w->operand + " " + range + " (write)\n";
        std::snprintf(range, sizeof range, "[0x%08llx, 0x%08llx)", static_cast<unsigned long long>(o.o_first),
                      static_cast<unsigned long long>(o.o_end));
        m.context += std::string("  in use by : ") + text(other) + pushed_from(other) + "\n" +
                     "              its " + o.operand + " " + range + (o.o_write ? " (write)" : " (read)") + "\n";
        return m;
    }
    return std::nullopt;
}

void sim_services::watch(const void* owner, std::uint64_t lo, std::uint64_t hi, const sc_core::sc_time& until) {
    if (lo >= hi) return;
    watches_.push_back({owner, lo, hi, until});
    watch_count = static_cast<unsigned>(watches_.size());
}

void sim_services::unwatch(const void* owner) {
    watches_.erase(std::remove_if(watches_.begin(), watches_.end(),
                                  [owner](const write_watch& w) { return w.owner == owner; }),
                   watches_.end());
    watch_count = static_cast<unsigned>(watches_.size());
}

void sim_services::unwatch_ended(const sc_core::sc_time& t) {
    watches_.erase(std::remove_if(watches_.begin(), watches_.end(), [&t](const write_watch& w) { return w.until <= t; }),
                   watches_.end());
    watch_count = static_cast<unsigned>(watches_.size());
}

const sim_services::host_range* sim_services::find_host_range(const unsigned char* p) const {
    for (const auto& r : ranges_)
        if (p >= r.host && p < r.host + r.len) return &r;
    return nullptr;
}

}  // namespace npu::base
