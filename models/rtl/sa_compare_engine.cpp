#include "sa_compare_engine.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace npu::rtl {

sa_compare_engine::sa_compare_engine(const accel::sa_engine_env& env, std::unique_ptr<accel::sa_engine> reference,
                                     std::unique_ptr<accel::sa_engine> under_test)
    : env_(env), ref_(std::move(reference)), dut_(std::move(under_test)) {}

sa_compare_engine::~sa_compare_engine() {
    if (jobs_ && !differed_)
        fmt::print(stderr,
                   "sa.model=compare: {} SA job{} identical on the TLM and RTL engines (results, cycles, faults)\n",
                   jobs_, jobs_ == 1 ? "" : "s");
}

std::vector<std::uint32_t> sa_compare_engine::read_c(const accel::sa_job& j) {
    std::vector<std::uint32_t> c(std::size_t(j.m) * j.n, 0);
    for (std::uint32_t i = 0; i < j.m; ++i) {
        const std::uint64_t a = std::uint64_t(j.c) + std::uint64_t(i) * j.ldc;
        if (a + std::uint64_t(j.n) * 4 - 1 > 0xFFFFFFFFull) continue;
        env_.bus.debug_read(a, &c[std::size_t(i) * j.n], j.n * 4);
    }
    return c;
}

void sa_compare_engine::write_c(const accel::sa_job& j, const std::vector<std::uint32_t>& c) {
    for (std::uint32_t i = 0; i < j.m; ++i) {
        const std::uint64_t a = std::uint64_t(j.c) + std::uint64_t(i) * j.ldc;
        if (a + std::uint64_t(j.n) * 4 - 1 > 0xFFFFFFFFull) continue;
        env_.bus.debug_write(a, &c[std::size_t(i) * j.n], j.n * 4);
    }
}

std::string sa_compare_engine::difference(const accel::sa_job& j, const accel::sa_run& ref, const accel::sa_run& dut,
                                          const std::vector<std::uint32_t>& ref_c,
                                          const std::vector<std::uint32_t>& dut_c, const sc_core::sc_time& t0,
                                          const sc_core::sc_time& period) {
    const auto cyc = [&](const sc_core::sc_time& t) {
        return static_cast<std::uint64_t>(std::llround((t - t0) / period));
    };
    if (ref.ok != dut.ok)
        return fmt::format("tlm {}, rtl {}", ref.ok ? "completed" : "faulted", dut.ok ? "completed" : "faulted");
    if (!ref.ok) {
        const auto& a = ref.failed;
        const auto& b = dut.failed;
        if (a.operand != b.operand || a.addr != b.addr || a.len != b.len || a.write != b.write || a.row != b.row)
            return fmt::format(
                "faulting access: tlm operand {} row {} {} {} B at 0x{:08x}, rtl operand {} row {} {} {} "
                "B at 0x{:08x}",
                a.operand, a.row, a.write ? "write" : "read", a.len, a.addr, b.operand, b.row,
                b.write ? "write" : "read", b.len, b.addr);
    }
    if (ref.end != dut.end) return fmt::format("cycles: tlm {}, rtl {}", cyc(ref.end), cyc(dut.end));
    if (ref.stall_cycles != dut.stall_cycles)
        return fmt::format("stall cycles: tlm {}, rtl {}", ref.stall_cycles, dut.stall_cycles);
    for (std::size_t e = 0; e < ref_c.size(); ++e)
        if (ref_c[e] != dut_c[e]) {
            const std::uint32_t i = static_cast<std::uint32_t>(e / j.n), c = static_cast<std::uint32_t>(e % j.n);
            if (j.fp32) {
                float x, y;
                std::memcpy(&x, &ref_c[e], 4);
                std::memcpy(&y, &dut_c[e], 4);
                return fmt::format("C[{}][{}]: tlm 0x{:08x} ({}), rtl 0x{:08x} ({})", i, c, ref_c[e], x, dut_c[e], y);
            }
            return fmt::format("C[{}][{}]: tlm {} (0x{:08x}), rtl {} (0x{:08x})", i, c, std::int32_t(ref_c[e]),
                               ref_c[e], std::int32_t(dut_c[e]), dut_c[e]);
        }
    return {};
}

accel::sa_run sa_compare_engine::execute(const accel::sa_job& j, const sc_core::sc_time& t0) {
    ++jobs_;
    // Both engines start from the same C (accumulate reads it).
    const std::vector<std::uint32_t> before = read_c(j);
    // The reference books the job's L1 bank-cycles; the engine under test
    // waits as long per tile as it did (it would find them taken by the job).
    ref_->record_port_waits(&port_waits_);
    const accel::sa_run ref = ref_->execute(j, t0);
    const std::vector<std::uint32_t> ref_c = read_c(j);
    write_c(j, before);
    dut_->replay_port_waits(ref.booked_banks ? &port_waits_ : nullptr);
    const accel::sa_run dut = dut_->execute(j, t0);
    if (env_.services.stop_requested()) return dut;  // e.g. the RTL refused the job
    const std::vector<std::uint32_t> dut_c = read_c(j);
    const std::string diff = difference(j, ref, dut, ref_c, dut_c, t0, env_.period);
    if (!diff.empty()) {
        differed_ = true;
        env_.services.request_stop(
            base::exit_code::golden_mismatch,
            fmt::format("sa.model=compare: SA job {} (C[{}x{}] {} A[{}x{}] * B[{}x{}], {}) differs between the TLM and "
                        "RTL engines: {}",
                        jobs_, j.m, j.n, j.accumulate ? "+=" : "=", j.m, j.k, j.k, j.n, j.fp32 ? "fp32" : "int8",
                        diff));
    }
    return dut;
}

}  // namespace npu::rtl
