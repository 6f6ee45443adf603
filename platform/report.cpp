#include "report.h"

#include "cpu/core.h"
#include "periph/soc_periph.h"

#include "base/component.h"
#include "base/sim_services.h"

#include <fmt/format.h>

#include <cstdio>

namespace npu::platform {

using base::sim_services;

namespace {
constexpr std::size_t max_memcheck_reports = 20;  // then only counted

std::string who_text(const base::initiator_id* w) {
    if (!w) return "unknown initiator";
    if (w->hart >= 0) return fmt::format("{} (hart {}, {})", w->name, w->hart, w->role);
    return fmt::format("{} ({})", w->name, w->role);
}

std::string pc_text(std::uint64_t pc) {
    std::string sym = sim_services::get().symbol_of(pc);
    return fmt::format("0x{:08x}{}", pc, sym.empty() ? "" : " <" + sym + ">");
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) o += fmt::format("\\u{:04x}", c);
            else o += c;
        }
    }
    return o;
}
}  // namespace

report::report(const cfg::config& cfg) : cfg_(cfg) {
    auto& svc = sim_services::get();
    svc.on_bus_error = [this](const base::bus_error_info& e) {
        bus_errors_.push_back(format_bus_error(e));
        std::fputs(bus_errors_.back().c_str(), stderr);
        std::fflush(stderr);
    };
    svc.on_memcheck = [this](const base::memcheck_info& m) {
        ++memcheck_count_;
        if (memcheck_.size() < max_memcheck_reports) {
            memcheck_.push_back(format_memcheck(m));
            std::fputs(memcheck_.back().c_str(), stderr);
        }
        return sim_services::get().memcheck() == base::memcheck_mode::error;
    };
}

std::string report::format_bus_error(const base::bus_error_info& e) const {
    const char* kind = e.is_fetch ? "instruction fetch" : e.is_write ? "store" : "load";
    std::string decode = sim_services::get().describe_address
                             ? sim_services::get().describe_address(e.who ? e.who->cls : 0, e.address)
                             : "";
    // A symbol only means something for an address that is mapped.
    std::string sym = decode.rfind("unmapped", 0) == 0 ? "" : sim_services::get().symbol_of(e.address);
    std::string out = "*** bus error ***\n";
    out += fmt::format("  initiator : {}\n", who_text(e.who));
    out += fmt::format("  access    : {} of {} bytes at 0x{:08x}\n", kind, e.size, e.address);
    if (e.has_pc) out += fmt::format("  pc        : {}\n", pc_text(e.pc));
    out += fmt::format("  address   : {}\n", decode);
    if (!sym.empty()) out += fmt::format("  symbol    : {}\n", sym);
    if (!e.context.empty()) out += e.context + (e.context.back() == '\n' ? "" : "\n");
    return out;
}

std::string report::format_memcheck(const base::memcheck_info& m) const {
    std::string sym = sim_services::get().symbol_of(m.address);
    std::string out = fmt::format("*** memcheck: {} ***\n  initiator : {}\n",
                                  m.in_flight ? "read of a DMA destination before the transfer wrote it"
                                              : "read of never-written memory",
                                  who_text(m.who));
    out += fmt::format("  access    : load of {} bytes, first {} byte 0x{:08x}{}\n", m.size,
                       m.in_flight ? "not yet transferred" : "unwritten", m.address,
                       sym.empty() ? "" : " <" + sym + ">");
    if (m.has_pc) out += fmt::format("  pc        : {}\n", pc_text(m.pc));
    if (m.in_flight) {
        const auto& describe = sim_services::get().describe_in_flight;
        const std::string t = describe ? describe(m.address) : "";
        out += fmt::format("  dma       : {}\n", t.empty() ? "a transfer in flight" : t);
        out += "  hint      : wait for the transfer (npu_dma_wait) before reading its destination\n";
    }
    return out;
}

std::string report::summary(const soc& s, const run_result& r) const {
    std::string o = "\n=== npusim report ===\n";
    o += fmt::format("status   : {} (exit code {}) — {}\n", base::exit_code_name(r.code), static_cast<int>(r.code),
                     r.reason);
    const double mhz = static_cast<double>(cfg_.frequency_hz("soc.cluster_clock")) / 1e6;
    o += fmt::format("cycles   : {} @ {:.0f} MHz = {:.3f} us simulated, {:.3f} s host\n", r.cycles, mhz,
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

    const auto& targets = base::traffic_registry::get().targets();
    o += "\ntraffic per memory level (bytes read / written)\n";
    o += fmt::format("  {:<24}", "initiator");
    for (const auto& t : targets) o += fmt::format(" {:>23}", t);
    o += "\n";
    std::size_t idle = 0;
    for (const auto* i : s.initiators()) {
        std::uint64_t any = 0;
        for (std::size_t t = 0; t < targets.size(); ++t) any |= i->traffic().read_bytes[t] | i->traffic().write_bytes[t];
        if (!any) {
            ++idle;  // the JSON keeps every initiator; the table only those that moved data
            continue;
        }
        o += fmt::format("  {:<24}", i->who().name);
        for (std::size_t t = 0; t < targets.size(); ++t)
            o += fmt::format(" {:>23}", fmt::format("{} / {}", i->traffic().read_bytes[t], i->traffic().write_bytes[t]));
        o += "\n";
    }
    if (idle) o += fmt::format("  ({} initiators moved no data)\n", idle);
    // Accelerators and engines report busy cycles; utilisation is against the run.
    std::string util;
    for (const auto& g : base::stats_registry::get().groups())
        for (const auto& v : g.values)
            if (v.name == "busy_cycles" && r.cycles)
                util += fmt::format("  {:<24} {:>12} busy cycles  {:6.2f} %\n", g.owner, *v.value,
                                    100.0 * static_cast<double>(*v.value) / static_cast<double>(r.cycles));
    if (!util.empty()) o += "\nutilisation\n" + util;

    const auto& regions = s.soc_periph().regions();
    if (!regions.empty()) {
        // Engines with busy counters, in the order busy_snapshot() samples them.
        std::vector<std::string> engines;
        for (const auto& g : base::stats_registry::get().groups())
            for (const auto& v : g.values)
                if (v.name == "busy_cycles") engines.push_back(g.owner);
        o += "\nmarked regions (trace markers)\n";
        o += fmt::format("  {:<32} {:>5} {:>8} {:>14}", "region", "hart", "count", "cycles");
        for (const auto& e : engines) o += fmt::format(" {:>14}", e + " %");
        o += "\n";
        for (const auto& g : regions) {
            o += fmt::format("  {:<32} {:>5} {:>8} {:>14}", g.name, g.hart, g.count, g.cycles);
            for (std::size_t i = 0; i < engines.size(); ++i)
                o += fmt::format(" {:>14.1f}", i < g.busy.size() && g.cycles
                                                  ? 100.0 * static_cast<double>(g.busy[i]) / static_cast<double>(g.cycles)
                                                  : 0.0);
            o += g.open ? " (still open at the end)\n" : "\n";
        }
    }
    o += fmt::format("\nbus errors: {}   memcheck findings: {}\n", bus_errors_.size(), memcheck_count_);
    return o;
}

std::string report::json(const soc& s, const run_result& r) const {
    std::string o = "{\n";
    o += fmt::format("  \"status\": \"{}\",\n  \"exit_code\": {},\n  \"reason\": \"{}\",\n  \"firmware_exit\": {},\n",
                     base::exit_code_name(r.code), static_cast<int>(r.code), json_escape(r.reason), r.firmware_code);
    o += fmt::format("  \"cycles\": {},\n  \"cluster_clock_hz\": {},\n  \"host_seconds\": {:.6f},\n", r.cycles,
                     cfg_.frequency_hz("soc.cluster_clock"), r.host_seconds);
    o += "  \"cores\": [";
    for (std::size_t h = 0; h < s.cores().size(); ++h) {
        const auto& c = *s.cores()[h];
        o += fmt::format("{}\n    {{\"hart\": {}, \"role\": \"{}\", \"instructions\": {}, \"cycles\": {}}}", h ? "," : "",
                         h, h + 1 == s.cores().size() ? "cluster controller" : "worker", c.instret(), c.state().cycle);
    }
    o += "\n  ],\n  \"traffic\": {";
    const auto& targets = base::traffic_registry::get().targets();
    bool first = true;
    for (const auto* i : s.initiators()) {
        o += fmt::format("{}\n    \"{}\": {{", first ? "" : ",", i->who().name);
        first = false;
        for (std::size_t t = 0; t < targets.size(); ++t)
            o += fmt::format("{}\"{}\": {{\"read\": {}, \"write\": {}}}", t ? ", " : "", targets[t],
                             i->traffic().read_bytes[t], i->traffic().write_bytes[t]);
        o += "}";
    }
    o += "\n  },\n  \"stats\": {";
    first = true;
    for (const auto& g : base::stats_registry::get().groups()) {
        o += fmt::format("{}\n    \"{}\": {{", first ? "" : ",", g.owner);
        first = false;
        for (std::size_t k = 0; k < g.values.size(); ++k)
            o += fmt::format("{}\"{}\": {}", k ? ", " : "", g.values[k].name, *g.values[k].value);
        o += "}";
    }
    o += "\n  },\n  \"regions\": [";
    const auto& regions = s.soc_periph().regions();
    for (std::size_t k = 0; k < regions.size(); ++k)
        o += fmt::format("{}\n    {{\"name\": \"{}\", \"hart\": {}, \"count\": {}, \"cycles\": {}, \"open\": {}}}",
                         k ? "," : "", json_escape(regions[k].name), regions[k].hart, regions[k].count,
                         regions[k].cycles, regions[k].open);
    o += "\n  ],\n  \"bus_errors\": [";
    for (std::size_t k = 0; k < bus_errors_.size(); ++k)
        o += fmt::format("{}\n    \"{}\"", k ? "," : "", json_escape(bus_errors_[k]));
    o += "\n  ],\n  \"memcheck_findings\": " + std::to_string(memcheck_count_) + ",\n  \"memcheck\": [";
    for (std::size_t k = 0; k < memcheck_.size(); ++k)
        o += fmt::format("{}\n    \"{}\"", k ? "," : "", json_escape(memcheck_[k]));
    o += "\n  ]";
    if (!golden_json_.empty()) o += ",\n  \"golden\": " + golden_json_;
    o += "\n}\n";
    return o;
}

}  // namespace npu::platform
