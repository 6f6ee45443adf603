// The systolic array's engine: what computes a latched job, moving operands
// and results through the SA's bus master, and times it. The register front
// end (systolic_array) latches jobs, validates them, answers STATUS/WAIT,
// reports faults and raises the done/error lines; it runs whichever engine
// the platform's factory built for sa.model, so an RTL engine (driving a
// Verilated array through the same master) or a TCDM-aware engine replaces
// this one without touching the front end or the SoC.
#pragma once

#include "base/bus_initiator.h"
#include "base/sim_services.h"
#include "base/slot_calendar.h"

#include <systemc>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

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
    std::uint64_t weight_buffers = 1;  // 2: the next tile's weights load while the current tile streams
};

// The access that ended a job with a bus error.
struct sa_failed_access {
    int operand = 0;            // NPU_SA_ERR_OPERAND_*
    std::uint64_t addr = 0;     // first byte of the row burst
    unsigned len = 0;
    bool write = false;
    sc_core::sc_time when;      // when it was issued
    unsigned row = 0;           // row of the operand
};

// How a job went.
struct sa_run {
    bool ok = true;             // false: `failed` faulted
    sc_core::sc_time end;       // the job's end (ok), or the failed access's time
    std::uint64_t stall_cycles = 0;  // busy cycles the L1 port added beyond compute
    bool booked_banks = false;  // the job's port booked its L1 bank-cycles (sa_port_booking)
    sa_failed_access failed;
};

class sa_engine {
public:
    virtual ~sa_engine() = default;
    // Runs job `j` (already validated) from `t0` and returns when it ends.
    virtual sa_run execute(const sa_job& j, const sc_core::sc_time& t0) = 0;

    // sa.model=compare runs each job on two engines at the same time: the
    // first books the job's L1 bank-cycles (sa_port_booking) and records
    // each weight tile's port wait here (`record`, cleared by the engine);
    // the second takes its tiles' waits from `replay` instead of booking
    // the same bank-cycles again, which it would find taken -- by the job
    // itself. Null: the engine books its own port (the default). For the
    // next execute() only.
    void record_port_waits(std::vector<std::uint64_t>* record) { record_waits_ = record; }
    void replay_port_waits(const std::vector<std::uint64_t>* replay) { replay_waits_ = replay; }

protected:
    std::vector<std::uint64_t>* record_waits_ = nullptr;
    const std::vector<std::uint64_t>* replay_waits_ = nullptr;
};

// What the front end gives an engine when it builds one.
struct sa_engine_env {
    base::bus_initiator& bus;          // the SA's master (visibility.sa: L1)
    sa_geometry geometry;
    sc_core::sc_time period;           // one cycle of soc.cluster_clock
    base::sim_services& services;  // a stop request ends a job early; an engine may stop the run
    // The SoC's L1 bank calendar, shared with the cores and the DMA
    // (base/slot_calendar.h); null: the port books no banks (a bench of the
    // engine alone).
    base::l1_bank_calendar* l1_banks;
};
using sa_engine_maker = std::function<std::unique_ptr<sa_engine>(const sa_engine_env&)>;

// The cycle model, closed form per weight tile (see docs/sa.md):
//   tiles: ceil(K/R) x ceil(N/C), N tiles outer, K tiles inner
//   compute(tile) = fill               weight fill: B rows shift in, one per cycle
//                 + M                  stream M rows of A into the skewed array
//                 + drain              the last partial sum leaves row R-1, column C-1
//     weight_buffers = 1: fill = R, drain = R + C - 2 on every tile
//     weight_buffers = 2: the next tile's weights shift into the shadow
//                         registers while this tile streams, and its rows of A
//                         follow this tile's without a gap: fill = R on the
//                         job's first tile, max(R - M, 0) after; drain = R + C - 2
//                         on the job's last tile only
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
// compute(tile) of the job's tile `first`/`last` of all its tiles.
std::uint64_t sa_tile_compute_cycles(const sa_geometry& g, std::uint64_t m, bool first, bool last);
std::uint64_t sa_tile_bytes(const sa_job& j, std::uint64_t k_t, std::uint64_t n_t, bool first_k, bool last_k);
sa_cycles sa_job_cycles(const sa_job& j, const sa_geometry& g);

// The MAC loops the TLM engine runs on this host: "avx512", "avx2" or
// "generic" (NPU_SA_KERNELS=generic|avx2 forces one; bench/sa_mac prints it).
const char* sa_tlm_kernels();

// The SA's L1 port in the SoC's bank calendar (base/slot_calendar.h): a
// weight tile's row bursts (C read, B, A, C written: the bytes of
// sa_tile_bytes, in that order) stream from the tile's start at
// port_bandwidth / l1.bank_width words per cycle (64 B: 16 words, one per
// bank), each row at its byte offset in the stream; every word books its
// bank's cycle, so cores and DMA channels that want those bank-cycles wait
// for the SA. A word that finds its bank-cycle taken by another initiator
// waits for the next free one and holds up the rest of the tile's stream
// (`wait`). A bank-cycle the SA booked itself (rows of the stream sharing a
// cycle and a bank) costs nothing and is not booked twice: the closed form,
// which the SA's cycles alone keep, charges the port no conflicts of its own.
class sa_port_booking {
public:
    sa_port_booking(base::l1_bank_calendar* banks, std::uint64_t port_bandwidth);
    // False: no calendar to book in (the port books nothing this job).
    // `start_cycle`: the job's START, from which the ring must hold its
    // bookings; `alone_cycles`: the job's closed form (sa_job_cycles). The
    // stream is booked from the job's start to its end, now: the ring must
    // hold the job on top of the others' bookings around it (cores up to
    // about a quantum ahead of SystemC time and behind the job's start:
    // half the calendar's window of four quanta). It grows here to twice
    // the job alone on top of that, and again on the way for a stream that
    // waits longer (reach). Most jobs fit the ring as it is.
    bool begin_job(std::uint64_t start_cycle, std::uint64_t alone_cycles);
    void begin_tile(std::uint64_t cycle);
    // The row burst [addr, addr + len) of the tile's stream.
    void row(std::uint64_t addr, std::uint64_t len);
    // `count` row bursts of `len` bytes from `first`, `stride` apart: as
    // row() on each in order.
    void rows(std::uint64_t first, std::uint64_t stride, std::uint64_t count, std::uint64_t len);
    // Cycles the tile's stream waited for other initiators' bank-cycles.
    std::uint64_t wait() const { return wait_; }
    // The whole stream of job j's weight tile (n0, k0) from `cycle`: its C
    // read (first K tile, accumulate), B, A and C write rows, in
    // sa_tile_bytes' order, as every engine's port books them. Returns wait().
    std::uint64_t book_tile(const sa_job& j, std::uint64_t cols, std::uint64_t rows, std::uint64_t n0,
                            std::uint64_t k0, std::uint64_t cycle);

private:
    // The stream is about to book up to `cycle`: the calendar's ring must
    // hold every booking from half its window before the job's START to
    // there, or a booking a ring later takes the cell of an earlier one
    // (its own or another initiator's) and drops it. begin_job grew the
    // ring for the job alone; a stream that waits for other initiators'
    // bank-cycles can outrun that, and grows it again here, keeping every
    // booking (slot_calendar::grow_to), until the ring's cap (then the job
    // is counted: sa.jobs_past_calendar).
    void reach(std::uint64_t cycle) {
        if (__builtin_expect(cycle - job_start_ + margin_ >= banks_->banks.ring_cycles(), 0) && !capped_)
            grow_for(cycle);
    }
    void grow_for(std::uint64_t cycle);
    base::l1_bank_calendar* banks_;
    std::uint64_t job_start_ = 0, margin_ = 0;
    bool capped_ = false;
    std::uint64_t port_bandwidth_, words_per_cycle_ = 1;
    std::uint64_t tile_cycle_ = 0, bytes_ = 0, wait_ = 0;
    // Per bank: one past the last cycle this job booked it (0: none), kept
    // by slot_calendar::reserve_run_past_own; a job books each bank in time order.
    std::vector<std::uint64_t> own_next_;
    // rows()'s start cycles and, per cycle, the bank mask of the rows that
    // start in it, for a call whose rows are narrower than the port (kept: a
    // job calls it per tile).
    std::vector<std::uint64_t> row_cycles_;
    std::vector<std::uint16_t> row_masks_;
};

// The loosely-timed engine (sa.model=tlm): evaluates the whole job at once,
// each tile's accesses issued at the tile's time, timed by the closed form
// plus the waits of its L1 port for banks other initiators booked
// (sa_port_booking).
class sa_tlm_engine : public sa_engine {
public:
    explicit sa_tlm_engine(const sa_engine_env& env)
        : env_(env), port_(env.l1_banks, env.geometry.port_bandwidth) {}
    sa_run execute(const sa_job& j, const sc_core::sc_time& t0) override;

private:
    // One row of an operand through the master at time `when`.
    bool access(int operand, std::uint64_t addr, void* data, unsigned len, bool write, const sc_core::sc_time& when,
                unsigned row, sa_run& run);
    // The host bytes of `rows` rows of `len` bytes from `first`, `stride`
    // apart, when all lie in the job's read window (each row memchecked and
    // the traffic counted, as a DMI read does), else null.
    const unsigned char* view_rows(std::uint64_t first, std::uint64_t stride, std::uint64_t rows, unsigned len);
    // `rows` rows of `len` bytes from `first`, `stride` apart, into `dst`
    // (`pitch` bytes apart); rows are numbered from `row0` in a fault.
    bool read_rows(std::uint64_t first, std::uint64_t stride, std::uint64_t rows, unsigned len, void* dst,
                   std::size_t pitch, int operand, unsigned row0, const sc_core::sc_time& when, sa_run& run);
    sa_engine_env env_;
    sa_port_booking port_;
    // The DMI windows this job's last read and write went through (valid
    // during one execute(): nothing else runs meanwhile to invalidate them).
    base::dmi_window read_window_, write_window_;
};

}  // namespace npu::accel
