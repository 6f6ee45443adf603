#include "cluster_ctrl.h"

#include "cluster_ctrl_regs.h"

namespace npu::periph {

cluster_ctrl::cluster_ctrl(sc_core::sc_module_name nm, const cfg::config& cfg)
    : base::peripheral(nm, cfg, "cluster_periph"),
      fetch_enable("fetch_enable"),
      awake("awake"),
      boot_address("boot_address"),
      harts_(static_cast<unsigned>(cfg.count("cluster.workers")) + 1) {
    fetch_enable.init(harts_);
    awake.init(harts_);
    add_register(NPU_CLUSTER_WAKE, "wake", write_only, 0, nullptr, [this](std::uint32_t mask) {
        for (unsigned h = 0; h < harts_; ++h)
            if (mask >> h & 1u) {
                ++wakes_;
                fetch_enable[h]->drive(0, true, access_time() - base::sim_time());
            }
    });
    add_register(NPU_CLUSTER_BOOT_ADDR, "boot_addr", read_write, 0, nullptr, [this](std::uint32_t a) {
        for (int i = 0; i < boot_address.size(); ++i) boot_address[i]->write(a);
    });
    add_register(NPU_CLUSTER_AWAKE, "awake", read_only, 0, [this]() {
        std::uint32_t m = 0;
        for (unsigned h = 0; h < harts_; ++h)
            if (awake[h]->read()) m |= 1u << h;
        return m;
    });
    set_peek(NPU_CLUSTER_AWAKE);
    add_register(NPU_CLUSTER_NB_HARTS, "nb_harts", read_only, harts_);
    add_stat("wakes", wakes_, "wakes", "harts woken through the WAKE register");
}

void cluster_ctrl::set_reset_boot_address(std::uint32_t a) { set_register(NPU_CLUSTER_BOOT_ADDR, a); }

}  // namespace npu::periph
