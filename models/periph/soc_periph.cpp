#include "soc_periph.h"

#include "soc_periph_regs.h"

#include "base/sim_services.h"

#include <fmt/format.h>

#include <cstdio>

namespace npu::periph {

using base::exit_code;

namespace {
const char* cause_name(std::uint32_t c) {
    switch (c) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store/AMO address misaligned";
    case 7: return "store/AMO access fault";
    case 8: return "environment call from U-mode";
    case 11: return "environment call from M-mode";
    default: return (c & 0x80000000u) ? "interrupt" : "unknown cause";
    }
}
}  // namespace

soc_periph::soc_periph(sc_core::sc_module_name nm, const cfg::config& cfg) : base::peripheral(nm, cfg, "soc_periph") {
    add_register(NPU_UART_TX, "uart_tx", write_only, 0, nullptr, [this](std::uint32_t v) { uart_tx(v); });
    add_register(NPU_UART_STATUS, "uart_status", read_only, 1);
    add_register(NPU_SIMCTL_EXIT, "simctl_exit", write_only, 0, nullptr, [this](std::uint32_t v) {
        const int code = static_cast<int>(v);
        services().request_stop(code == 0 ? exit_code::success : exit_code::firmware_failure,
                                fmt::format("firmware exit({})", code), code);
    });
    add_register(NPU_SIMCTL_TRAP_CAUSE, "trap_cause", write_only, 0, nullptr,
                 [this](std::uint32_t v) { trap_cause_ = v; });
    add_register(NPU_SIMCTL_TRAP_EPC, "trap_epc", write_only, 0, nullptr, [this](std::uint32_t v) { trap_epc_ = v; });
    add_register(NPU_SIMCTL_TRAP_TVAL, "trap_tval", write_only, 0, nullptr,
                 [this](std::uint32_t v) { trap_tval_ = v; });
    add_register(NPU_SIMCTL_TRAP_HART, "trap_hart", write_only, 0, nullptr,
                 [this](std::uint32_t v) { report_trap(v); });
    add_register(NPU_TRACE_BEGIN, "trace_begin", write_only, 0, nullptr, [this](std::uint32_t a) { trace(a, true); });
    add_register(NPU_TRACE_END, "trace_end", write_only, 0, nullptr, [this](std::uint32_t a) { trace(a, false); });
    add_register(NPU_MEMCHECK_ADDR, "memcheck_addr", write_only, 0, nullptr,
                 [this](std::uint32_t a) { memcheck_addr_ = a; });
    add_register(NPU_MEMCHECK_UNWRITTEN, "memcheck_unwritten", write_only, 0, nullptr, [this](std::uint32_t n) {
        if (services().mark_unwritten) services().mark_unwritten(memcheck_addr_, n);
        if (const base::initiator_id* who = current_initiator(); who && services().heap_block)
            services().heap_block(memcheck_addr_, n, who->hart);
    });
    add_register(NPU_MEMCHECK_FREED, "memcheck_freed", write_only, 0, nullptr, [this](std::uint32_t n) {
        if (services().mark_freed) services().mark_freed(memcheck_addr_, n);
        if (const base::initiator_id* who = current_initiator(); who && services().heap_freed)
            services().heap_freed(memcheck_addr_, n, who->hart);
    });
    add_register(NPU_MEMCHECK_BAD_FREE, "memcheck_bad_free", write_only, 0, nullptr, [this](std::uint32_t p) {
        base::memcheck_info m;
        m.double_free = true;
        m.who = current_initiator();
        m.pc = current_pc();
        m.has_pc = m.who && m.who->hart >= 0;
        m.address = m.access = p;
        m.size = m.unwritten = 4;  // the pointer's word: "invalid free, 4 B in [p, p + 4)"
        // The pc is the runtime's: name the program's call of npu_l1_free.
        if (m.has_pc && services().capture_call_chain) {
            base::call_chain chain;
            services().capture_call_chain(m.who->hart, chain);
            if (const std::string c = services().caller_of(chain); !c.empty())
                m.context = fmt::format("  caller    : {}\n", c);
        }
        services().memcheck_finding(m);
    });
    add_register(NPU_MEMCHECK_STARTUP_ZEROED, "memcheck_startup_zeroed", write_only, 0, nullptr, [this](std::uint32_t) {
        if (services().startup_zeroed) services().startup_zeroed();
    });
    add_register(NPU_CHECK_EXPECTED, "check_expected", write_only, 0, nullptr,
                 [this](std::uint32_t n) { check_expected_ = n; });
    add_register(NPU_CHECK_BEGIN, "check_begin", write_only, 0, nullptr, [this](std::uint32_t a) {
        std::string name = read_string ? read_string(a) : fmt::format("0x{:08x}", a);
        // One check is open at a time: a second begin is a harness that
        // lost track (the first's comparisons would count for the second).
        if (check_open_ && nested_begin_.empty())
            nested_begin_ = fmt::format("'{}' began while '{}' was open", name, checks_.back().name);
        checks_.push_back({std::move(name), check_expected_});
        check_open_ = true;
    });
    add_register(NPU_CHECK_COMPARED, "check_compared", write_only, 0, nullptr, [this](std::uint32_t n) {
        if (check_open_)
            checks_.back().compared += n;
        else
            stray_compared_ += n;
    });
    add_register(NPU_CHECK_ERRORS, "check_errors", write_only, 0, nullptr, [this](std::uint32_t n) {
        if (check_open_)
            checks_.back().errors += n;
        else
            stray_errors_ += n;
    });
    add_register(NPU_CHECK_END, "check_end", write_only, 0, nullptr, [this](std::uint32_t) {
        if (check_open_)
            checks_.back().ended = true;
        else
            ++stray_ends_;
        check_open_ = false;
    });
    // The simulation controls take a core's stores only (UART output may
    // come from a DMA transfer).
    for (const std::uint32_t r :
         {NPU_SIMCTL_EXIT, NPU_SIMCTL_TRAP_CAUSE, NPU_SIMCTL_TRAP_EPC, NPU_SIMCTL_TRAP_TVAL, NPU_SIMCTL_TRAP_HART,
          NPU_TRACE_BEGIN, NPU_TRACE_END, NPU_MEMCHECK_ADDR, NPU_MEMCHECK_UNWRITTEN, NPU_MEMCHECK_STARTUP_ZEROED,
          NPU_MEMCHECK_FREED, NPU_MEMCHECK_BAD_FREE,
          NPU_CHECK_EXPECTED, NPU_CHECK_BEGIN, NPU_CHECK_COMPARED, NPU_CHECK_ERRORS, NPU_CHECK_END})
        cores_only(r);
    add_register(NPU_PERF_CYCLES_LO, "perf_cycles_lo", read_only, 0, [this]() {
        const auto c = now_cycles();
        cycles_hi_latch_ = static_cast<std::uint32_t>(c >> 32);
        return static_cast<std::uint32_t>(c);
    });
    add_register(NPU_PERF_CYCLES_HI, "perf_cycles_hi", read_only, 0, [this]() { return cycles_hi_latch_; });
    // The debugger reads the counter without latching.
    set_peek(NPU_PERF_CYCLES_LO, [this] { return static_cast<std::uint32_t>(now_cycles()); });
    set_peek(NPU_PERF_CYCLES_HI, [this] { return static_cast<std::uint32_t>(now_cycles() >> 32); });
    add_stat("uart_bytes", uart_bytes_, "B", "bytes the firmware wrote to the UART");
}

soc_periph::~soc_periph() {
    if (!line_.empty() && echo_) {
        std::fwrite(line_.data(), 1, line_.size(), stdout);
        std::fflush(stdout);
    }
}

void soc_periph::uart_tx(std::uint32_t v) {
    const char c = static_cast<char>(v & 0xFF);
    ++uart_bytes_;
    uart_log_ += c;
    line_ += c;
    // Whole lines, flushed: firmware output interleaves cleanly with the
    // report on stderr and survives a crash of the host process.
    if (c == '\n') {
        if (echo_) {
            std::fwrite(line_.data(), 1, line_.size(), stdout);
            std::fflush(stdout);
        }
        line_.clear();
    }
}

std::uint64_t soc_periph::now_cycles() const { return static_cast<std::uint64_t>(access_time() / clock_period()); }

int soc_periph::innermost_region(int hart) const {
    const std::size_t slot = static_cast<std::size_t>(hart + 1);  // as trace() files them
    return slot < open_.size() && !open_[slot].empty() ? static_cast<int>(open_[slot].back().index) : -1;
}

void soc_periph::trace(std::uint32_t name_addr, bool begin) {
    // A region's host time starts before its begin marker's own work.
    const auto host_now = std::chrono::steady_clock::now();
    const int hart = current_initiator() ? current_initiator()->hart : -1;
    const std::string name = read_string ? read_string(name_addr) : fmt::format("0x{:08x}", name_addr);
    const std::size_t slot = static_cast<std::size_t>(hart + 1);  // hart -1 (not a core) gets slot 0
    if (open_.size() <= slot) open_.resize(slot + 1);
    auto& stack = open_[slot];
    if (base::activity_sink* a = context().activity) a->region(hart, name, begin, now_cycles());
    if (begin) {
        std::size_t idx = regions_.size();
        for (std::size_t i = 0; i < regions_.size(); ++i)
            if (regions_[i].name == name && regions_[i].hart == hart) idx = i;
        if (idx == regions_.size()) regions_.push_back(region_stats{name, hart, 0, 0, 0, {}, {}});
        ++regions_[idx].open;
        stack.push_back(open_region{idx, now_cycles(), busy_snapshot(),
                                    region_counters ? region_counters() : std::vector<std::uint64_t>{}, host_now});
        return;
    }
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        region_stats& r = regions_[it->index];
        if (r.name != name) continue;
        r.cycles += now_cycles() - it->start;
        ++r.count;
        const auto now = busy_snapshot();
        r.busy.resize(now.size());
        for (std::size_t i = 0; i < now.size() && i < it->busy_at_start.size(); ++i)
            r.busy[i] += now[i] - it->busy_at_start[i];
        if (region_counters) {
            const auto c = region_counters();
            r.counters.resize(c.size());
            for (std::size_t i = 0; i < c.size() && i < it->counters_at_start.size(); ++i)
                r.counters[i] += c[i] - it->counters_at_start[i];
        }
        --r.open;
        const std::size_t index = it->index;
        const auto host_start = it->host_start;
        stack.erase(std::next(it).base());
        if (on_region_end) on_region_end(name);
        // Up to now: the end's checkpoint snapshot (on_region_end) counts too.
        regions_[index].host_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
        return;
    }
    NPU_LOG(log(), warn, "hart {}: trace end of '{}' without a matching begin", hart, name);
}

std::vector<std::uint64_t> soc_periph::busy_snapshot() const {
    const auto& groups = context().stats.groups();
    if (busy_counters_groups_ != groups.size()) {
        busy_counters_.clear();
        for (const auto& g : groups)
            for (const auto& st : g.values)
                if (st.name == "busy_cycles") busy_counters_.push_back(st.value);
        busy_counters_groups_ = groups.size();
    }
    std::vector<std::uint64_t> v;
    v.reserve(busy_counters_.size());
    for (const std::uint64_t* c : busy_counters_) v.push_back(*c);
    return v;
}

void soc_periph::close_open_regions(std::uint64_t end_cycle) {
    for (auto& stack : open_) {
        const auto host_now = std::chrono::steady_clock::now();
        for (const auto& o : stack) {
            regions_[o.index].cycles += end_cycle - o.start;
            regions_[o.index].host_seconds += std::chrono::duration<double>(host_now - o.host_start).count();
        }
        stack.clear();
    }
}

void soc_periph::report_trap(std::uint32_t hart) {
    auto& s = services();
    std::string sym = s.symbol_of(trap_epc_);
    s.request_stop(
        exit_code::unhandled_trap,
        fmt::format("unhandled trap on hart {}: mcause {} ({}), mepc 0x{:08x}{}, mtval 0x{:08x}", hart, trap_cause_,
                    cause_name(trap_cause_), trap_epc_, sym.empty() ? "" : " <" + sym + ">", trap_tval_));
}

}  // namespace npu::periph
