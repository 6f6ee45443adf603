// The address decoder of the SoC. Its table comes from the memory map of the
// config; each initiator port has a class (core, dma, sa, loader) and sees
// only the regions the config makes visible to that class. A miss, or a hit
// on an invisible region, is TLM_ADDRESS_ERROR_RESPONSE with the reason left
// in the transaction's txn_ext for the report. DMI requests are forwarded
// and their windows translated back to bus addresses.
#pragma once

#include "base/component.h"
#include "config/memory_map.h"

#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include <string>
#include <vector>

namespace npu::interconnect {

class router : public base::component {
public:
    router(sc_core::sc_module_name nm, const cfg::config& cfg, const cfg::memory_map& map);

    tlm_utils::multi_passthrough_target_socket<router> target_socket;        // from initiators
    tlm_utils::multi_passthrough_initiator_socket<router> initiator_socket;  // to targets

    // Binding helpers: the port index is the binding order, so bind through
    // these to keep the class / region tables aligned with the sockets.
    template <typename SOCKET>
    void bind_initiator(SOCKET& s, cfg::initiator_class cls) {
        s.bind(target_socket);
        port_class_.push_back(cls);
        last_hit_.emplace_back();
    }
    template <typename SOCKET>
    void bind_target(SOCKET& s, const std::string& region) {
        initiator_socket.bind(s);
        add_target(region);
    }

    // Decoding as the router does it (tests and reports use the same code).
    struct route {
        int target = -1;           // initiator_socket index, -1 on failure
        std::uint64_t offset = 0;  // address inside the target
        std::uint64_t window_base = 0, window_end = 0;  // bus range this hit came through (inclusive end)
        bool not_visible = false;
    };
    route decode(cfg::initiator_class cls, std::uint64_t addr) const;

private:
    void add_target(const std::string& region);
    void end_of_elaboration() override;

    void b_transport(int port, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);
    bool get_direct_mem_ptr(int port, tlm::tlm_generic_payload& t, tlm::tlm_dmi& d);
    unsigned transport_dbg(int port, tlm::tlm_generic_payload& t);
    void invalidate_direct_mem_ptr(int target, sc_dt::uint64 start, sc_dt::uint64 end);

    const cfg::memory_map& map_;
    sc_core::sc_time hop_;
    std::vector<cfg::initiator_class> port_class_;
    struct window {
        std::uint64_t base, end;  // bus range [base, end)
        int target;               // initiator_socket index
        int region;               // memory_map region index (visibility)
        bool alias;
        std::uint32_t class_mask; // classes that may use this window
    };
    std::vector<window> windows_;  // sorted by base, non-overlapping
    // The window `addr` decodes to for class `cls` (null: none), `r` filled.
    const window* lookup(cfg::initiator_class cls, std::uint64_t addr, route& r) const;
    // Per initiator port, the two windows its last successful b_transports
    // went through, the latest first: a DMA channel alternates between its
    // source's and its destination's, a core mostly stays in one, so most
    // transactions skip the scan. add_target (which moves the windows)
    // forgets them; a window that served a port once serves it again
    // (visibility depends only on the port's class).
    struct recent_windows {
        const window* w[2] = {nullptr, nullptr};
    };
    std::vector<recent_windows> last_hit_;
    std::vector<std::string> target_region_;

    std::uint64_t forwarded_ = 0, address_errors_ = 0;
};

}  // namespace npu::interconnect
