#include "soc_periph.h"

#include "soc_periph_regs.h"

#include "base/sim_services.h"

#include <fmt/format.h>

#include <cstdio>

namespace npu::periph {

using base::exit_code;
using base::sim_services;

namespace {
const char* cause_name(std::uint32_t c) {
    switch (c) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault";
    case 6: return "store/AMO address misaligned";
    case 7: return "store/AMO access fault";
    case 8: return "environment call from U-mode";
    case 11: return "environment call from M-mode";
    default: return (c & 0x80000000u) ? "interrupt" : "unknown cause";
    }
}
}  // namespace

soc_periph::soc_periph(sc_core::sc_module_name nm, const cfg::config& cfg) : base::peripheral(nm, cfg, "soc_periph") {
    add_register(NPU_UART_TX, "uart_tx", write_only, 0, nullptr, [this](std::uint32_t v) { uart_tx(v); });
    add_register(NPU_UART_STATUS, "uart_status", read_only, 1);
    add_register(NPU_SIMCTL_EXIT, "simctl_exit", write_only, 0, nullptr, [](std::uint32_t v) {
        const int code = static_cast<int>(v);
        sim_services::get().request_stop(code == 0 ? exit_code::success : exit_code::firmware_failure,
                                         fmt::format("firmware exit({})", code), code);
    });
    add_register(NPU_SIMCTL_TRAP_CAUSE, "trap_cause", write_only, 0, nullptr, [this](std::uint32_t v) { trap_cause_ = v; });
    add_register(NPU_SIMCTL_TRAP_EPC, "trap_epc", write_only, 0, nullptr, [this](std::uint32_t v) { trap_epc_ = v; });
    add_register(NPU_SIMCTL_TRAP_TVAL, "trap_tval", write_only, 0, nullptr, [this](std::uint32_t v) { trap_tval_ = v; });
    add_register(NPU_SIMCTL_TRAP_HART, "trap_hart", write_only, 0, nullptr, [this](std::uint32_t v) { report_trap(v); });
    add_register(NPU_PERF_CYCLES_LO, "perf_cycles_lo", read_only, 0, [this]() {
        const auto c = static_cast<std::uint64_t>(access_time() / clock_period());
        cycles_hi_latch_ = static_cast<std::uint32_t>(c >> 32);
        return static_cast<std::uint32_t>(c);
    });
    add_register(NPU_PERF_CYCLES_HI, "perf_cycles_hi", read_only, 0, [this]() { return cycles_hi_latch_; });
    add_stat("uart_bytes", uart_bytes_, "B", "bytes the firmware wrote to the UART");
}

soc_periph::~soc_periph() {
    if (!line_.empty() && echo_) {
        std::fwrite(line_.data(), 1, line_.size(), stdout);
        std::fflush(stdout);
    }
}

void soc_periph::uart_tx(std::uint32_t v) {
    const char c = static_cast<char>(v & 0xFF);
    ++uart_bytes_;
    uart_log_ += c;
    line_ += c;
    // Whole lines, flushed: firmware output interleaves cleanly with the
    // report on stderr and survives a crash of the host process.
    if (c == '\n') {
        if (echo_) {
            std::fwrite(line_.data(), 1, line_.size(), stdout);
            std::fflush(stdout);
        }
        line_.clear();
    }
}

void soc_periph::report_trap(std::uint32_t hart) {
    auto& s = sim_services::get();
    std::string sym = s.symbol_of(trap_epc_);
    s.request_stop(exit_code::unhandled_trap,
                   fmt::format("unhandled trap on hart {}: mcause {} ({}), mepc 0x{:08x}{}, mtval 0x{:08x}", hart,
                               trap_cause_, cause_name(trap_cause_), trap_epc_, sym.empty() ? "" : " <" + sym + ">",
                               trap_tval_));
}

}  // namespace npu::periph
