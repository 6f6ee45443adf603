// The memory map as data: regions, per-initiator visibility and the optional
// alias window, built and validated from a config. The router decodes with
// it, the loader places segments with it, bus-error reports describe
// addresses with it, and the compiler places tensors with it.
#pragma once

#include "config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace npu::cfg {

enum class region_kind { memory, peripheral };

struct region {
    std::string name;       // config section: "l1", "l2", "soc_periph", ...
    region_kind kind;
    std::uint64_t base;
    std::uint64_t size;
    std::uint64_t end() const { return base + size; }  // exclusive
    bool contains(std::uint64_t a) const { return a >= base && a < end(); }
};

// The classes of bus initiators; each has its own view of the map.
enum class initiator_class { core, dma, sa, loader };
inline constexpr int num_initiator_classes = 4;
const char* initiator_class_name(initiator_class c);

// The alias window maps [base, base+size) onto the start of `target`.
struct alias_window {
    bool enabled = false;
    std::uint64_t base = 0;
    std::uint64_t size = 0;
    std::string target;
    std::vector<initiator_class> initiators;
};

// What an address means to one initiator, for decode and for reports.
struct address_info {
    enum class status { mapped, not_visible, unmapped } what = status::unmapped;
    const region* target = nullptr;  // mapped / not_visible: the region hit
    std::uint64_t offset = 0;        // offset inside target
    bool via_alias = false;
    // unmapped: nearest region and the gap to it in bytes
    const region* nearest = nullptr;
    std::uint64_t distance = 0;
    bool below_nearest = false;      // address lies below nearest's base
    std::string describe() const;    // "unmapped (... 0x10 bytes below l1 ...)"
};

class memory_map {
public:
    static memory_map build(const config& c);  // throws config_error

    const std::vector<region>& regions() const { return regions_; }  // sorted by base
    const region* find_region(const std::string& name) const;
    int region_index(const std::string& name) const;  // -1 if none
    bool visible(initiator_class who, int region_idx) const;
    const alias_window& alias() const { return alias_; }

    address_info lookup(initiator_class who, std::uint64_t addr) const;

    // Human table of the map seen by each initiator (npusim --print-map).
    std::string print() const;

private:
    std::vector<region> regions_;
    std::vector<std::uint32_t> visible_mask_;  // per initiator class: bit per region
    alias_window alias_;
};

}  // namespace npu::cfg
