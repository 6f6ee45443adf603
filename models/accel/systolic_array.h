// The systolic array (SA): a weight-stationary R x C array of MAC cells that
// computes C = A * B (+ C) for int8 (int32 accumulate) or fp32 operands in
// L1. Firmware programs it through the register window of sa_regs.h; the
// operands and results move through the SA's own bus master, which sees only
// what the config's visibility.sa allows (L1), so an L2, L3 or NULL operand
// is a bus error of the SA, reported with the whole job.
//
// Loosely timed, evaluated at START: the job runs through its weight tiles
// at once (reads and writes through the master, timed at the tile they
// belong to), so its end — or the time of the access that faulted — is
// known when START returns. STATUS answers as of the reader's local time
// (busy until the end), WAIT blocks the reader until the end, and the
// completion hooks get the delay to the event. No SystemC process of its
// own, no synchronisation forced on the programming core. The price: results
// are in memory before the job's simulated end (a core reading C without
// waiting sees them early); docs/sa.md lists this.
#pragma once

#include "base/bus_initiator.h"
#include "base/peripheral.h"
#include "sa_regs.h"

#include <cstdint>
#include <functional>
#include <string>

namespace npu::accel {

// One programmed job, as latched at START.
struct sa_job {
    std::uint32_t a = 0, b = 0, c = 0;        // bus addresses of A[0][0], B[0][0], C[0][0]
    std::uint32_t m = 0, n = 0, k = 0;        // C is m x n, A m x k, B k x n
    std::uint32_t lda = 0, ldb = 0, ldc = 0;  // row strides in bytes
    bool fp32 = false;
    bool accumulate = false;
    unsigned in_bytes() const { return fp32 ? 4u : 1u; }  // element size of A and B
    static constexpr unsigned out_bytes = 4;              // int32 or fp32
};

// Array shape and timing parameters of the cycle model.
struct sa_geometry {
    std::uint64_t rows = 16;           // R: rows of B a weight tile holds (K direction)
    std::uint64_t cols = 16;           // C: columns of B a weight tile holds (N direction)
    std::uint64_t setup_cycles = 0;    // per job: decode the registers, start the sequencer
    std::uint64_t port_bandwidth = 64; // bytes per cycle the SA's L1 port moves
};

// The cycle model, closed form per weight tile (see docs/sa.md):
//   tiles: ceil(K/R) x ceil(N/C), N tiles outer, K tiles inner
//   compute(tile) = R                  weight fill: B rows shift in, one per cycle
//                 + (M + R + C - 2)    stream M rows of A through the skewed array;
//                                      the last partial sum leaves row R-1, column C-1
//   bytes(tile)   = k_t*n_t*e          the weight tile (B)
//                 + M*k_t*e            the A rows of this K slice
//                 + M*n_t*4            C read, first K tile, accumulate only
//                 + M*n_t*4            C written, last K tile
//   memory(tile)  = ceil(bytes / port_bandwidth)
//   tile          = max(compute, memory)  (operand fetch is double-buffered
//                                          against compute; the slower one wins)
//   total         = setup + sum(tile);  stall = sum(tile - compute)
// k_t, n_t are the tile's actual extent (edge tiles are smaller); R and C in
// compute are the full array: the skew and the weight shift span it all.
struct sa_cycles {
    std::uint64_t total = 0;
    std::uint64_t compute = 0;  // sum of compute(tile)
    std::uint64_t stall = 0;    // cycles the L1 port added beyond compute
    std::uint64_t tiles = 0;
};
std::uint64_t sa_tile_compute_cycles(const sa_geometry& g, std::uint64_t m);
std::uint64_t sa_tile_bytes(const sa_job& j, std::uint64_t k_t, std::uint64_t n_t, bool first_k, bool last_k);
sa_cycles sa_job_cycles(const sa_job& j, const sa_geometry& g);

class systolic_array : public base::peripheral {
public:
    // Registers live in config section "sa_ctrl"; the array in "sa".
    systolic_array(sc_core::sc_module_name nm, const cfg::config& cfg);

    // The SA's master: bind it to the router as initiator class `sa`.
    base::bus_initiator bus;

    // Event-unit hooks: called when a job ends (done) or aborts (error), with
    // the delay from the current SystemC time to that moment.
    std::function<void(const sc_core::sc_time& delay)> on_done;
    std::function<void(const sc_core::sc_time& delay)> on_error;

    // Stop the run with a bus-error report when a job faults (sa.stop_on_error);
    // false leaves it to firmware (STATUS.ERROR, ERR_*, the error event).
    bool stop_on_error;

    const sa_geometry& geometry() const { return geo_; }
    std::uint64_t busy_cycles() const { return busy_cycles_; }

private:
    enum class outcome { none, done, error };

    void start(std::uint32_t value);
    std::string validate(const sa_job& j) const;
    std::uint32_t status_at(const sc_core::sc_time& t) const;
    // Runs the job from `t0`; returns false when an access faulted.
    bool execute(const sa_job& j, const sc_core::sc_time& t0);
    // One row of an operand through the master at time `when`.
    bool access(const sa_job& j, int operand, std::uint64_t addr, void* data, unsigned len, bool write,
                const sc_core::sc_time& when, unsigned row);
    void fault(const sa_job& j, int operand, std::uint64_t addr, unsigned len, bool write, const sc_core::sc_time& when,
               unsigned row);
    std::string describe_job(const sa_job& j) const;

    sa_geometry geo_;
    std::uint32_t job_regs_[NPU_SA_CTRL / 4 + 1] = {};  // A_ADDR .. CTRL, by offset / 4

    // The last job: when it started and ended (or faulted), how it ended.
    sc_core::sc_time job_start_, job_end_;
    sc_core::sc_event job_end_event_;
    outcome outcome_ = outcome::none;
    bool started_ = false;
    std::uint64_t job_cycles_ = 0;
    std::uint32_t err_addr_ = 0, err_info_ = 0;
    base::bus_error_info fault_;  // the report of the last fault
    // Who started it, for reports.
    std::string starter_;
    std::uint64_t starter_pc_ = 0;
    bool starter_has_pc_ = false;

    std::uint64_t jobs_ = 0, macs_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, errors_ = 0, refused_ = 0;
};

}  // namespace npu::accel
