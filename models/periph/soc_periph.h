// SoC peripherals: the UART (firmware stdout), simulation control (exit code,
// unhandled-trap report from the runtime's trap entry) and the cycle counter.
// Register map: soc_periph_regs.h (shared with the firmware).
#pragma once

#include "base/peripheral.h"

#include <string>

namespace npu::periph {

class soc_periph : public base::peripheral {
public:
    soc_periph(sc_core::sc_module_name nm, const cfg::config& cfg);
    ~soc_periph() override;

    // Everything the firmware printed (also written to stdout as it comes).
    const std::string& uart_output() const { return uart_log_; }
    void set_echo(bool on) { echo_ = on; }

private:
    void uart_tx(std::uint32_t v);
    void report_trap(std::uint32_t hart);

    std::string uart_log_;
    std::string line_;
    bool echo_ = true;
    std::uint32_t trap_cause_ = 0, trap_epc_ = 0, trap_tval_ = 0;
    std::uint32_t cycles_hi_latch_ = 0;
    std::uint64_t uart_bytes_ = 0;
};

}  // namespace npu::periph
