// Statistics and per-memory traffic ids, collected per SoC (sim_context) for
// the end-of-run report and --stats.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace npu::base {

struct stat_value {
    std::string name;
    std::string unit;
    std::string description;
    const std::uint64_t* value;  // points into the owning component
};

// Every component's counters, in creation order.
class stats_registry {
public:
    struct group {
        std::string owner;  // hierarchical name
        std::vector<stat_value> values;
    };
    group& add_group(const std::string& owner);
    const std::deque<group>& groups() const { return groups_; }

private:
    std::deque<group> groups_;  // deque: components keep pointers to their group
};

// Memories (and anything whose traffic the report breaks down) get a small
// integer id; initiators count bytes per id without any lookup per access.
class traffic_registry {
public:
    static constexpr int max_targets = 16;
    int add_target(const std::string& name);
    const std::vector<std::string>& targets() const { return names_; }

private:
    std::vector<std::string> names_;
};

struct traffic_counters {
    std::uint64_t read_bytes[traffic_registry::max_targets] = {};
    std::uint64_t write_bytes[traffic_registry::max_targets] = {};
};

}  // namespace npu::base
