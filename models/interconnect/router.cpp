#include "router.h"

#include "base/txn_ext.h"

#include <algorithm>
#include <utility>

namespace npu::interconnect {

router::router(sc_core::sc_module_name nm, const cfg::config& cfg, const cfg::memory_map& map)
    : base::component(nm, cfg, "interconnect"),
      target_socket("target_socket"),
      initiator_socket("initiator_socket"),
      map_(map) {
    hop_ = cycles(cfg.cycles(section() + ".hop_latency"));
    target_socket.register_b_transport(this, &router::b_transport);
    target_socket.register_get_direct_mem_ptr(this, &router::get_direct_mem_ptr);
    target_socket.register_transport_dbg(this, &router::transport_dbg);
    initiator_socket.register_invalidate_direct_mem_ptr(this, &router::invalidate_direct_mem_ptr);
    add_stat("forwarded", forwarded_, "transactions", "reads and writes routed to a target");
    add_stat("address_errors", address_errors_, "transactions", "transactions refused (unmapped or not visible)");
}

void router::add_target(const std::string& region) {
    const int idx = map_.region_index(region);
    if (idx < 0) throw std::logic_error(std::string(name()) + ": no region '" + region + "' in the memory map");
    const int target = static_cast<int>(target_region_.size());
    target_region_.push_back(region);
    const cfg::region& r = map_.regions()[static_cast<std::size_t>(idx)];
    std::uint32_t all = 0;
    for (int c = 0; c < cfg::num_initiator_classes; ++c)
        if (map_.visible(static_cast<cfg::initiator_class>(c), idx)) all |= 1u << c;
    windows_.push_back(window{r.base, r.end(), target, idx, false, all});
    const auto& a = map_.alias();
    if (a.enabled && a.target == region) {
        std::uint32_t mask = 0;
        for (auto c : a.initiators) mask |= 1u << static_cast<int>(c);
        windows_.push_back(window{a.base, a.base + a.size, target, idx, true, mask & all});
    }
    std::sort(windows_.begin(), windows_.end(), [](const window& x, const window& y) { return x.base < y.base; });
    std::fill(last_hit_.begin(), last_hit_.end(), recent_windows{});
}

void router::end_of_elaboration() {
    // The memory map already refused overlapping regions; a second binding
    // of one region would be a platform bug, caught here before any access.
    for (std::size_t i = 1; i < windows_.size(); ++i)
        if (windows_[i].base < windows_[i - 1].end)
            throw std::logic_error(std::string(name()) + ": overlapping mappings for " +
                                   target_region_[static_cast<std::size_t>(windows_[i].target)] + " and " +
                                   target_region_[static_cast<std::size_t>(windows_[i - 1].target)]);
    if (port_class_.size() != target_socket.size())
        throw std::logic_error(std::string(name()) + ": initiator bound without bind_initiator()");
}

router::route router::decode(cfg::initiator_class cls, std::uint64_t addr) const {
    route r;
    lookup(cls, addr, r);
    return r;
}

const router::window* router::lookup(cfg::initiator_class cls, std::uint64_t addr, route& r) const {
    // Few windows (< 10): a branch-predictable linear scan beats a search.
    for (const auto& w : windows_) {
        if (addr < w.base) break;
        if (addr >= w.end) continue;
        // An alias window is only there for the classes it names.
        if (w.alias && !(w.class_mask >> static_cast<int>(cls) & 1u)) return nullptr;
        if (!(w.class_mask >> static_cast<int>(cls) & 1u)) {
            r.not_visible = true;
            return nullptr;
        }
        r.target = w.target;
        r.offset = addr - w.base;
        r.window_base = w.base;
        r.window_end = w.end - 1;
        return &w;
    }
    return nullptr;
}

void router::b_transport(int port, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const std::uint64_t addr = t.get_address();
    route r;
    recent_windows& recent = last_hit_[static_cast<std::size_t>(port)];
    const window* hit = nullptr;
    if (recent.w[0] && addr >= recent.w[0]->base && addr < recent.w[0]->end) {
        hit = recent.w[0];
    } else if (recent.w[1] && addr >= recent.w[1]->base && addr < recent.w[1]->end) {
        hit = recent.w[1];
        std::swap(recent.w[0], recent.w[1]);
    }
    if (hit) {
        r.target = hit->target;
        r.offset = addr - hit->base;
        r.window_base = hit->base;
        r.window_end = hit->end - 1;
    } else if (const window* w = lookup(port_class_[static_cast<std::size_t>(port)], addr, r)) {
        recent.w[1] = recent.w[0];
        recent.w[0] = w;
    }
    // The whole access must fall in one window: a word straddling the end of
    // L2 is as much an address error as one entirely past it.
    if (r.target < 0 || addr + t.get_data_length() - 1 > r.window_end) {
        ++address_errors_;
        if (auto* ext = t.get_extension<base::txn_ext>())
            ext->routed = r.not_visible ? base::txn_ext::route::not_visible : base::txn_ext::route::unmapped;
        t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    // A DMA burst's bank booking ahead of its data (TLM_IGNORE_COMMAND,
    // txn_ext::bank_booking::ahead) carries no data: not counted, so the
    // count is the same whether the burst booked ahead or with its data.
    forwarded_ += t.get_command() != tlm::TLM_IGNORE_COMMAND;
    delay += hop_;
    t.set_address(r.offset);
    initiator_socket[r.target]->b_transport(t, delay);
    t.set_address(addr);
}

bool router::get_direct_mem_ptr(int port, tlm::tlm_generic_payload& t, tlm::tlm_dmi& d) {
    const std::uint64_t addr = t.get_address();
    const route r = decode(port_class_[static_cast<std::size_t>(port)], addr);
    if (r.target < 0) return false;
    t.set_address(r.offset);
    const bool ok = initiator_socket[r.target]->get_direct_mem_ptr(t, d);
    t.set_address(addr);
    if (!ok) return false;
    // Translate the target's window back to bus addresses and clip it to
    // the window this initiator came through.
    std::uint64_t start = d.get_start_address() + r.window_base;
    std::uint64_t end = d.get_end_address() + r.window_base;
    if (end > r.window_end) end = r.window_end;
    d.set_start_address(start);
    d.set_end_address(end);
    d.set_read_latency(d.get_read_latency() + hop_);
    d.set_write_latency(d.get_write_latency() + hop_);
    return true;
}

unsigned router::transport_dbg(int port, tlm::tlm_generic_payload& t) {
    const std::uint64_t addr = t.get_address();
    const route r = decode(port_class_[static_cast<std::size_t>(port)], addr);
    if (r.target < 0) return 0;
    if (auto* ext = t.get_extension<base::txn_ext>(); ext && ext->resolve) {
        // A direct burst through this window is what b_transport would
        // forward: the same hop, counted the same (see b_transport).
        base::burst_route& br = *ext->resolve;
        br.window_base = r.window_base;
        br.window_end = r.window_end;
        br.hop = hop_;
        br.forwarded = &forwarded_;
        t.set_address(r.offset);
        initiator_socket[r.target]->transport_dbg(t);
        t.set_address(addr);
        return 0;
    }
    const std::uint64_t room = r.window_end - addr + 1;
    const unsigned len = t.get_data_length();
    if (len > room) t.set_data_length(static_cast<unsigned>(room));
    t.set_address(r.offset);
    const unsigned n = initiator_socket[r.target]->transport_dbg(t);
    t.set_address(addr);
    t.set_data_length(len);
    return n;
}

void router::invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end) {
    for (const auto& w : windows_) {
        if (w.target != target) continue;
        for (unsigned p = 0; p < target_socket.size(); ++p)
            target_socket[p]->invalidate_direct_mem_ptr(w.base + start, w.base + end);
    }
}

}  // namespace npu::interconnect
