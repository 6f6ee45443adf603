// sa.model=rtl: the systolic array's engine as RTL (rtl/sa/sa_engine.sv),
// Verilated and stepped at the cluster clock behind the TLM register front
// end (accel::systolic_array), which stays as it is: registers, STATUS/WAIT,
// the error registers and report, the done/error lines.
//
// execute() runs the job to its end in lock-step: it clocks the Verilated
// array cycle by cycle from START's time t0, and each memory request of its
// TCDM port goes through the SA's own bus master (tcdm_bridge) at
// t0 + the array's cycle count, exactly when the TLM engine would issue it.
// The job is therefore evaluated at START like the TLM engine's, the core
// that wrote START sees the same timing, and the TLM and RTL engines can be
// swapped, or both run on every job (sa.model=compare).
#pragma once

#include "tcdm_bridge.h"

#include "accel/sa_engine.h"

#include <cstdint>
#include <memory>
#include <string>

class Vsa_engine;
class VerilatedContext;
class VerilatedVcdC;

namespace npu::rtl {

struct sa_rtl_options {
    std::string trace_file;  // VCD of the RTL's signals, empty: none
};

class sa_rtl_engine : public accel::sa_engine {
public:
    // The array shape the RTL was Verilated with (NPU_RTL_SA_ROWS/COLS), and
    // the most rows of A a job may have (the accumulator depth).
    static const unsigned rows, cols, max_m;

    sa_rtl_engine(const accel::sa_engine_env& env, const sa_rtl_options& opt);
    ~sa_rtl_engine() override;
    accel::sa_run execute(const accel::sa_job& j, const sc_core::sc_time& t0) override;

    std::uint64_t rtl_cycles() const { return steps_; }  // clock cycles simulated, port handshakes included

private:
    void step();  // one clock cycle: sample the port, rising edge, answer
    sc_core::sc_time at_cycle() const;

    accel::sa_engine_env env_;
    tcdm_bridge bridge_;
    std::unique_ptr<VerilatedContext> vctx_;
    std::unique_ptr<Vsa_engine> top_;
    std::unique_ptr<VerilatedVcdC> trace_;
    sc_core::sc_time t0_;
    std::uint64_t steps_ = 0;
    std::uint64_t trace_ps_ = 0;  // waveform time: monotonic, >= the job's SystemC time
    bool rvalid_ = false, rerr_ = false;
    std::uint32_t rdata_ = 0;
};

}  // namespace npu::rtl
