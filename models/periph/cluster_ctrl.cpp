#include "cluster_ctrl.h"

#include "cluster_ctrl_regs.h"

namespace npu::periph {

cluster_ctrl::cluster_ctrl(sc_core::sc_module_name nm, const cfg::config& cfg)
    : base::peripheral(nm, cfg, "cluster_periph"),
      harts_(static_cast<unsigned>(cfg.count("cluster.workers")) + 1) {
    add_register(NPU_CLUSTER_WAKE, "wake", write_only, 0, nullptr, [this](std::uint32_t mask) {
        for (unsigned h = 0; h < harts_; ++h)
            if ((mask >> h & 1u) && wake_hart) {
                ++wakes_;
                wake_hart(h, access_time() - sc_core::sc_time_stamp());
            }
    });
    add_register(NPU_CLUSTER_BOOT_ADDR, "boot_addr", read_write, 0, nullptr, [this](std::uint32_t a) {
        if (set_boot_address) set_boot_address(a);
    });
    add_register(NPU_CLUSTER_AWAKE, "awake", read_only, 0, [this]() { return awake_mask ? awake_mask() : 0u; });
    add_register(NPU_CLUSTER_NB_HARTS, "nb_harts", read_only, harts_);
    add_stat("wakes", wakes_, "wakes", "harts woken through the WAKE register");
}

void cluster_ctrl::set_reset_boot_address(std::uint32_t a) { set_register(NPU_CLUSTER_BOOT_ADDR, a); }

}  // namespace npu::periph
