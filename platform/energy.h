// Energy of a run from its event counts: per-event energies (energy.* keys,
// docs/architects.md for their sources) times what the models counted —
// cores' executing and sleeping cycles and instructions per class, bytes read and written per memory
// level, systolic-array MACs by type, DMA bytes — plus leakage power over
// the run. Computed after the run from counters the models keep anyway, so
// it costs nothing on the simulation's hot paths.
#pragma once

#include "soc.h"

#include "cpu/isa.h"

#include <string>
#include <vector>

namespace npu::platform {

struct energy_model {
    // femtojoules per event; leakage in microwatts; all at energy.voltage
    // (the keys' figures scaled from energy.reference_voltage)
    double core_active = 0, core_sleep = 0, sa_mac_int8 = 0, sa_mac_f32 = 0, dma_byte = 0, leakage_uw = 0;
    double insn[cpu::cc_count] = {};  // per instruction class (cpu::cost_class), on top of core_active
    // Per block: fJ per cycle the SA / DMA is idle (not busy); leakage in
    // microwatts per core and of the SA and the DMA.
    double sa_idle = 0, dma_idle = 0, core_leakage_uw = 0, sa_leakage_uw = 0, dma_leakage_uw = 0;
    struct level {
        std::string name;  // l1, l2, l3 (a traffic target)
        double read = 0, write = 0;
        double leakage_uw = 0;
    };
    double l1_bank_access = 0;  // fJ per access of one L1 bank (on top of l1's per-byte figures)
    double l1_bank_width = 4;   // bytes (l1.bank_width)
    std::vector<level> levels;
    double clock_hz = 1;
    static energy_model from(const cfg::config& cfg);
};

// Joules per block, in a fixed order: cores, l1, l2, l3, sa, dma, leakage.
struct energy_breakdown {
    std::vector<std::pair<std::string, double>> blocks;
    double total() const;
};

// The whole run.
energy_breakdown run_energy(const energy_model& m, const soc& s, std::uint64_t cycles);

// The instruction classes' part of the cores' energy in the whole run, in
// joules, by class (the names of energy.insn_<class>).
std::vector<std::pair<std::string, double>> insn_energy(const energy_model& m, const soc& s);

// A region's busy cycles of the engine whose statistics include `marker`
// ("macs": the SA, "bursts": the DMA), from the busy counters the region
// sampled (one per "busy_cycles" statistic, in the registry's order).
std::uint64_t region_busy(const soc& s, const std::vector<std::uint64_t>& busy, const std::string& marker);

// Whether most of the run's systolic-array MACs were fp32: a layer's MACs
// (npuc's count) carry no type, the run's SA statistics tell.
bool sa_macs_mostly_f32(const soc& s);

// One marked region (a layer), `sa_busy`/`dma_busy` of its cycles with the
// engine busy: the workers' executing cycles in it (their
// instruction classes' energy attributed pro rata: the run's per executing
// cycle, as regions keep no per-class counts), the bytes
// every initiator moved per level in it, its MACs (npuc's count; `f32` says
// which MAC energy applies), the engines' idle cycles, and every block's
// leakage over its cycles.
energy_breakdown region_energy(const energy_model& m, const soc& s, std::uint64_t region_cycles,
                               std::uint64_t worker_cycles, const std::vector<std::uint64_t>& read_bytes,
                               const std::vector<std::uint64_t>& write_bytes, std::uint64_t macs, bool f32,
                               std::uint64_t sa_busy, std::uint64_t dma_busy);

}  // namespace npu::platform
