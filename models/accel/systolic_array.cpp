#include "systolic_array.h"

#include "sa_regs.h"

#include "config/memory_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <vector>

namespace npu::accel {

namespace {

constexpr std::uint32_t max_dim = 0xFFFF;
constexpr int operand_a = NPU_SA_ERR_OPERAND_A, operand_b = NPU_SA_ERR_OPERAND_B, operand_c = NPU_SA_ERR_OPERAND_C;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

const char* operand_name(int op) { return op == operand_a ? "A" : op == operand_b ? "B" : "C"; }

}  // namespace

// --- cycle model --------------------------------------------------------------------

std::uint64_t sa_tile_compute_cycles(const sa_geometry& g, std::uint64_t m) {
    return g.rows + (m + g.rows + g.cols - 2);
}

std::uint64_t sa_tile_bytes(const sa_job& j, std::uint64_t k_t, std::uint64_t n_t, bool first_k, bool last_k) {
    const std::uint64_t e = j.in_bytes();
    std::uint64_t bytes = k_t * n_t * e + std::uint64_t(j.m) * k_t * e;
    if (first_k && j.accumulate) bytes += std::uint64_t(j.m) * n_t * sa_job::out_bytes;
    if (last_k) bytes += std::uint64_t(j.m) * n_t * sa_job::out_bytes;
    return bytes;
}

sa_cycles sa_job_cycles(const sa_job& j, const sa_geometry& g) {
    sa_cycles r;
    r.total = g.setup_cycles;
    const std::uint64_t compute = sa_tile_compute_cycles(g, j.m);
    for (std::uint64_t n0 = 0; n0 < j.n; n0 += g.cols)
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += g.rows) {
            const std::uint64_t n_t = std::min<std::uint64_t>(g.cols, j.n - n0);
            const std::uint64_t k_t = std::min<std::uint64_t>(g.rows, j.k - k0);
            const std::uint64_t mem =
                ceil_div(sa_tile_bytes(j, k_t, n_t, k0 == 0, k0 + g.rows >= j.k), g.port_bandwidth);
            const std::uint64_t tile = std::max(compute, mem);
            r.total += tile;
            r.compute += compute;
            r.stall += tile - compute;
            ++r.tiles;
        }
    return r;
}

// --- model ---------------------------------------------------------------------------

namespace {
base::initiator_id make_id(const std::string& module) {
    return base::initiator_id{module + ".bus", static_cast<int>(cfg::initiator_class::sa), -1, "systolic array"};
}
}  // namespace

systolic_array::systolic_array(sc_core::sc_module_name nm, const cfg::config& cfg)
    : peripheral(nm, cfg, "sa_ctrl"), bus("bus", make_id(name())), stop_on_error(cfg.boolean("sa.stop_on_error")) {
    geo_.rows = cfg.count("sa.rows");
    geo_.cols = cfg.count("sa.cols");
    geo_.setup_cycles = cfg.cycles("sa.setup_latency");
    geo_.port_bandwidth = cfg.size("sa.l1_bandwidth");

    // Job registers: plain storage, mirrored here and latched at START.
    const std::pair<std::uint32_t, const char*> job_regs[] = {
        {NPU_SA_A_ADDR, "A_ADDR"}, {NPU_SA_B_ADDR, "B_ADDR"}, {NPU_SA_C_ADDR, "C_ADDR"}, {NPU_SA_M, "M"},
        {NPU_SA_N, "N"},           {NPU_SA_K, "K"},           {NPU_SA_LDA, "LDA"},       {NPU_SA_LDB, "LDB"},
        {NPU_SA_LDC, "LDC"},       {NPU_SA_CTRL, "CTRL"},
    };
    for (const auto& [off, nm_] : job_regs)
        add_register(off, nm_, read_write, 0, nullptr, [this, o = off](std::uint32_t v) { job_regs_[o / 4] = v; });
    add_register(NPU_SA_START, "START", write_only, 0, nullptr, [this](std::uint32_t v) { start(v); });
    add_register(NPU_SA_STATUS, "STATUS", read_only, 0, [this] { return status_at(access_time()); });
    add_register(NPU_SA_WAIT, "WAIT", read_only, 0, [this] {
        // Blocks the reader until the job has ended: first up to its own
        // local time (delay = 0), then on the end event, so a core sleeps
        // through the job instead of counting it as a memory stall.
        if (started_ && job_end_ > access_time()) {
            synchronise_access();
            // Notified here, not at START: a pending earlier notification
            // would swallow a later one; re-arming per wake-up cannot hang.
            while (sc_core::sc_time_stamp() < job_end_) {
                job_end_event_.notify(job_end_ - sc_core::sc_time_stamp());
                wait_in_access(job_end_event_);
            }
        }
        return status_at(access_time());
    });
    add_register(NPU_SA_ERR_ADDR, "ERR_ADDR", read_only, 0, [this] { return err_addr_; });
    add_register(NPU_SA_ERR_INFO, "ERR_INFO", read_only, 0, [this] { return err_info_; });
    add_register(NPU_SA_CYCLES, "CYCLES", read_only, 0, [this] { return static_cast<std::uint32_t>(job_cycles_); });
    add_register(NPU_SA_ROWS, "ROWS", read_only, static_cast<std::uint32_t>(geo_.rows));
    add_register(NPU_SA_COLS, "COLS", read_only, static_cast<std::uint32_t>(geo_.cols));

    add_stat("jobs", jobs_, "jobs", "matmul jobs started");
    add_stat("macs", macs_, "MACs", "multiply-accumulates of the started jobs (M*N*K)");
    add_stat("busy_cycles", busy_cycles_, "cycles", "cycles the array was busy (setup + weight tiles)");
    add_stat("stall_cycles", stall_cycles_, "cycles", "busy cycles the L1 port added beyond compute");
    add_stat("errors", errors_, "jobs", "jobs aborted by a bus error");
    add_stat("refused_starts", refused_, "writes", "START writes refused (busy, or an invalid job)");
}

std::uint32_t systolic_array::status_at(const sc_core::sc_time& t) const {
    if (!started_) return 0;
    if (t < job_end_) return NPU_SA_STATUS_BUSY;
    return outcome_ == outcome::error ? NPU_SA_STATUS_ERROR : NPU_SA_STATUS_DONE;
}

std::string systolic_array::validate(const sa_job& j) const {
    if (!j.m || !j.n || !j.k || j.m > max_dim || j.n > max_dim || j.k > max_dim)
        return fmt::format("M, N, K must be 1..{} (M={}, N={}, K={})", max_dim, j.m, j.n, j.k);
    const unsigned e = j.in_bytes();
    // Shorter strides would overlap rows: for C that silently loses results.
    if (std::uint64_t(j.lda) < std::uint64_t(j.k) * e)
        return fmt::format("LDA {} B is shorter than a row of A (K={} x {} B)", j.lda, j.k, e);
    if (std::uint64_t(j.ldb) < std::uint64_t(j.n) * e)
        return fmt::format("LDB {} B is shorter than a row of B (N={} x {} B)", j.ldb, j.n, e);
    if (std::uint64_t(j.ldc) < std::uint64_t(j.n) * sa_job::out_bytes)
        return fmt::format("LDC {} B is shorter than a row of C (N={} x 4 B)", j.ldc, j.n);
    return {};
}

std::string systolic_array::describe_job(const sa_job& j) const {
    const char* t = j.fp32 ? "fp32" : "int8";
    std::string s = fmt::format("  sa job    : C[{}x{}] {} A[{}x{}] * B[{}x{}], {} -> {}\n", j.m, j.n,
                                j.accumulate ? "+=" : "=", j.m, j.k, j.k, j.n, t, j.fp32 ? "fp32" : "int32");
    s += fmt::format("  A         : 0x{:08x}, lda {} B\n", j.a, j.lda);
    s += fmt::format("  B         : 0x{:08x}, ldb {} B\n", j.b, j.ldb);
    s += fmt::format("  C         : 0x{:08x}, ldc {} B\n", j.c, j.ldc);
    s += fmt::format("  started by: {}\n", starter_);
    return s;
}

void systolic_array::start(std::uint32_t) {
    const sc_core::sc_time t0 = access_time();
    sa_job j;
    j.a = job_regs_[NPU_SA_A_ADDR / 4];
    j.b = job_regs_[NPU_SA_B_ADDR / 4];
    j.c = job_regs_[NPU_SA_C_ADDR / 4];
    j.m = job_regs_[NPU_SA_M / 4];
    j.n = job_regs_[NPU_SA_N / 4];
    j.k = job_regs_[NPU_SA_K / 4];
    j.lda = job_regs_[NPU_SA_LDA / 4];
    j.ldb = job_regs_[NPU_SA_LDB / 4];
    j.ldc = job_regs_[NPU_SA_LDC / 4];
    const std::uint32_t ctrl = job_regs_[NPU_SA_CTRL / 4];
    j.fp32 = ctrl & NPU_SA_CTRL_DTYPE_FP32;
    j.accumulate = ctrl & NPU_SA_CTRL_ACCUMULATE;

    const auto* who = current_initiator();
    const std::string by = who ? (who->hart >= 0 ? fmt::format("hart {} ({})", who->hart, who->role) : who->name)
                               : std::string("an unknown initiator");
    if (started_ && t0 < job_end_) {
        ++refused_;
        NPU_LOG(log(), warn, "START by {} refused: the job started at cycle {} runs until cycle {}", by,
                static_cast<std::uint64_t>(job_start_ / clock_period()),
                static_cast<std::uint64_t>(job_end_ / clock_period()));
        reject_access();
        return;
    }
    if (std::string why = validate(j); !why.empty()) {
        ++refused_;
        NPU_LOG(log(), warn, "START by {} refused: {}", by, why);
        reject_access();
        return;
    }

    starter_ = by;
    starter_pc_ = current_pc();
    starter_has_pc_ = who && who->hart >= 0;
    // Memcheck and bus-error reports name the PC that wrote START.
    if (starter_has_pc_) bus.set_pc(starter_pc_);
    started_ = true;
    job_start_ = t0;
    err_addr_ = err_info_ = 0;
    ++jobs_;
    macs_ += std::uint64_t(j.m) * j.n * j.k;

    const bool ok = execute(j, t0);
    job_cycles_ = static_cast<std::uint64_t>(std::llround((job_end_ - t0) / clock_period()));
    busy_cycles_ += job_cycles_;
    outcome_ = ok ? outcome::done : outcome::error;
    const sc_core::sc_time to_end = job_end_ - sc_core::sc_time_stamp();
    NPU_LOG(log(), debug, "job {}x{}x{} {} by {}: {} cycles, {}", j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", by,
            job_cycles_, ok ? "done" : "aborted");
    if (ok) {
        if (on_done) on_done(to_end);
        return;
    }
    ++errors_;
    if (on_error) on_error(to_end);
    if (stop_on_error) base::sim_services::get().bus_error(fault_);
}

bool systolic_array::access(const sa_job& j, int operand, std::uint64_t addr, void* data, unsigned len, bool write,
                            const sc_core::sc_time& when, unsigned row) {
    // The access is issued at `when`; the memory's answer (latency, DMI) is
    // not the SA's timing — the cycle model is (see sa_job_cycles).
    sc_core::sc_time delay = when - sc_core::sc_time_stamp();
    const auto st = addr + len - 1 > 0xFFFFFFFFull ? tlm::TLM_ADDRESS_ERROR_RESPONSE
                    : write                        ? bus.write(addr, data, len, delay)
                                                   : bus.read(addr, data, len, delay);
    if (st == tlm::TLM_OK_RESPONSE) return true;
    fault(j, operand, addr, len, write, when, row);
    return false;
}

void systolic_array::fault(const sa_job& j, int operand, std::uint64_t addr, unsigned len, bool write,
                           const sc_core::sc_time& when, unsigned row) {
    const bool not_visible = bus.last_ext().routed == base::txn_ext::route::not_visible;
    // A row burst failed: find its first element the SA cannot reach, so the
    // report names the exact address (debug reads: no timing, no memcheck).
    const unsigned e = operand == operand_c ? sa_job::out_bytes : j.in_bytes();
    std::uint64_t bad = addr;
    for (std::uint64_t a = addr; a < addr + len; a += e) {
        unsigned char probe[4];
        if (a + e - 1 > 0xFFFFFFFFull || bus.debug_read(a, probe, e) != e) {
            bad = a;
            break;
        }
    }
    bad &= 0xFFFFFFFFull;
    err_addr_ = static_cast<std::uint32_t>(bad);
    err_info_ = static_cast<std::uint32_t>(operand) | (write ? NPU_SA_ERR_WRITE : 0u) |
                (not_visible ? NPU_SA_ERR_NOT_VISIBLE : 0u);
    job_end_ = when;

    const std::uint64_t ld = operand == operand_a ? j.lda : operand == operand_b ? j.ldb : j.ldc;
    const std::uint64_t first = operand == operand_a ? j.a : operand == operand_b ? j.b : j.c;
    NPU_LOG(log(), warn, "job aborted: {} of operand {} row {} at 0x{:08x} faulted", write ? "write" : "read",
            operand_name(operand), row, bad);
    base::bus_error_info& info = fault_;
    info = base::bus_error_info{};
    info.who = &bus.who();
    info.pc = starter_pc_;
    info.has_pc = starter_has_pc_;
    info.address = bad;
    info.size = e;
    info.is_write = write;
    info.context = fmt::format("  operand   : {} ({} of row {}: {} bytes at 0x{:08x} = {} + {} * {})\n",
                               operand_name(operand), write ? "write" : "read", row, len, addr,
                               fmt::format("0x{:08x}", first), row, ld) +
                   describe_job(j);
}

bool systolic_array::execute(const sa_job& j, const sc_core::sc_time& t0) {
    const std::uint64_t R = geo_.rows, C = geo_.cols;
    const unsigned e = j.in_bytes();
    const std::uint64_t compute = sa_tile_compute_cycles(geo_, j.m);
    sc_core::sc_time t = t0 + cycles(geo_.setup_cycles);

    // fp32 cells use IEEE round-to-nearest-even whatever mode the host FPU
    // was left in (the cores' FPU sets modes per instruction).
    const int saved_round = std::fegetround();
    std::fesetround(FE_TONEAREST);
    struct restore {
        int mode;
        ~restore() { std::fesetround(mode); }
    } restore_round{saved_round};

    std::vector<unsigned char> a_tile(std::size_t(j.m) * R * e), b_tile(R * C * e);
    // The output accumulators of one N tile (int32 or fp32 bit patterns).
    std::vector<std::uint32_t> acc(std::size_t(j.m) * C);
    std::vector<std::uint32_t> c_row(C);

    for (std::uint64_t n0 = 0; n0 < j.n; n0 += C) {
        const std::uint64_t n_t = std::min<std::uint64_t>(C, j.n - n0);
        for (std::uint64_t k0 = 0; k0 < j.k; k0 += R) {
            const std::uint64_t k_t = std::min<std::uint64_t>(R, j.k - k0);
            const bool first_k = k0 == 0, last_k = k0 + R >= j.k;
            const std::uint64_t mem = ceil_div(sa_tile_bytes(j, k_t, n_t, first_k, last_k), geo_.port_bandwidth);
            const std::uint64_t tile = std::max(compute, mem);

            // Reads at the start of the tile: C (accumulate), weights, A slice.
            if (first_k) {
                for (std::uint64_t i = 0; i < j.m; ++i) {
                    std::uint32_t* out = &acc[i * C];
                    if (!j.accumulate) {
                        std::fill(out, out + n_t, 0u);  // int 0 and fp32 +0.0
                        continue;
                    }
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(j, operand_c, a, out, unsigned(n_t * 4), false, t, unsigned(i))) return false;
                }
            }
            for (std::uint64_t r = 0; r < k_t; ++r) {
                const std::uint64_t a = j.b + (k0 + r) * j.ldb + n0 * e;
                if (!access(j, operand_b, a, &b_tile[r * C * e], unsigned(n_t * e), false, t, unsigned(k0 + r)))
                    return false;
            }
            for (std::uint64_t i = 0; i < j.m; ++i) {
                const std::uint64_t a = j.a + i * j.lda + k0 * e;
                if (!access(j, operand_a, a, &a_tile[i * R * e], unsigned(k_t * e), false, t, unsigned(i)))
                    return false;
            }

            // The MACs. A column's partial sum enters at the top with the
            // accumulator value and gains one product per row, k ascending,
            // so fp32 results are, bit for bit,
            //   acc = accumulate ? C : +0.0;  for k in 0..K-1: acc = fmaf(A[i][k], B[k][j], acc)
            // (fused multiply-add, round to nearest even). int8: exact
            // products, int32 sums wrap modulo 2^32.
            for (std::uint64_t i = 0; i < j.m; ++i) {
                std::uint32_t* out = &acc[i * C];
                if (j.fp32) {
                    const float* arow = reinterpret_cast<const float*>(&a_tile[i * R * 4]);
                    for (std::uint64_t c = 0; c < n_t; ++c) {
                        float s;
                        std::memcpy(&s, &out[c], 4);
                        for (std::uint64_t r = 0; r < k_t; ++r) {
                            float w;
                            std::memcpy(&w, &b_tile[(r * C + c) * 4], 4);
                            float x;
                            std::memcpy(&x, &arow[r], 4);
                            s = std::fmaf(x, w, s);
                        }
                        std::memcpy(&out[c], &s, 4);
                    }
                } else {
                    const auto* arow = reinterpret_cast<const std::int8_t*>(&a_tile[i * R]);
                    for (std::uint64_t c = 0; c < n_t; ++c) {
                        std::uint32_t s = out[c];
                        for (std::uint64_t r = 0; r < k_t; ++r)
                            s += static_cast<std::uint32_t>(std::int32_t(arow[r]) *
                                                            std::int32_t(static_cast<std::int8_t>(b_tile[r * C + c])));
                        out[c] = s;
                    }
                }
            }
            t += cycles(tile);
            stall_cycles_ += tile - compute;

            // The finished N tile leaves the array at the end of its last K tile.
            if (last_k) {
                for (std::uint64_t i = 0; i < j.m; ++i) {
                    std::uint32_t* out = &acc[i * C];
                    if (j.fp32)
                        for (std::uint64_t c = 0; c < n_t; ++c)
                            if ((out[c] & 0x7F800000u) == 0x7F800000u && (out[c] & 0x007FFFFFu))
                                out[c] = 0x7FC00000u;  // canonical NaN, as the RISC-V F cores produce
                    const std::uint64_t a = j.c + i * j.ldc + n0 * 4;
                    if (!access(j, operand_c, a, out, unsigned(n_t * 4), true, t, unsigned(i))) return false;
                }
            }
            if (base::sim_services::get().stop_requested()) {  // e.g. memcheck=error stopped the run
                job_end_ = t;
                return true;
            }
        }
    }
    job_end_ = t;
    return true;
}

}  // namespace npu::accel
