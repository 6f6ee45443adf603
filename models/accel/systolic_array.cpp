#include "systolic_array.h"

#include "sa_regs.h"

#include "config/memory_map.h"

#include <fmt/format.h>

#include <cmath>

namespace npu::accel {

namespace {

constexpr std::uint32_t max_dim = 0xFFFF;
constexpr int operand_a = NPU_SA_ERR_OPERAND_A, operand_b = NPU_SA_ERR_OPERAND_B, operand_c = NPU_SA_ERR_OPERAND_C;

const char* operand_name(int op) { return op == operand_a ? "A" : op == operand_b ? "B" : "C"; }

}  // namespace

// --- model ---------------------------------------------------------------------------

namespace {
base::initiator_id make_id(const std::string& module) {
    return base::initiator_id{module + ".bus", static_cast<int>(cfg::initiator_class::sa), -1, "systolic array"};
}
}  // namespace

systolic_array::systolic_array(sc_core::sc_module_name nm, const cfg::config& cfg, const sa_engine_maker& make_engine)
    : peripheral(nm, cfg, "sa_ctrl"),
      bus("bus", make_id(name())),
      done("done"),
      error("error"),
      stop_on_error(cfg.boolean("sa.stop_on_error")) {
    geo_.rows = cfg.count("sa.rows");
    geo_.cols = cfg.count("sa.cols");
    geo_.setup_cycles = cfg.cycles("sa.setup_latency");
    // The port moves at most one word per L1 bank per cycle: a wider
    // sa.l1_bandwidth than l1.banks x l1.bank_width (a sweep over small bank
    // counts keeps the 64 B default) would stream more bytes per cycle than
    // the whole L1 serves, and the job's own conflicts are not modelled.
    const std::uint64_t l1_port = cfg.count("l1.banks") * cfg.size("l1.bank_width");
    geo_.port_bandwidth = std::min<std::uint64_t>(cfg.size("sa.l1_bandwidth"), l1_port);
    if (geo_.port_bandwidth < cfg.size("sa.l1_bandwidth"))
        NPU_LOG(log(), warn,
                "sa.l1_bandwidth ({} B) exceeds what the L1's banks serve per cycle (l1.banks x l1.bank_width = {} x "
                "{} B): the array's port moves {} B per cycle",
                cfg.size("sa.l1_bandwidth"), cfg.count("l1.banks"), cfg.size("l1.bank_width"), geo_.port_bandwidth);
    geo_.weight_buffers = cfg.count("sa.weight_buffers");
    // The port shares the L1's banks with the cores and the DMA (the memory
    // sets the calendar up; a second init is a no-op).
    auto& l1_banks = context().shared<base::l1_bank_calendar>();
    l1_banks.init(cfg);
    l1_banks_ = &l1_banks;
    engine_ = make_engine(sa_engine_env{bus, geo_, clock_period(), services(), &l1_banks});

    // Job registers: plain storage, mirrored here and latched at START.
    const std::pair<std::uint32_t, const char*> job_regs[] = {
        {NPU_SA_A_ADDR, "A_ADDR"}, {NPU_SA_B_ADDR, "B_ADDR"}, {NPU_SA_C_ADDR, "C_ADDR"}, {NPU_SA_M, "M"},
        {NPU_SA_N, "N"},           {NPU_SA_K, "K"},           {NPU_SA_LDA, "LDA"},       {NPU_SA_LDB, "LDB"},
        {NPU_SA_LDC, "LDC"},       {NPU_SA_CTRL, "CTRL"},
    };
    for (const auto& [off, nm_] : job_regs)
        add_register(off, nm_, read_write, 0, nullptr, [this, o = off](std::uint32_t v) { job_regs_[o / 4] = v; });
    add_register(NPU_SA_START, "START", write_only, 0, nullptr, [this](std::uint32_t v) { start(v); });
    add_register(NPU_SA_STATUS, "STATUS", read_only, 0, [this] {
        // A reader that sees the job ended (STATUS answers at its local
        // time, which a decoupled core has ahead of SystemC's) may read C
        // next: the results count as landed for memcheck from now, as after
        // WAIT, instead of when SystemC time reaches the job's end (a core
        // polling npu_sa_busy() then read C "before the job ended").
        const sc_core::sc_time at = access_time();
        if (started_ && at >= job_end_) release_results();
        return status_at(at);
    });
    add_register(NPU_SA_WAIT, "WAIT", read_only, 0, [this] {
        // Blocks the reader until the job has ended: first up to its own
        // local time (delay = 0), then on the end event, so a core sleeps
        // through the job instead of counting it as a memory stall.
        if (started_ && job_end_ > access_time()) {
            synchronise_access();
            // Notified here, not at START: a pending earlier notification
            // would swallow a later one; re-arming per wake-up cannot hang.
            while (base::sim_time() < job_end_) {
                job_end_event_.notify(job_end_ - base::sim_time());
                wait_in_access(job_end_event_);
            }
        }
        return status_at(access_time());
    });
    add_register(NPU_SA_ERR_ADDR, "ERR_ADDR", read_only, 0, [this] { return err_addr_; });
    add_register(NPU_SA_ERR_INFO, "ERR_INFO", read_only, 0, [this] { return err_info_; });
    add_register(NPU_SA_CYCLES, "CYCLES", read_only, 0, [this] { return static_cast<std::uint32_t>(job_cycles_); });
    add_register(NPU_SA_ROWS, "ROWS", read_only, static_cast<std::uint32_t>(geo_.rows));
    // For the debugger (reads without side effects, at SystemC time).
    set_peek(NPU_SA_STATUS, [this] { return status_at(base::sim_time()); });
    for (const std::uint32_t r : {NPU_SA_ERR_ADDR, NPU_SA_ERR_INFO, NPU_SA_CYCLES}) set_peek(r);
    add_register(NPU_SA_COLS, "COLS", read_only, static_cast<std::uint32_t>(geo_.cols));

    add_stat("jobs", jobs_, "jobs", "matmul jobs started");
    add_stat("macs", macs_, "MACs", "multiply-accumulates of the started jobs (M*N*K)");
    add_stat("macs_f32", macs_f32_, "MACs", "of which fp32 (the rest int8): energy per MAC differs");
    add_stat("busy_cycles", busy_cycles_, "cycles", "cycles the array was busy (setup + weight tiles)");
    add_stat("stall_cycles", stall_cycles_, "cycles", "busy cycles the L1 port added beyond compute");
    add_stat("errors", errors_, "jobs", "jobs aborted by a bus error");
    add_stat("refused_starts", refused_, "writes", "START writes refused (busy, or an invalid job)");
    add_stat("jobs_past_calendar", jobs_past_calendar_, "jobs",
             "jobs longer than the L1 bank calendar's ring: their bank contention past it is approximated");
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
    s += fmt::format("  started by: {}\n", starter());
    if (const std::string site = starter_site(); !site.empty()) s += fmt::format("  caller    : {}\n", site);
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
    // Its name, formatted only for a log line or report (not per job).
    const auto by = [who] { return starter_text(who); };
    if (started_ && t0 < job_end_) {
        ++refused_;
        NPU_LOG(log(), warn, "START by {} refused: the job started at cycle {} runs until cycle {}", by(),
                static_cast<std::uint64_t>(job_start_ / clock_period()),
                static_cast<std::uint64_t>(job_end_ / clock_period()));
        reject_access();
        return;
    }
    if (std::string why = validate(j); !why.empty()) {
        ++refused_;
        NPU_LOG(log(), warn, "START by {} refused: {}", by(), why);
        reject_access();
        return;
    }

    // Buffers in use: C must not overlap what an in-flight DMA transfer
    // reads or writes (the array writes C over the whole job on silicon).
    if (services().memcheck() != base::memcheck_mode::off) {
        const bool has_pc = who && who->hart >= 0;
        const std::uint64_t pc = current_pc();
        const base::buffer_use mine = use_of(j, [&] {
            return fmt::format("new systolic array job {}x{}x{} {} (A 0x{:08x}, B 0x{:08x}, C 0x{:08x}), "
                               "started by {}{}",
                               j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", j.a, j.b, j.c, by(),
                               has_pc ? fmt::format(" at pc 0x{:08x}", pc) : "");
        }, true);
        if (services().buffer_write_conflict(mine, t0)) {
            // A transfer that ended before the starter's (decoupled) local
            // time may not have cleared its busy bit yet: catch up, look again.
            synchronise_access();
            if (auto m = services().buffer_write_conflict(mine, access_time())) {
                m->who = &bus.who();
                m->pc = current_pc();
                m->has_pc = has_pc;
                services().memcheck_finding(*m);
            }
        }
        // C in a heap block the program freed: the job would write through a stale pointer.
        const std::uint64_t row = std::uint64_t{j.n} * sa_job::out_bytes;
        const std::uint64_t c_end = std::uint64_t{j.c} + std::uint64_t{j.m - 1} * j.ldc + row;
        // Else a row that runs into a heap block's header or padding.
        auto& svc = services();
        const bool freed = svc.first_freed && j.m && svc.first_freed(j.c, c_end);
        const bool overflow = !freed && svc.first_redzone && j.m && svc.first_redzone(j.c, c_end);
        if (!svc.stop_requested() && (freed || overflow))
            for (std::uint32_t i = 0; i < j.m; ++i) {
                const std::uint64_t a = std::uint64_t{j.c} + std::uint64_t{i} * j.ldc;
                const auto f = freed ? svc.first_freed(a, a + row) : svc.first_redzone(a, a + row);
                if (!f) continue;
                base::memcheck_info m;
                m.freed_store = freed;
                m.heap_overflow = overflow;
                m.is_write = true;
                m.who = &bus.who();
                m.pc = pc;
                m.has_pc = has_pc;
                m.access = a;
                m.address = *f;
                m.size = m.unwritten = static_cast<unsigned>(row);
                if (overflow) m.unwritten = static_cast<unsigned>(a + row - *f);  // from the first byte past the block
                m.context = fmt::format("  job       : new systolic array job {}x{}x{} {} (C 0x{:08x}, rows {} B "
                                        "apart), started by {}; its C row {}\n",
                                        j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", j.c, j.ldc, by(), i);
                if (overflow && svc.heap_redzone)
                    if (const std::string b = svc.heap_redzone(*f); !b.empty()) m.context += "  block     : " + b + "\n";
                // The pc is the runtime's: name the program's call too.
                if (has_pc && services().runtime_caller)
                    if (const base::deferred_text site = services().runtime_caller(who->hart))
                        if (const std::string c = site(); !c.empty()) m.context += fmt::format("  caller    : {}\n", c);
                services().memcheck_finding(m);
                break;
            }
    }
    starter_who_ = who;
    starter_pc_ = current_pc();
    starter_has_pc_ = who && who->hart >= 0;
    // The user's call into the runtime, unwound now while the starter's
    // stack is live (the job's memcheck reports come later).
    starter_site_ = nullptr;
    if (starter_has_pc_ && services().memcheck() != base::memcheck_mode::off && services().runtime_caller)
        starter_site_ = services().runtime_caller(who->hart);
    // Memcheck and bus-error reports name the PC that wrote START.
    if (starter_has_pc_) bus.set_pc(starter_pc_);
    started_ = true;
    job_start_ = t0;
    err_addr_ = err_info_ = 0;
    ++jobs_;
    macs_ += std::uint64_t(j.m) * j.n * j.k;
    if (j.fp32) macs_f32_ += std::uint64_t(j.m) * j.n * j.k;

    const sa_run run = engine_->execute(j, t0);
    const bool ok = run.ok;
    stall_cycles_ += run.stall_cycles;
    if (ok)
        job_end_ = run.end;
    else
        fault(j, run.failed);
    job_cycles_ = cycle_of(job_end_ - t0);
    busy_cycles_ += job_cycles_;
    // The job booked its L1 bank-cycles at its start, up to its end, and
    // the engine grew the calendar's ring, if it had to, to hold twice the
    // job's cycles alone on top of two quanta for the others, and again on
    // the way for a stream that waited longer (sa_port_booking::reach). A
    // job still longer than the ring met its cap: it booked cells booked a
    // ring earlier, and the later booking dropped the earlier
    // (slot_calendar.h): cores and DMA bursts then see no SA booking where
    // there was one. Counted, and said once, so an architect reading the
    // contention figures knows (docs/memory-map.md).
    if (ok && run.booked_banks) {
        const std::uint64_t ring = l1_banks_->banks.ring_cycles();
        if (ring != 0 && job_cycles_ >= ring && jobs_past_calendar_++ == 0)
            NPU_LOG(log(), warn,
                    "job {}x{}x{} of {} cycles is longer than the L1 bank calendar's ring of {} cycles: the bank "
                    "contention other initiators see against it is approximated past that (stat "
                    "sa.jobs_past_calendar counts such jobs)",
                    j.m, j.n, j.k, job_cycles_, ring);
    }
    if (base::activity_sink* a = context().activity)
        a->span("systolic array", fmt::format("{}x{}x{} {}", j.m, j.n, j.k, j.fp32 ? "fp32" : "int8"),
                static_cast<std::uint64_t>(std::llround(t0 / clock_period())),
                static_cast<std::uint64_t>(std::llround(job_end_ / clock_period())),
                {{"M", std::to_string(j.m)},
                 {"N", std::to_string(j.n)},
                 {"K", std::to_string(j.k)},
                 {"A", fmt::format("{:#010x}", j.a)},
                 {"B", fmt::format("{:#010x}", j.b)},
                 {"C", fmt::format("{:#010x}", j.c)},
                 {"accumulate", j.accumulate ? "yes" : "no"},
                 {"started by", by()},
                 {"status", ok ? "done" : "aborted"}});
    outcome_ = ok ? outcome::done : outcome::error;
    const sc_core::sc_time to_end = job_end_ - base::sim_time();
    NPU_LOG(log(), debug, "job {}x{}x{} {} by {}: {} cycles, {}", j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", by(),
            job_cycles_, ok ? "done" : "aborted");
    if (ok) {
        if (services().memcheck() != base::memcheck_mode::off) {
            release_results();  // an earlier job's
            mark_results(j, true);
            pending_results_ = j;
            results_pending_ = true;
            job_ran_ = true;
            // A core's store into A, B or C before the job's end races with
            // it (sim_services::watch): the array reads A and B and writes C
            // over the whole job on silicon.
            auto& svc = services();
            svc.unwatch(this);
            for_each_operand_extent(j, [&](std::uint64_t lo, std::uint64_t hi) { svc.watch(this, lo, hi, job_end_); });
        }
        done->drive(0, true, to_end);
        return;
    }
    ++errors_;
    // The job before this one ended by this START: its use is over, and
    // job_start_/job_end_ are this aborted job's now.
    job_ran_ = false;
    services().unwatch(this);
    error->drive(0, true, to_end);
    if (stop_on_error) services().bus_error(fault_);
}

std::string systolic_array::starter_text(const base::initiator_id* who) {
    if (!who) return "an unknown initiator";
    return who->hart >= 0 ? fmt::format("hart {} ({})", who->hart, who->role) : who->name;
}

void systolic_array::mark_results(const sa_job& j, bool on) {
    for (std::uint64_t i = 0; i < j.m; ++i)
        bus.memcheck_in_flight(std::uint64_t{j.c} + i * j.ldc, j.n * sa_job::out_bytes, on);
}

bool systolic_array::release_ended_results(std::uint64_t addr) {
    // Waiting for the job (WAIT, or sleeping on its done event) brings the
    // reader's SystemC time to the job's end, so this compares true times.
    if (!results_pending_ || base::sim_time() < job_end_) return false;
    if (addr != UINT64_MAX && running_job_row(addr) < 0) return false;
    release_results();
    return true;
}

void systolic_array::release_results() {
    if (!results_pending_) return;
    results_pending_ = false;
    mark_results(pending_results_, false);
}

template <class F>
void systolic_array::for_each_operand_extent(const sa_job& j, F&& f) {
    // Rows i < count at base + i * stride, each len bytes: the non-empty
    // operands' [first, end), as use_of's spans make them (in 64 bits).
    const std::uint64_t in = j.in_bytes();
    const auto extent = [&f](std::uint64_t base, std::uint64_t stride, std::uint64_t count, std::uint64_t len) {
        if (count != 0 && len != 0) f(base, base + (count - 1) * stride + len);
    };
    extent(j.a, j.lda, j.m, j.k * in);
    extent(j.b, j.ldb, j.k, j.n * in);
    extent(j.c, j.ldc, j.m, std::uint64_t{j.n} * sa_job::out_bytes);
}

base::buffer_use systolic_array::use_of(const sa_job& j, base::deferred_text describe, bool writes_only) {
    base::buffer_use u;
    u.describe = std::move(describe);
    const std::uint64_t in = j.in_bytes();
    u.spans.reserve(writes_only ? std::size_t(j.m) : std::size_t(j.m) * 2 + j.k);
    if (!writes_only) {
        for (std::uint64_t i = 0; i < j.m; ++i)
            u.spans.push_back({j.a + i * j.lda, j.a + i * j.lda + j.k * in, false, "A"});
        for (std::uint64_t i = 0; i < j.k; ++i)
            u.spans.push_back({j.b + i * j.ldb, j.b + i * j.ldb + j.n * in, false, "B"});
    }
    for (std::uint64_t i = 0; i < j.m; ++i)
        u.spans.push_back({j.c + i * j.ldc, j.c + i * j.ldc + std::uint64_t{j.n} * sa_job::out_bytes, true, "C"});
    return u;
}

void systolic_array::running_job_use(const sc_core::sc_time& at, std::vector<base::buffer_use>& out) const {
    // In use from its START to its end: a store by a hart behind the
    // starter's time came before the job (the verdict would otherwise
    // depend on which of them the quantum let run first).
    if (!job_ran_ || at >= job_end_ || at < job_start_) return;
    // Its spans' bounds, made only if a write meets them (as a DMA
    // transfer's in dma::in_flight_uses): every DMA push is checked against
    // the running job, whose use_of has a span per row of B.
    base::buffer_use u;
    const sa_job& pj = pending_results_;
    for_each_operand_extent(pj, [&u](std::uint64_t lo, std::uint64_t hi) { u.add_part(lo, hi); });
    u.make_spans = [j = pj](std::vector<base::buffer_span>& spans) { spans = use_of(j, nullptr).spans; };
    u.describe = [this] {
        const sa_job& j = pending_results_;
        const std::string site = starter_site();
        return fmt::format("systolic array job {}x{}x{} {} (A 0x{:08x}, B 0x{:08x}, C 0x{:08x}), "
                           "started by {}{}{}, ends at cycle {}",
                           j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", j.a, j.b, j.c, starter(),
                           starter_has_pc_ ? fmt::format(" at pc 0x{:08x}", starter_pc_) : "",
                           site.empty() ? "" : " (" + site + ")",
                           static_cast<std::uint64_t>(job_end_ / clock_period()));
    };
    out.push_back(std::move(u));
}

int systolic_array::running_job_row(std::uint64_t addr) const {
    if (!results_pending_) return -1;
    const sa_job& j = pending_results_;
    for (std::uint64_t i = 0; i < j.m; ++i) {
        const std::uint64_t a = std::uint64_t{j.c} + i * j.ldc;
        if (addr >= a && addr < a + std::uint64_t{j.n} * sa_job::out_bytes) return static_cast<int>(i);
    }
    return -1;
}

std::string systolic_array::running_job_at(std::uint64_t addr) const {
    const int row = running_job_row(addr);
    if (row < 0) return {};
    const sa_job& j = pending_results_;
    const std::string site = starter_site();
    return fmt::format(
        "systolic array job {}x{}x{} {} writing C at 0x{:08x} (row {}), started by {}{}{}, ends at "
        "cycle {}",
        j.m, j.n, j.k, j.fp32 ? "fp32" : "int8", j.c, row, starter(),
        starter_has_pc_ ? fmt::format(" at pc 0x{:08x}", starter_pc_) : "", site.empty() ? "" : " (" + site + ")",
        static_cast<std::uint64_t>(job_end_ / clock_period()));
}

void systolic_array::fault(const sa_job& j, const sa_failed_access& f) {
    const int operand = f.operand;
    const std::uint64_t addr = f.addr;
    const unsigned len = f.len;
    const bool write = f.write;
    const unsigned row = f.row;
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
    job_end_ = f.when;

    const std::uint64_t ld = operand == operand_a ? j.lda : operand == operand_b ? j.ldb : j.ldc;
    const std::uint64_t first = operand == operand_a ? j.a : operand == operand_b ? j.b : j.c;
    NPU_LOG(log(), warn, "job aborted: {} of operand {} row {} at 0x{:08x} faulted", write ? "write" : "read",
            operand_name(operand), row, bad);
    // Still inside the starter's START access: its stack is live.
    if (!starter_site_ && starter_has_pc_ && services().runtime_caller)
        if (const base::initiator_id* who = current_initiator()) starter_site_ = services().runtime_caller(who->hart);
    base::bus_error_info& info = fault_;
    info = base::bus_error_info{};
    info.who = &bus.who();
    info.pc = starter_pc_;
    info.has_pc = starter_has_pc_;
    // The access is the row the array streams: its start and length (the
    // report then says where in it the memory ends, if it does); ERR_ADDR
    // keeps the first faulting element.
    info.address = addr & 0xFFFFFFFFull;
    info.size = len;
    info.is_write = write;
    info.context =
        fmt::format("  operand   : {} ({} of row {}: {} bytes at 0x{:08x} = {} + {} * {})\n", operand_name(operand),
                    write ? "write" : "read", row, len, addr, fmt::format("0x{:08x}", first), row, ld) +
        describe_job(j);
}

}  // namespace npu::accel
