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
//
// The RTL models its wide L1 port (sa.l1_bandwidth bytes a cycle), it does
// not build it: its 32-bit fetch handshakes are outside its cycle count. So
// the port takes part in the L1's bank arbitration as the TLM engine's does:
// at the start of each weight tile (tile_start_o) the engine books the
// tile's stream in the SoC's bank calendar (accel::sa_port_booking, the same
// bookings as the TLM engine's) and hands the RTL the cycles the stream
// waits for banks other initiators hold (port_wait_i), which the RTL adds to
// the tile; the words the handshakes then move book nothing again. Cores and
// DMA channels therefore see the same bank-cycles taken, and a network runs
// in the same cycles, on either engine.
#pragma once

#include "tcdm_bridge.h"
#include "waveform.h"

#include "accel/sa_engine.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

class Vsa_engine;
class VerilatedContext;
class VerilatedFstC;

namespace npu::rtl {

// Test-only fault injection (NPU_RTL_SA_INJECT, docs/cosim.md): makes the
// RTL engine differ from the TLM engine on purpose, so that compare's failure
// path is exercised end to end. Jobs count from 1.
struct sa_rtl_injection {
    std::uint64_t write_job = 0;  // flip bit 0 of the first word this job writes (0: never)
    std::uint64_t setup_job = 0;  // this job's setup latency ...
    std::uint32_t setup_extra = 0;  // ... plus this many cycles
    // Parses "write:JOB" or "setup:JOB:CYCLES"; throws cfg::config_error.
    static sa_rtl_injection parse(const std::string& spec);
};

struct sa_rtl_options {
    std::string trace_file;  // waveform of the RTL's signals, FILE.fst or FILE.vcd; empty: none
    std::string model = "rtl";  // the sa.model that runs it (rtl or compare): its errors name it
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
    // port_wait_i of the tile starting now (tile_start_o high).
    std::uint32_t tile_wait();

    accel::sa_engine_env env_;
    tcdm_bridge bridge_;
    accel::sa_port_booking port_;
    const accel::sa_job* job_ = nullptr;  // the job being executed
    bool booking_ = false;                // its port books its tiles (port_)
    const std::vector<std::uint64_t>* replay_ = nullptr;  // or replays these waits, tile by tile
    std::size_t tile_ = 0;                // tiles started in this job
    std::unique_ptr<VerilatedContext> vctx_;
    std::unique_ptr<Vsa_engine> top_;
    std::unique_ptr<VerilatedFstC> trace_;
    std::string trace_file_, trace_fst_;  // the file asked for; the FST being written (a temporary for .vcd)
    sc_core::sc_time t0_;
    std::uint64_t steps_ = 0;
    std::uint64_t jobs_ = 0;  // jobs started, for the injection
    sa_rtl_injection inject_;
    bool write_seen_ = false;  // the current job has written a word
    std::uint64_t trace_ps_ = 0;  // waveform time: monotonic, >= the job's SystemC time
    bool rvalid_ = false, rerr_ = false;
    std::uint32_t rdata_ = 0;
};

}  // namespace npu::rtl
