#include "memory_map.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace npu::cfg {

const char* initiator_class_name(initiator_class c) {
    switch (c) {
    case initiator_class::core: return "core";
    case initiator_class::dma: return "dma";
    case initiator_class::sa: return "sa";
    case initiator_class::loader: return "loader";
    }
    return "?";
}

static std::string hex(std::uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%08llx", static_cast<unsigned long long>(v));
    return b;
}

std::string address_info::describe() const {
    switch (what) {
    case status::mapped:
        return "mapped: " + target->name + " + " + hex(offset) + (via_alias ? " (through the alias window)" : "");
    case status::not_visible:
        return "mapped to " + target->name + " + " + hex(offset) + ", but " + target->name +
               " is not visible to this initiator";
    case status::unmapped:
        if (!nearest) return "unmapped (no region is mapped)";
        return "unmapped (" + std::to_string(distance) + " bytes " + (below_nearest ? "below " : "above the end of ") +
               nearest->name + " [" + hex(nearest->base) + ", " + hex(nearest->end()) + "))";
    }
    return "?";
}

// A dense memory is one host allocation (twice its size with memcheck's
// shadow): beyond this, `sparse` storage is the way.
static constexpr std::uint64_t max_dense_bytes = 256ull << 20;

memory_map memory_map::build(const config& c) {
    memory_map m;
    const char* regions[] = {"l1", "l2", "l3", "soc_periph", "cluster_periph", "event_unit", "dma_ctrl", "sa_ctrl"};
    for (const char* r : regions) {
        std::string n = r;
        const bool is_memory = n == "l1" || n == "l2" || n == "l3";
        region g{n, is_memory ? region_kind::memory : region_kind::peripheral, c.address(n + ".base"),
                 c.size(n + ".size")};
        if (g.end() > 0x100000000ull)
            c.fail(blame(c, {n + ".size", n + ".base"}), n + " [" + hex(g.base) + ", +" + format_size(g.size) +
                                                             ") extends past the 32-bit address space (ends at " +
                                                             hex(g.end()) + ")");
        if (g.base % 4 != 0 || g.size % 4 != 0)
            c.fail(blame(c, {n + ".base", n + ".size"}),
                   n + " [" + hex(g.base) + ", +" + format_size(g.size) +
                       ") is not word-aligned (base and size must be multiples of 4)");
        if (is_memory && c.choice(n + ".storage") == "dense" && g.size > max_dense_bytes)
            c.fail(blame(c, {n + ".size", n + ".storage"}),
                   n + " of " + format_size(g.size) + " with dense storage exceeds " + format_size(max_dense_bytes) +
                       " of host memory (set " + n + ".storage = sparse)");
        m.regions_.push_back(g);
    }
    {
        const std::uint64_t stride = c.count("l1.banks") * c.size("l1.bank_width");
        if (c.address("l1.base") % c.size("l1.bank_width") != 0)
            c.fail(blame(c, {"l1.base", "l1.bank_width"}), "l1 base " + hex(c.address("l1.base")) +
                                                               " is not aligned to l1.bank_width (" +
                                                               format_size(c.size("l1.bank_width")) + ")");
        if (stride > c.size("l1.size"))
            c.fail(blame(c, {"l1.banks", "l1.bank_width", "l1.size"}), "l1.banks x l1.bank_width (" +
                                                                           format_size(stride) + ") exceeds l1.size (" +
                                                                           format_size(c.size("l1.size")) + ")");
    }
    std::sort(m.regions_.begin(), m.regions_.end(), [](const region& a, const region& b) { return a.base < b.base; });
    for (std::size_t i = 1; i < m.regions_.size(); ++i) {
        const region& a = m.regions_[i - 1];
        const region& b = m.regions_[i];
        if (b.base < a.end())
            c.fail(blame(c, {b.name + ".base", a.name + ".size", a.name + ".base"}),
                   b.name + " [" + hex(b.base) + ", " + hex(b.end()) + ") overlaps " + a.name + " [" + hex(a.base) +
                       ", " + hex(a.end()) + ")");
    }

    m.visible_mask_.assign(num_initiator_classes, 0);
    for (int ic = 0; ic < num_initiator_classes; ++ic) {
        std::string key = std::string("visibility.") + initiator_class_name(static_cast<initiator_class>(ic));
        for (const auto& name : c.names(key)) {
            int idx = m.region_index(name);
            if (idx < 0) c.fail(key, "unknown region '" + name + "'");
            m.visible_mask_[ic] |= 1u << idx;
        }
    }
    for (const auto& name : c.names("visibility.loader"))
        if (m.find_region(name)->kind != region_kind::memory)
            c.fail("visibility.loader", "the loader writes memories only; '" + name + "' is a peripheral");
    // The cores fetch from firmware.code_region and the loader writes it:
    // anything else is a bus error at the first instruction.
    {
        const std::string code = c.text("firmware.code_region");
        const int idx = m.region_index(code);
        if (idx < 0 || m.regions_[static_cast<std::size_t>(idx)].kind != region_kind::memory)
            c.fail("firmware.code_region", "'" + code + "' is not a memory region (l1, l2 or l3)");
        if (!m.visible(initiator_class::core, idx))
            c.fail(blame(c, {"visibility.core", "firmware.code_region"}),
                   "the cores cannot see firmware.code_region '" + code + "', where they fetch their code");
        if (!m.visible(initiator_class::loader, idx))
            c.fail(blame(c, {"visibility.loader", "firmware.code_region"}),
                   "the loader cannot write firmware.code_region '" + code + "'");
    }

    m.alias_.enabled = c.boolean("alias.enable");
    if (m.alias_.enabled) {
        m.alias_.base = c.address("alias.base");
        m.alias_.target = c.text("alias.target");
        const region* t = m.find_region(m.alias_.target);
        if (!t) c.fail("alias.target", "unknown region '" + m.alias_.target + "'");
        if (t->kind != region_kind::memory)
            c.fail("alias.target", "'" + m.alias_.target + "' is a peripheral; the alias window mirrors a memory");
        m.alias_.size = c.size("alias.size") ? c.size("alias.size") : t->size;
        if (m.alias_.size > t->size)
            c.fail("alias.size", "alias window (" + format_size(m.alias_.size) + ") is larger than " + t->name + " (" +
                                     format_size(t->size) + ")");
        if (m.alias_.base + m.alias_.size > 0x100000000ull)
            c.fail(blame(c, {"alias.base", "alias.size"}), "alias window extends past the 32-bit address space");
        for (const auto& r : m.regions_)
            if (m.alias_.base < r.end() && r.base < m.alias_.base + m.alias_.size)
                c.fail("alias.base", "alias window [" + hex(m.alias_.base) + ", " + hex(m.alias_.base + m.alias_.size) +
                                         ") overlaps " + r.name);
        for (const auto& n : c.names("alias.initiators")) {
            bool found = false;
            for (int ic = 0; ic < num_initiator_classes; ++ic)
                if (n == initiator_class_name(static_cast<initiator_class>(ic))) {
                    m.alias_.initiators.push_back(static_cast<initiator_class>(ic));
                    found = true;
                }
            if (!found) c.fail("alias.initiators", "unknown initiator class '" + n + "' (core, dma, sa, loader)");
        }
    }
    return m;
}

const region* memory_map::find_region(const std::string& name) const {
    int i = region_index(name);
    return i < 0 ? nullptr : &regions_[static_cast<std::size_t>(i)];
}

int memory_map::region_index(const std::string& name) const {
    for (std::size_t i = 0; i < regions_.size(); ++i)
        if (regions_[i].name == name) return static_cast<int>(i);
    return -1;
}

bool memory_map::visible(initiator_class who, int idx) const {
    return idx >= 0 && (visible_mask_[static_cast<int>(who)] >> idx) & 1u;
}

address_info memory_map::lookup(initiator_class who, std::uint64_t addr) const {
    address_info info;
    if (alias_.enabled && addr >= alias_.base && addr < alias_.base + alias_.size &&
        std::find(alias_.initiators.begin(), alias_.initiators.end(), who) != alias_.initiators.end()) {
        int idx = region_index(alias_.target);
        info.target = &regions_[static_cast<std::size_t>(idx)];
        info.offset = addr - alias_.base;
        info.via_alias = true;
        info.what = visible(who, idx) ? address_info::status::mapped : address_info::status::not_visible;
        return info;
    }
    for (std::size_t i = 0; i < regions_.size(); ++i) {
        const region& r = regions_[i];
        if (r.contains(addr)) {
            info.target = &r;
            info.offset = addr - r.base;
            info.what =
                visible(who, static_cast<int>(i)) ? address_info::status::mapped : address_info::status::not_visible;
            return info;
        }
    }
    // Unmapped: name the closest region so "0x1c180004" reads as "4 bytes past L2".
    for (const auto& r : regions_) {
        std::uint64_t d = addr < r.base ? r.base - addr : addr - r.end() + 1;
        if (!info.nearest || d < info.distance) {
            info.nearest = &r;
            info.distance = d;
            info.below_nearest = addr < r.base;
        }
    }
    return info;
}

std::string memory_map::print() const {
    std::ostringstream o;
    o << "Memory map\n";
    char line[256];
    std::snprintf(line, sizeof line, "  %-16s %-12s %-12s %-10s %s\n", "region", "base", "end", "size", "kind");
    o << line;
    for (const auto& r : regions_) {
        std::snprintf(line, sizeof line, "  %-16s %-12s %-12s %-10s %s\n", r.name.c_str(), hex(r.base).c_str(),
                      hex(r.end() - 1).c_str(), format_size(r.size).c_str(),
                      r.kind == region_kind::memory ? "memory" : "peripheral");
        o << line;
    }
    if (alias_.enabled)
        o << "  alias            " << hex(alias_.base) << "   " << hex(alias_.base + alias_.size - 1) << "   -> "
          << alias_.target << "\n";
    else
        o << "  alias            off (strict: low addresses are unmapped)\n";
    o << "\nVisibility per initiator\n";
    for (int ic = 0; ic < num_initiator_classes; ++ic) {
        auto who = static_cast<initiator_class>(ic);
        std::snprintf(line, sizeof line, "  %-8s", initiator_class_name(who));
        o << line;
        for (std::size_t i = 0; i < regions_.size(); ++i) {
            bool v = visible(who, static_cast<int>(i));
            std::snprintf(line, sizeof line, " %s:%s", regions_[i].name.c_str(), v ? "yes" : "no");
            o << line;
        }
        if (alias_.enabled &&
            std::find(alias_.initiators.begin(), alias_.initiators.end(), who) != alias_.initiators.end())
            o << " alias:yes";
        o << "\n";
    }
    return o.str();
}

}  // namespace npu::cfg
