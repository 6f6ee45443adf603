#include "timeline.h"

#include <cerrno>
#include <cstring>

#include "cpu/core.h"

#include <fmt/core.h>

#include <fstream>

namespace npu::platform {

namespace {

std::string json_string(const std::string& s) {
    std::string o = "\"";
    for (unsigned char ch : s) {
        switch (ch) {
        case '"': o += "\\\""; break;
        case '\\': o += "\\\\"; break;
        case '\n': o += "\\n"; break;
        case '\t': o += "\\t"; break;
        default:
            if (ch < 0x20)
                o += fmt::format("\\u{:04x}", ch);
            else
                o += static_cast<char>(ch);
        }
    }
    return o + "\"";
}

// Counters are sampled at most this often (cycles) between forced samples.
constexpr std::uint64_t sample_period = 1000;

}  // namespace

timeline::timeline(soc& s) : soc_(s) {
    const auto& period = s.cores().front()->clock_period();
    mhz_ = 1e-6 / period.to_seconds();
    harts_.resize(s.cores().size());
    for (const auto& c : s.cores())
        tid(fmt::format("hart {} ({})", c->hart_id(), c->is_cluster_controller() ? "cluster controller" : "worker"));
    s.context().activity = this;
}

timeline::~timeline() {
    if (soc_.context().activity == this) soc_.context().activity = nullptr;
}

int timeline::tid(const std::string& track) {
    auto [it, fresh] = tids_.emplace(track, static_cast<int>(tids_.size()) + 1);
    if (fresh)
        events_.push_back(fmt::format(
            R"({{"ph":"M","pid":1,"tid":{},"name":"thread_name","args":{{"name":{}}}}})", it->second,
            json_string(track)));
    return it->second;
}

void timeline::slice(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
                     const args& details) {
    std::string a = fmt::format(R"("begin_cycle":{},"end_cycle":{},"cycles":{})", begin, end, end - begin);
    for (const auto& [k, v] : details) a += "," + json_string(k) + ":" + json_string(v);
    events_.push_back(fmt::format(R"({{"ph":"X","pid":1,"tid":{},"name":{},"ts":{:.4f},"dur":{:.4f},"args":{{{}}}}})",
                                  tid(track), json_string(name), us(begin), us(end - begin), a));
}

void timeline::hart_state(unsigned hart, const char* state, std::uint64_t at) {
    if (hart >= harts_.size()) return;
    open_state& o = harts_[hart];
    const cpu::core& c = *soc_.cores()[hart];
    const std::string track =
        fmt::format("hart {} ({})", hart, c.is_cluster_controller() ? "cluster controller" : "worker");
    if (!o.state.empty() && at > o.since) slice(track, o.state, o.since, at, {});
    o.state = std::string(state) == "halted" ? std::string() : state;
    o.since = at;
    sample_traffic(at, false);
}

void timeline::hart_stall(unsigned hart, std::uint64_t at, std::uint64_t cycles, std::uint64_t stall) {
    if (!cycles) return;
    events_.push_back(fmt::format(R"({{"ph":"C","pid":1,"name":"hart {} memory stall %","ts":{:.4f},"args":{{"stall":{:.1f}}}}})",
                                  hart, us(at), 100.0 * static_cast<double>(stall) / static_cast<double>(cycles)));
    sample_traffic(at, false);
}

void timeline::span(const std::string& track, const std::string& name, std::uint64_t begin, std::uint64_t end,
                    const args& details) {
    slice(track, name, begin, end, details);
    sample_traffic(end, true);
}

void timeline::region(int hart, const std::string& name, bool begin, std::uint64_t at) {
    auto& stack = open_regions_[hart];
    if (begin) {
        stack.emplace_back(name, at);
    } else {
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            if (it->first != name) continue;
            slice(hart >= 0 ? fmt::format("regions hart {}", hart) : std::string("regions"), name, it->second, at,
                  {{"region", name}});
            stack.erase(std::next(it).base());
            break;
        }
    }
    sample_traffic(at, true);
}

void timeline::sample_traffic(std::uint64_t at, bool force) {
    if (!force && at < last_sample_ + sample_period) return;
    const auto& names = soc_.context().traffic.targets();
    std::vector<std::uint64_t> bytes(names.size(), 0);
    for (const base::bus_initiator* b : soc_.initiators())
        for (std::size_t t = 0; t < names.size() && t < std::size_t(base::traffic_registry::max_targets); ++t)
            bytes[t] += b->traffic().read_bytes[t] + b->traffic().write_bytes[t];
    if (bytes == last_bytes_) return;
    for (std::size_t t = 0; t < names.size(); ++t)
        if (t >= last_bytes_.size() || bytes[t] != last_bytes_[t])
            events_.push_back(fmt::format(R"({{"ph":"C","pid":1,"name":"bytes {}","ts":{:.4f},"args":{{"bytes":{}}}}})",
                                          names[t], us(std::max(at, last_sample_)), bytes[t]));
    last_bytes_ = std::move(bytes);
    last_sample_ = std::max(at, last_sample_);
}

std::string timeline::write(const std::string& path, std::uint64_t end_cycle) {
    for (unsigned h = 0; h < harts_.size(); ++h)
        if (!harts_[h].state.empty()) hart_state(h, "halted", std::max(end_cycle, harts_[h].since));
    for (auto& [hart, stack] : open_regions_)
        while (!stack.empty()) region(hart, stack.back().first, false, std::max(end_cycle, stack.back().second));
    sample_traffic(end_cycle, true);
    std::ofstream out(path);
    if (!out) return std::strerror(errno);
    out << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"npusim --trace\",\"cluster_clock_mhz\":"
        << fmt::format("{:.3f}", mhz_) << "},\"traceEvents\":[\n";
    out << events_.front();  // a thread_name: there is always a hart
    for (std::size_t i = 1; i < events_.size(); ++i) out << ",\n" << events_[i];
    out << "\n]}\n";
    out.close();  // flushes: a full disk fails here
    return out.fail() ? std::string(errno ? std::strerror(errno) : "write failed") : std::string();
}

}  // namespace npu::platform
