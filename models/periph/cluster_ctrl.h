// Cluster control: worker boot and wake-up (register map in
// cluster_ctrl_regs.h). It only forwards start/wake requests to the cores
// through hooks the platform connects; events, barriers and fork/join are
// the event unit's (models/cluster).
#pragma once

#include "base/peripheral.h"

#include <functional>

namespace npu::periph {

class cluster_ctrl : public base::peripheral {
public:
    cluster_ctrl(sc_core::sc_module_name nm, const cfg::config& cfg);

    // `delay`: the waker's local-time offset, so the hart wakes when the
    // WAKE store happened under temporal decoupling.
    std::function<void(unsigned hart, const sc_core::sc_time& delay)> wake_hart;
    std::function<void(std::uint32_t addr)> set_boot_address;
    std::function<std::uint32_t()> awake_mask;

    void set_reset_boot_address(std::uint32_t a);

private:
    unsigned harts_;
    std::uint64_t wakes_ = 0;
};

}  // namespace npu::periph
