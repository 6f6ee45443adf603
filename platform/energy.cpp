#include "energy.h"

#include "cpu/core.h"

namespace npu::platform {

namespace {

constexpr double fj = 1e-15;

// energy.insn_<name> for each cpu::cost_class, in its order.
constexpr const char* class_names[cpu::cc_count] = {"alu",   "mul",   "div", "branch", "jump",
                                                    "load", "store", "fpu", "fdiv",   "amo"};

// All cores' instruction energy and executing cycles (joules, cycles).
std::pair<double, double> cores_insn(const energy_model& m, const soc& s) {
    double j = 0, active = 0;
    for (const auto& cls : insn_energy(m, s)) j += cls.second;
    for (const auto& c : s.cores()) active += static_cast<double>(c->state().cycle);
    return {j, active};
}

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

// `seconds`: the span the levels' leakage is charged over; `l1_banks`: the
// L1 bank accesses.
void levels_energy(const energy_model& m, const soc& s, const std::vector<std::uint64_t>& rd,
                   const std::vector<std::uint64_t>& wr, double seconds, double l1_banks, energy_breakdown& e) {
    const auto& targets = s.context().traffic.targets();
    for (const auto& l : m.levels) {
        double j = 0;
        for (std::size_t t = 0; t < targets.size(); ++t)
            if (targets[t] == l.name)
                j += (static_cast<double>(rd[t]) * l.read + static_cast<double>(wr[t]) * l.write) * fj;
        if (l.name == "l1") j += l1_banks * m.l1_bank_access * fj;
        e.blocks.emplace_back(l.name, j + l.leakage_uw * 1e-6 * seconds);
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
    for (int k = 0; k < cpu::cc_count; ++k) m.insn[k] = f((std::string("energy.insn_") + class_names[k]).c_str());
    m.sa_idle = f("energy.sa_idle_cycle");
    m.dma_idle = f("energy.dma_idle_cycle");
    m.core_leakage_uw = f("energy.core_leakage_power");
    m.sa_leakage_uw = f("energy.sa_leakage_power");
    m.dma_leakage_uw = f("energy.dma_leakage_power");
    for (auto& l : m.levels) l.leakage_uw = f(("energy." + l.name + "_leakage_power").c_str());
    m.l1_bank_access = f("energy.l1_bank_access");
    m.l1_bank_width = static_cast<double>(cfg.size("l1.bank_width"));
    m.clock_hz = static_cast<double>(cfg.frequency_hz("soc.cluster_clock"));
    // The voltage point: dynamic energy goes with V^2, leakage with V.
    const double v = f("energy.voltage") / f("energy.reference_voltage");
    for (double* d : {&m.core_active, &m.core_sleep, &m.sa_mac_int8, &m.sa_mac_f32, &m.dma_byte, &m.sa_idle, &m.dma_idle,
                      &m.l1_bank_access})
        *d *= v * v;
    for (double* d : {&m.core_leakage_uw, &m.sa_leakage_uw, &m.dma_leakage_uw}) *d *= v;
    for (double& d : m.insn) d *= v * v;
    for (auto& l : m.levels) {
        l.read *= v * v;
        l.write *= v * v;
        l.leakage_uw *= v;
    }
    m.leakage_uw *= v;
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
    const double seconds = static_cast<double>(cycles) / m.clock_hz;
    const double n_cores = static_cast<double>(s.cores().size());
    e.blocks.emplace_back("cores", (active * m.core_active + sleeping * m.core_sleep) * fj + cores_insn(m, s).first +
                                       n_cores * m.core_leakage_uw * 1e-6 * seconds);
    const auto& targets = s.context().traffic.targets();
    std::vector<std::uint64_t> rd(targets.size()), wr(targets.size());
    for (const auto* i : s.initiators())
        for (std::size_t t = 0; t < targets.size(); ++t) {
            rd[t] += i->traffic().read_bytes[t];
            wr[t] += i->traffic().write_bytes[t];
        }
    // L1 bank accesses: one per core load or store (a word or less), and one
    // per bank width of every other initiator's bursts.
    double l1_banks = 0;
    for (std::size_t t = 0; t < targets.size(); ++t)
        if (targets[t] == "l1") {
            double core_bytes = 0;
            for (const auto& c : s.cores()) {
                l1_banks += static_cast<double>(c->loads(static_cast<int>(t)) + c->stores(static_cast<int>(t)));
                core_bytes += static_cast<double>(c->bus.traffic().read_bytes[t] + c->bus.traffic().write_bytes[t]);
            }
            l1_banks += std::max(0.0, static_cast<double>(rd[t] + wr[t]) - core_bytes) / m.l1_bank_width;
        }
    levels_energy(m, s, rd, wr, seconds, l1_banks, e);
    const auto macs = static_cast<double>(stat(s, "macs")), f32 = static_cast<double>(stat(s, "macs_f32"));
    const auto idle = [&](std::uint64_t busy) { return static_cast<double>(cycles > busy ? cycles - busy : 0); };
    e.blocks.emplace_back("sa", ((macs - f32) * m.sa_mac_int8 + f32 * m.sa_mac_f32 +
                                 idle(stat(s, "busy_cycles", "macs")) * m.sa_idle) * fj +
                                    m.sa_leakage_uw * 1e-6 * seconds);
    e.blocks.emplace_back("dma", (static_cast<double>(stat(s, "bytes", "bursts")) * m.dma_byte +
                                  idle(stat(s, "busy_cycles", "bursts")) * m.dma_idle) * fj +
                                     m.dma_leakage_uw * 1e-6 * seconds);
    e.blocks.emplace_back("leakage", m.leakage_uw * 1e-6 * static_cast<double>(cycles) / m.clock_hz);
    return e;
}

std::vector<std::pair<std::string, double>> insn_energy(const energy_model& m, const soc& s) {
    std::vector<std::pair<std::string, double>> r;
    for (int k = 0; k < cpu::cc_count; ++k) {
        double j = 0;
        for (const auto& c : s.cores()) j += static_cast<double>(c->state().class_insns[k]) * m.insn[k] * fj;
        r.emplace_back(class_names[k], j);
    }
    return r;
}

std::uint64_t region_busy(const soc& s, const std::vector<std::uint64_t>& busy, const std::string& marker) {
    std::size_t i = 0;
    for (const auto& g : s.context().stats.groups()) {
        bool busy_here = false, marked = false;
        for (const auto& v : g.values) {
            busy_here = busy_here || v.name == "busy_cycles";
            marked = marked || v.name == marker;
        }
        if (busy_here && marked) return i < busy.size() ? busy[i] : 0;
        for (const auto& v : g.values)
            if (v.name == "busy_cycles") ++i;
    }
    return 0;
}

bool sa_macs_mostly_f32(const soc& s) { return 2 * stat(s, "macs_f32") > stat(s, "macs"); }

energy_breakdown region_energy(const energy_model& m, const soc& s, std::uint64_t region_cycles,
                               std::uint64_t worker_cycles, const std::vector<std::uint64_t>& read_bytes,
                               const std::vector<std::uint64_t>& write_bytes, std::uint64_t macs, bool f32,
                               std::uint64_t sa_busy, std::uint64_t dma_busy) {
    energy_breakdown e;
    const double seconds = static_cast<double>(region_cycles) / m.clock_hz;
    const auto idle = [&](std::uint64_t busy) {
        return static_cast<double>(region_cycles > busy ? region_cycles - busy : 0);
    };
    const auto [insn_j, active] = cores_insn(m, s);
    const double insn_per_cycle = active > 0 ? insn_j / active : 0;
    e.blocks.emplace_back("cores", static_cast<double>(worker_cycles) * (m.core_active * fj + insn_per_cycle) +
                                       static_cast<double>(s.cores().size()) * m.core_leakage_uw * 1e-6 * seconds);
    // L1 bank accesses: regions count bytes, not accesses: one per bank width.
    double l1_banks = 0;
    const auto& targets = s.context().traffic.targets();
    for (std::size_t t = 0; t < targets.size(); ++t)
        if (targets[t] == "l1") l1_banks += static_cast<double>(read_bytes[t] + write_bytes[t]) / m.l1_bank_width;
    levels_energy(m, s, read_bytes, write_bytes, seconds, l1_banks, e);
    e.blocks.emplace_back("sa", (static_cast<double>(macs) * (f32 ? m.sa_mac_f32 : m.sa_mac_int8) +
                                 idle(sa_busy) * m.sa_idle) * fj +
                                    m.sa_leakage_uw * 1e-6 * seconds);
    // The DMA's own datapath per byte is not counted per region: its bytes
    // are in the levels above (and energy.dma_byte is 0 by default).
    e.blocks.emplace_back("dma", idle(dma_busy) * m.dma_idle * fj + m.dma_leakage_uw * 1e-6 * seconds);
    e.blocks.emplace_back("leakage", m.leakage_uw * 1e-6 * static_cast<double>(region_cycles) / m.clock_hz);
    return e;
}

}  // namespace npu::platform
