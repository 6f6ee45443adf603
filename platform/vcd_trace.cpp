#include "vcd_trace.h"

#include <cerrno>
#include <cstring>

#include "cpu/core.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace npu::platform {

namespace {

unsigned state_code(const char* state) {
    const std::string s = state;
    if (s == "running") return 1;
    if (s == "wfi") return 2;
    if (s == "event wait") return 3;
    return 0;  // halted (and anything new: shown as not running)
}

// VCD identifiers: printable ASCII 33..126, base 94.
std::string vcd_id(std::size_t i) {
    std::string id;
    do {
        id += static_cast<char>(33 + i % 94);
        i /= 94;
    } while (i);
    return id;
}

std::string binary(std::uint64_t v) {
    if (!v) return "0";
    std::string b;
    for (; v; v >>= 1) b.insert(b.begin(), static_cast<char>('0' + (v & 1)));
    return b;
}

// A signal name GTKWave shows as one identifier.
std::string sanitize(std::string s) {
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) c = '_';
    return s;
}

}  // namespace

vcd_trace::vcd_trace(const soc& s)
    : period_ps_(s.cores().front()->clock_period().to_seconds() * 1e12),
      harts_(static_cast<unsigned>(s.cores().size())) {
    for (unsigned h = 0; h < harts_; ++h) var_of(fmt::format("hart{}_state", h), 2);
}

std::size_t vcd_trace::var_of(const std::string& name, unsigned width) {
    auto [it, fresh] = var_index_.emplace(name, vars_.size());
    if (fresh) vars_.push_back({name, width});
    return it->second;
}

void vcd_trace::hart_state(unsigned hart, const char* state, std::uint64_t at) {
    if (hart >= harts_) return;
    changes_.push_back({at, changes_.size(), hart, false, state_code(state)});
}

void vcd_trace::span(const std::string& track, const std::string&, std::uint64_t begin, std::uint64_t end,
                     const args&) {
    const std::size_t v = var_of(sanitize(track) + "_busy", 8);
    changes_.push_back({begin, changes_.size(), v, true, 1});
    changes_.push_back({end, changes_.size(), v, true, -1});
}

void vcd_trace::region(int hart, const std::string& name, bool begin, std::uint64_t at) {
    const std::size_t v = var_of(hart >= 0 ? fmt::format("hart{}_region", hart) : "regions", 16);
    auto [it, fresh] = region_ids_.emplace(name, static_cast<unsigned>(region_ids_.size()) + 1);
    auto& stack = open_regions_[hart];
    if (begin) {
        stack.push_back(it->second);
    } else {
        // Regions of one hart close innermost first; a mismatched end closes
        // the innermost open one of that name.
        auto pos = std::find(stack.rbegin(), stack.rend(), it->second);
        if (pos != stack.rend()) stack.erase(std::next(pos).base());
    }
    changes_.push_back({at, changes_.size(), v, false, stack.empty() ? 0 : stack.back()});
}

std::string vcd_trace::write(const std::string& path, std::uint64_t end_cycle) const {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
    if (!f) return std::strerror(errno);
    std::string o = "$version npusim --vcd $end\n$comment\n  hart<N>_state: 0 halted, 1 running, 2 wfi, 3 event "
                    "wait\n  <engine>_busy: spans in progress\n  hart<N>_region: innermost open trace-marker "
                    "region, 0 none";
    std::vector<std::string> names(region_ids_.size() + 1);
    for (const auto& [name, id] : region_ids_) names[id] = name;
    for (std::size_t id = 1; id < names.size(); ++id) o += fmt::format("\n    {} {}", id, names[id]);
    o += "\n$end\n$timescale 1ps $end\n$scope module npusim $end\n";
    for (std::size_t i = 0; i < vars_.size(); ++i)
        o += fmt::format("$var wire {} {} {} $end\n", vars_[i].width, vcd_id(i), vars_[i].name);
    o += "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n";
    std::vector<std::int64_t> value(vars_.size(), 0);
    for (std::size_t i = 0; i < vars_.size(); ++i) o += fmt::format("b0 {}\n", vcd_id(i));
    o += "$end\n";

    std::vector<change> sorted = changes_;
    std::stable_sort(sorted.begin(), sorted.end(), [](const change& a, const change& b) {
        return a.at != b.at ? a.at < b.at : a.seq < b.seq;
    });
    auto ps = [this](std::uint64_t cycle) {
        return static_cast<std::uint64_t>(std::llround(static_cast<double>(cycle) * period_ps_));
    };
    std::uint64_t shown = 0;
    bool any_at_time = false;
    std::size_t i = 0;
    while (i < sorted.size() && sorted[i].at <= end_cycle) {
        // All changes of one cycle, then the values that differ from before.
        const std::uint64_t at = sorted[i].at;
        std::vector<std::int64_t> before = value;
        for (; i < sorted.size() && sorted[i].at == at; ++i) {
            const change& c = sorted[i];
            value[c.var] = c.delta ? std::max<std::int64_t>(0, value[c.var] + c.value) : c.value;
        }
        std::string lines;
        for (std::size_t v = 0; v < value.size(); ++v)
            if (value[v] != before[v])
                lines += fmt::format("b{} {}\n", binary(static_cast<std::uint64_t>(value[v])), vcd_id(v));
        if (lines.empty()) continue;
        if (!any_at_time || ps(at) != shown) o += fmt::format("#{}\n", ps(at));
        shown = ps(at);
        any_at_time = true;
        o += lines;
        if (o.size() > (1u << 20)) {
            if (std::fwrite(o.data(), 1, o.size(), f.get()) != o.size()) return std::strerror(errno);
            o.clear();
        }
    }
    o += fmt::format("#{}\n", std::max(ps(end_cycle), shown));
    if (std::fwrite(o.data(), 1, o.size(), f.get()) != o.size()) return std::strerror(errno);
    // The close flushes the buffer: a full disk fails here.
    if (std::fclose(f.release()) != 0) return std::strerror(errno);
    return {};
}

}  // namespace npu::platform
