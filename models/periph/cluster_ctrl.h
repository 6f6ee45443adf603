// Cluster control: worker boot and wake-up (register map in
// cluster_ctrl_regs.h). It drives the cores' fetch-enable and boot-address
// lines and samples their awake state, through ports the platform binds;
// events, barriers and fork/join are the event unit's (models/cluster).
#pragma once

#include "base/line.h"
#include "base/peripheral.h"

namespace npu::periph {

class cluster_ctrl : public base::peripheral {
public:
    cluster_ctrl(sc_core::sc_module_name nm, const cfg::config& cfg);

    // Per hart h: a pulse on `fetch_enable[h]` starts a parked hart or ends
    // a WFI, `delay` being the waker's local-time offset (so the hart wakes
    // when the WAKE store happened under temporal decoupling); `awake[h]`
    // reads whether it runs.
    sc_core::sc_vector<base::line_out> fetch_enable;
    sc_core::sc_vector<base::level_probe> awake;
    // BOOT_ADDR writes, to every core.
    base::word_out boot_address;

    void set_reset_boot_address(std::uint32_t a);

private:
    unsigned harts_;
    std::uint64_t wakes_ = 0;
};

}  // namespace npu::periph
