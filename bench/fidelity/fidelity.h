// bench/fidelity: our figures against independent references, one table.
//
// A group of rows (the SA, DMA routes, L3 bandwidth, L1 bank conflicts, ...)
// lives in its own file and registers itself:
//
//     namespace { fidelity::group sa_group() { ... return g; } }
//     static const fidelity::registrar reg{20, sa_group};
//
// and is added to the fidelity_bench sources in bench/CMakeLists.txt. Groups
// print in ascending `order`. A maker runs in sc_main before anything is
// elaborated: a group that needs a simulation runs npusim (NPUSIM in the
// environment names it) rather than elaborating models in this process,
// since SystemC allows one elaboration per process.
#pragma once

#include <string>
#include <vector>

namespace npu::fidelity {

struct row {
    std::string item;       // what is measured, e.g. "mlp_int8: 8 jobs"
    double ours = 0;        // our figure
    std::string reference;  // what it is compared with, e.g. "SCALE-Sim WS formula"
    double ref = 0;         // the reference's figure
    std::string unit;       // "cycles", "B/cycle", ...
};

struct group {
    std::string name;        // short, first column: "SA", "DMA", "L3", "L1 banks"
    std::string title;       // one line above the group's rows
    std::vector<row> rows;
    std::vector<std::string> notes;  // printed under the rows
};

using group_maker = group (*)();

struct registrar {
    registrar(int order, group_maker make);
};

}  // namespace npu::fidelity
