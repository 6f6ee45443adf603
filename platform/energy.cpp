#include "energy.h"

#include "cpu/core.h"

namespace npu::platform {

namespace {

constexpr double fj = 1e-15;

// A statistic by name from the first group that has it (the SA's "macs", the
// DMA's "bytes" next to its "bursts").
std::uint64_t stat(const soc& s, const std::string& name, const std::string& beside = "") {
    for (const auto& g : s.context().stats.groups()) {
        bool has_beside = beside.empty();
        const std::uint64_t* v = nullptr;
        for (const auto& x : g.values) {
            if (x.name == name) v = x.value;
            if (x.name == beside) has_beside = true;
        }
        if (v && has_beside) return *v;
    }
    return 0;
}

void levels_energy(const energy_model& m, const soc& s, const std::vector<std::uint64_t>& rd,
                   const std::vector<std::uint64_t>& wr, energy_breakdown& e) {
    const auto& targets = s.context().traffic.targets();
    for (const auto& l : m.levels) {
        double j = 0;
        for (std::size_t t = 0; t < targets.size(); ++t)
            if (targets[t] == l.name)
                j += (static_cast<double>(rd[t]) * l.read + static_cast<double>(wr[t]) * l.write) * fj;
        e.blocks.emplace_back(l.name, j);
    }
}

}  // namespace

energy_model energy_model::from(const cfg::config& cfg) {
    energy_model m;
    auto f = [&](const char* k) { return static_cast<double>(cfg.count(k)); };
    m.core_active = f("energy.core_active_cycle");
    m.core_sleep = f("energy.core_sleep_cycle");
    m.sa_mac_int8 = f("energy.sa_mac_int8");
    m.sa_mac_f32 = f("energy.sa_mac_f32");
    m.dma_byte = f("energy.dma_byte");
    m.leakage_uw = f("energy.leakage_power");
    for (const char* l : {"l1", "l2", "l3"})
        m.levels.push_back({l, f((std::string("energy.") + l + "_read_byte").c_str()),
                            f((std::string("energy.") + l + "_write_byte").c_str())});
    m.clock_hz = static_cast<double>(cfg.frequency_hz("soc.cluster_clock"));
    return m;
}

double energy_breakdown::total() const {
    double t = 0;
    for (const auto& b : blocks) t += b.second;
    return t;
}

energy_breakdown run_energy(const energy_model& m, const soc& s, std::uint64_t cycles) {
    energy_breakdown e;
    double active = 0, sleeping = 0;
    for (const auto& c : s.cores()) {
        const auto run = static_cast<double>(c->state().cycle);
        active += run;
        sleeping += std::max(0.0, static_cast<double>(cycles) - run);
    }
    e.blocks.emplace_back("cores", (active * m.core_active + sleeping * m.core_sleep) * fj);
    const auto& targets = s.context().traffic.targets();
    std::vector<std::uint64_t> rd(targets.size()), wr(targets.size());
    for (const auto* i : s.initiators())
        for (std::size_t t = 0; t < targets.size(); ++t) {
            rd[t] += i->traffic().read_bytes[t];
            wr[t] += i->traffic().write_bytes[t];
        }
    levels_energy(m, s, rd, wr, e);
    const auto macs = static_cast<double>(stat(s, "macs")), f32 = static_cast<double>(stat(s, "macs_f32"));
    e.blocks.emplace_back("sa", ((macs - f32) * m.sa_mac_int8 + f32 * m.sa_mac_f32) * fj);
    e.blocks.emplace_back("dma", static_cast<double>(stat(s, "bytes", "bursts")) * m.dma_byte * fj);
    e.blocks.emplace_back("leakage", m.leakage_uw * 1e-6 * static_cast<double>(cycles) / m.clock_hz);
    return e;
}

bool sa_macs_mostly_f32(const soc& s) { return 2 * stat(s, "macs_f32") > stat(s, "macs"); }

energy_breakdown region_energy(const energy_model& m, const soc& s, std::uint64_t region_cycles,
                               std::uint64_t worker_cycles, const std::vector<std::uint64_t>& read_bytes,
                               const std::vector<std::uint64_t>& write_bytes, std::uint64_t macs, bool f32) {
    energy_breakdown e;
    e.blocks.emplace_back("cores", static_cast<double>(worker_cycles) * m.core_active * fj);
    levels_energy(m, s, read_bytes, write_bytes, e);
    e.blocks.emplace_back("sa", static_cast<double>(macs) * (f32 ? m.sa_mac_f32 : m.sa_mac_int8) * fj);
    // The DMA's own datapath per region is not counted separately: its bytes
    // are in the levels above (and energy.dma_byte is 0 by default).
    e.blocks.emplace_back("leakage", m.leakage_uw * 1e-6 * static_cast<double>(region_cycles) / m.clock_hz);
    return e;
}

}  // namespace npu::platform
