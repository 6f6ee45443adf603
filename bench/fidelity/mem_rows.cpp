// The memory system's rows of the fidelity table: runs the
// fwtest_mem_fidelity firmware (firmware/tests/mem_fidelity.c) on npusim
// (NPUSIM names it, NPU_MEM_FIDELITY_ELF the firmware) and compares each
// figure it prints with its reference (docs/memory-map.md):
//   - L1 bank conflicts: n contenders on one single-ported bank get at most
//     one access per cycle, so a load takes max(alone, n) cycles;
//   - the cluster's path to L2: GVSoC's 1.8x for 8 cores streaming from L2
//     against one (issue #17's GVSoC comparison);
//   - DMA: 8 B/cycle L2 <-> L1 per cluster DMA (DORY's GAP9 hardware
//     description); L3 the PSRAM pin limit l3.psram_clock x
//     l3.psram_bytes_per_clock / soc.cluster_clock (APS256XXN x8 DDR at
//     200 MHz: 400 MB/s = 1.08 B/cycle at 370 MHz);
//   - the DMA and the cores in the same banks: one access per bank per
//     cycle bounds the workers' loads (their bank also serves the DMA's
//     words); the DMA's bound is its own rate alone. In other banks both
//     keep their rate alone.
//   - the SA and the DMA in the same banks and in other banks, and the DMA
//     from L2 with the workers loading from L2: each against its figure
//     alone (no independent reference; the rows show the slowdowns).
// The run failing, or a row missing from its output, ends the bench with
// exit code 1 and the reason.
#include "fidelity.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <sys/wait.h>

namespace npu::fidelity {
namespace {

// Loads per worker and DMA words per bank in the firmware's section 3
// (ITERS x UNROLL; MIX_ROWS rows of MIX_ROW bytes, one word per bank each).
constexpr double mix_loads = 2048, mix_dma_words_per_bank = 512;
constexpr double pin_b_per_cycle = 400.0 / 370.0;  // l3.psram_* at soc.cluster_clock (gap9.cfg)

[[noreturn]] void die(const std::string& why) {
    fmt::print(stderr, "fidelity (memory rows): {}\n", why);
    std::exit(1);
}

std::string run_firmware() {
    const char* npusim = std::getenv("NPUSIM");
    const char* elf = std::getenv("NPU_MEM_FIDELITY_ELF");
    if (!npusim || !elf) die("NPUSIM and NPU_MEM_FIDELITY_ELF must name npusim and fwtest_mem_fidelity.elf");
    // The data path only, as in fw.mem_fidelity: its timed loops run once,
    // cold, so instruction-cache misses would count as load cycles.
    const std::string cmd = fmt::format("'{}' --icache.enabled=false '{}' 2>&1", npusim, elf);
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) die("cannot run " + cmd);
    std::string out;
    std::array<char, 4096> buf;
    for (std::size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
    const int st = pclose(p);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
        die(fmt::format("{} failed (status {}):\n{}", cmd, st, out));
    return out;
}

double num(const std::string& s) { return std::stod(s); }

group mem_group() {
    const std::string out = run_firmware();
    group g;
    g.name = "memory";
    g.title = "Memory system: firmware/tests/mem_fidelity.c on gap9 (L1 banks, L2 path, DMA routes, DMA + cores, SA + DMA)";
    std::smatch m;
    const std::regex bank(R"(bank: (\d+) workers, cycles per load: one bank ([\d.]+), own banks ([\d.]+), slowdown)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), bank); it != std::sregex_iterator(); ++it) {
        const double n = num((*it)[1]), one = num((*it)[2]), own = num((*it)[3]);
        g.rows.push_back({fmt::format("L1 bank: {:.0f} workers, slowdown", n), one / own, "round-robin bound",
                          std::max(own, n) / own, "x"});
    }
    const std::regex l2(R"(l2: 8 workers, cycles per load [\d.]+, slowdown ([\d.]+)x)");
    if (std::regex_search(out, m, l2)) g.rows.push_back({"L2 path: 8 workers, slowdown", num(m[1]), "GVSoC", 1.8, "x"});
    const std::regex dma(R"(dma: (\S+) (\d+) channels? ([\d.]+) B/cycle)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), dma); it != std::sregex_iterator(); ++it) {
        const std::string route = (*it)[1];
        const bool l3 = route.find("l3") != std::string::npos;
        g.rows.push_back({fmt::format("DMA {}, {} ch", route, (*it)[2].str()), num((*it)[3]),
                          l3 ? "PSRAM pin limit" : "DORY GAP9 L2<->L1", l3 ? pin_b_per_cycle : 8.0, "B/cycle"});
    }
    const std::regex mix(R"(mix: (same|other) banks: dma ([\d.]+) B/cycle alone, ([\d.]+) with 7 workers loading; )"
                         R"(worker cycles per load ([\d.]+) alone, ([\d.]+) with the dma)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), mix); it != std::sregex_iterator(); ++it) {
        const bool same = (*it)[1] == "same";
        const double dma_alone = num((*it)[2]), dma_mixed = num((*it)[3]);
        const double load_alone = num((*it)[4]), load_mixed = num((*it)[5]);
        const double load_bound =
            same ? std::max(load_alone, (mix_loads + mix_dma_words_per_bank) / mix_loads) : load_alone;
        g.rows.push_back({fmt::format("DMA+cores, {} banks: load", (*it)[1].str()), load_mixed,
                          same ? "1 access/bank/cycle" : "alone", load_bound, "cycles/load"});
        g.rows.push_back({fmt::format("DMA+cores, {} banks: DMA", (*it)[1].str()), dma_mixed, "DMA alone", dma_alone,
                          "B/cycle"});
    }
    const std::regex sa_mix(R"(sa mix: (same|other) banks: dma ([\d.]+) B/cycle alone, ([\d.]+) with the sa job; )"
                            R"(sa job (\d+) cycles alone, (\d+) with the dma)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), sa_mix); it != std::sregex_iterator(); ++it) {
        const std::string banks = (*it)[1];
        g.rows.push_back({fmt::format("SA+DMA, {} banks: DMA", banks), num((*it)[3]), "DMA alone", num((*it)[2]),
                          "B/cycle"});
        g.rows.push_back({fmt::format("SA+DMA, {} banks: SA job", banks), num((*it)[5]), "SA job alone",
                          num((*it)[4]), "cycles"});
    }
    const std::regex path(R"(l2 path: dma l2->l1 ([\d.]+) B/cycle alone, ([\d.]+) with 7 workers loading from l2; )"
                          R"(worker cycles per load ([\d.]+) alone, ([\d.]+) with the dma)");
    if (std::regex_search(out, m, path)) {
        g.rows.push_back({"L2 path: DMA l2->l1 + 7 workers", num(m[2]), "DMA alone", num(m[1]), "B/cycle"});
        g.rows.push_back({"L2 path: 7 workers' load + DMA", num(m[4]), "alone", num(m[3]), "cycles/load"});
    }
    if (g.rows.size() < 22) die(fmt::format("the firmware printed {} of the 22 rows:\n{}", g.rows.size(), out));
    g.notes = {
        "cycles per load: the team's (its slowest worker's); B/cycle from the push to the end of the wait.",
        "round-robin bound: n loads on one bank take max(alone, n) cycles (alone: 1.12 cycles per load in a",
        "  32-load loop: CV32E40P's 1-cycle TCDM access + the loop's addi and taken branch).",
        "DMA+cores: 16 KiB L2 -> L1 as 512 rows of 32 B into banks 0..7 (same) or 8..15 (other) while workers",
        "  1..7 each load 2048 times from banks 1..7; same banks: each of those banks also serves 512 DMA words,",
        "  so at one access per cycle the loads take (2048 + 512) / 2048 cycles each if those words fall in the",
        "  loop. Ours is lower and the DMA slower: the DMA waits for the bank-cycles the workers booked ahead",
        "  (the remaining error of temporal decoupling, docs/memory-map.md).",
        "SA+DMA: an fp32 SA job 256x8x8 whose rows (32 B, 64 B apart) lie in banks 0..7, with the same DMA into",
        "  banks 0..7 (same) or 8..15 (other). The SA books its whole job at START, so it slows the DMA and",
        "  the DMA barely slows it (docs/sa.md).",
        "L2 path: 8 KiB L2 -> L1 on one channel while workers 1..7 each load 2048 times from L2; the DMA's",
        "  bursts and the loads share the cluster's path to L2 (docs/memory-map.md)."};
    return g;
}

const registrar reg{20, mem_group};

}  // namespace
}  // namespace npu::fidelity
