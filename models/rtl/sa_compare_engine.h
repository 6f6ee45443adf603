// sa.model=compare: every job runs on a reference engine (TLM) and on the
// engine under test (RTL) from the same memory contents, and the run stops
// at the first job on which they differ (exit code 6, like a golden
// mismatch), naming the job and the first differing result element, the
// cycle count or the faulting access. Results of the engine under test stay
// in memory. The SA's traffic counters count both engines' accesses.
#pragma once

#include "accel/sa_engine.h"

#include <cstdint>
#include <memory>
#include <string>

namespace npu::rtl {

class sa_compare_engine : public accel::sa_engine {
public:
    sa_compare_engine(const accel::sa_engine_env& env, std::unique_ptr<accel::sa_engine> reference,
                      std::unique_ptr<accel::sa_engine> under_test);
    // Says on stderr how many jobs were compared, when all of them agreed.
    ~sa_compare_engine() override;
    accel::sa_run execute(const accel::sa_job& j, const sc_core::sc_time& t0) override;

    std::uint64_t jobs_compared() const { return jobs_; }

    // The first difference between two runs of job `j`, "" when identical.
    // `ref_c`/`dut_c` hold C (m rows of n words) as each engine left it.
    static std::string difference(const accel::sa_job& j, const accel::sa_run& ref, const accel::sa_run& dut,
                                  const std::vector<std::uint32_t>& ref_c, const std::vector<std::uint32_t>& dut_c,
                                  const sc_core::sc_time& t0, const sc_core::sc_time& period);

private:
    // C as it is in memory (debug reads; unreadable words read 0).
    std::vector<std::uint32_t> read_c(const accel::sa_job& j);
    void write_c(const accel::sa_job& j, const std::vector<std::uint32_t>& c);

    accel::sa_engine_env env_;
    std::unique_ptr<accel::sa_engine> ref_, dut_;
    std::uint64_t jobs_ = 0;
    bool differed_ = false;
    std::vector<std::uint64_t> port_waits_;  // the reference's per tile, for the engine under test
};

}  // namespace npu::rtl
