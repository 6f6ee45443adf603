// Prints every registered group of the fidelity table (fidelity.h).
#include "fidelity.h"

#include <fmt/format.h>

#include <systemc>

#include <algorithm>
#include <utility>

namespace npu::fidelity {

namespace {
std::vector<std::pair<int, group_maker>>& makers() {
    static std::vector<std::pair<int, group_maker>> m;
    return m;
}
}  // namespace

registrar::registrar(int order, group_maker make) { makers().emplace_back(order, make); }

namespace {
// Whole numbers as they are (cycles), others with two decimals (B/cycle).
std::string figure(double v) { return v == double(static_cast<long long>(v)) ? fmt::format("{:.0f}", v) : fmt::format("{:.2f}", v); }
}  // namespace

}  // namespace npu::fidelity

int sc_main(int, char**) {
    using namespace npu::fidelity;
    using npu::fidelity::figure;
    auto& ms = makers();
    std::stable_sort(ms.begin(), ms.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    fmt::print("{:<9} {:<40} {:>10} {:<22} {:>10} {:>8}\n", "group", "measurement", "ours", "reference", "ref value",
               "ours/ref");
    for (const auto& [order, make] : ms) {
        const group g = make();
        fmt::print("\n{}\n", g.title);
        for (const row& r : g.rows)
            fmt::print("{:<9} {:<40} {:>10} {:<22} {:>10} {:>7.2f}x  {}\n", g.name, r.item, figure(r.ours), r.reference,
                       figure(r.ref), r.ref ? r.ours / r.ref : 0.0, r.unit);
        for (const std::string& n : g.notes) fmt::print("  {}\n", n);
    }
    return 0;
}
