// Verilator's headers first: included after SystemC's, they expect its
// sc_time_stamp() at global scope.
#include <verilated.h>
#include <verilated_fst_c.h>

#include "Vsa_engine.h"

#include "sa_rtl_engine.h"

#include "base/component.h"
#include "config/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <utility>

namespace npu::rtl {

const unsigned sa_rtl_engine::rows = NPU_RTL_SA_ROWS;
const unsigned sa_rtl_engine::cols = NPU_RTL_SA_COLS;
const unsigned sa_rtl_engine::max_m = NPU_RTL_SA_MAXM;

sa_rtl_injection sa_rtl_injection::parse(const std::string& spec) {
    static const std::regex form(R"(write:([1-9][0-9]{0,8})|setup:([1-9][0-9]{0,8}):([1-9][0-9]{0,4}))");
    std::smatch m;
    if (!std::regex_match(spec, m, form))
        throw cfg::config_error("NPU_RTL_SA_INJECT=" + spec +
                                ": expected write:JOB or setup:JOB:CYCLES (JOB counts SA jobs from 1; test-only)");
    sa_rtl_injection r;
    if (m[1].matched) {
        r.write_job = std::stoull(m[1]);
    } else {
        r.setup_job = std::stoull(m[2]);
        r.setup_extra = static_cast<std::uint32_t>(std::stoul(m[3]));
    }
    return r;
}

sa_rtl_engine::sa_rtl_engine(const accel::sa_engine_env& env, const sa_rtl_options& opt)
    : env_(env),
      bridge_(env.bus),
      port_(env.l1_banks, env.geometry.port_bandwidth),
      vctx_(std::make_unique<VerilatedContext>()) {
    // The RTL's parameters are fixed when it is Verilated: a config asking for
    // another shape is refused up front rather than simulated wrongly.
    if (env.geometry.rows != rows || env.geometry.cols != cols)
        throw cfg::config_error(fmt::format(
            "sa.model={}: the RTL array was Verilated as {}x{} (cmake -DNPU_RTL_SA_ROWS/COLS), the config asks for "
            "sa.rows={} sa.cols={}",
            opt.model, rows, cols, env.geometry.rows, env.geometry.cols));
    if (env.geometry.setup_cycles > 0xFFFF || env.geometry.port_bandwidth > 0xFFFF)
        throw cfg::config_error("sa.model=" + opt.model + ": sa.setup_latency and sa.l1_bandwidth must be below 65536");
    if (const char* spec = std::getenv("NPU_RTL_SA_INJECT"); spec && *spec) {
        inject_ = sa_rtl_injection::parse(spec);
        fmt::print(stderr, "NPU_RTL_SA_INJECT={}: the RTL SA engine injects a fault (test-only)\n", spec);
    }
    if (!opt.trace_file.empty()) vctx_->traceEverOn(true);
    top_ = std::make_unique<Vsa_engine>(vctx_.get(), "sa_engine");
    if (!opt.trace_file.empty()) {
        trace_file_ = opt.trace_file;
        // A VCD is converted from an FST written next to it (waveform.h).
        trace_fst_ = waveform_format_of(trace_file_) == waveform_format::fst ? trace_file_ : trace_file_ + ".tmp.fst";
        trace_ = std::make_unique<VerilatedFstC>();
        top_->trace(trace_.get(), 99);
        trace_->open(trace_fst_.c_str());
    }
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
}

sa_rtl_engine::~sa_rtl_engine() {
    top_->final();
    if (!trace_) return;
    trace_->close();
    if (trace_fst_ == trace_file_) return;
    const std::string why = fst_to_vcd(trace_fst_, trace_file_);
    if (why.empty())
        std::remove(trace_fst_.c_str());
    else  // a destructor cannot fail the run: say so, and keep the FST
        fmt::print(stderr, "--rtl-trace {}: {} (the waveform is in {})\n", trace_file_, why, trace_fst_);
}

sc_core::sc_time sa_rtl_engine::at_cycle() const { return t0_ + env_.period * static_cast<double>(top_->cycles_o); }

std::uint32_t sa_rtl_engine::tile_wait() {
    const std::size_t tile = tile_++;
    std::uint64_t wait = 0;
    if (replay_)
        wait = tile < replay_->size() ? (*replay_)[tile] : 0;
    else if (booking_)
        wait = port_.book_tile(*job_, cols, rows, top_->tile_n0_o, top_->tile_k0_o,
                               base::nearest_cycle(at_cycle(), env_.period));
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(wait, 0xFFFFFFFFu));
}

void sa_rtl_engine::step() {
    // Low phase: the response of the request granted last cycle, then the
    // port's request settles and is granted and performed at once.
    top_->clk_i = 0;
    top_->mem_rvalid_i = rvalid_;
    top_->mem_rdata_i = rdata_;
    top_->mem_err_i = rerr_;
    top_->eval();
    rvalid_ = false;
    top_->mem_gnt_i = top_->mem_req_o;
    if (top_->tile_start_o) top_->port_wait_i = tile_wait();
    if (top_->mem_req_o) {
        tcdm_request q;
        q.addr = top_->mem_addr_o;
        q.write = top_->mem_we_o;
        q.be = top_->mem_be_o;
        q.wdata = top_->mem_wdata_o;
        if (q.write && !write_seen_) {
            write_seen_ = true;
            if (jobs_ == inject_.write_job) q.wdata ^= 1u;
        }
        const tcdm_response r = bridge_.access(q, at_cycle());
        rvalid_ = true;
        rdata_ = r.rdata;
        rerr_ = r.err;
    }
    const std::uint64_t half =
        std::max<std::uint64_t>(1, env_.period.value() / sc_core::sc_time(1, sc_core::SC_PS).value() / 2);
    if (trace_) trace_->dump(trace_ps_);
    top_->clk_i = 1;
    top_->eval();
    trace_ps_ += half;
    if (trace_) trace_->dump(trace_ps_);
    trace_ps_ += half;
    ++steps_;
}

accel::sa_run sa_rtl_engine::execute(const accel::sa_job& j, const sc_core::sc_time& t0) {
    accel::sa_run run;
    t0_ = t0;
    ++jobs_;
    write_seen_ = false;
    if (j.m > max_m) {
        // Refused as a configuration limit of the RTL, not simulated wrongly.
        env_.services.request_stop(base::exit_code::bad_input,
                                   fmt::format("sa.model=rtl: the job has M={} rows, the RTL's accumulator holds {} "
                                               "(cmake -DNPU_RTL_SA_MAXM)",
                                               j.m, max_m));
        run.end = t0;
        return run;
    }
    trace_ps_ =
        std::max<std::uint64_t>(trace_ps_, static_cast<std::uint64_t>(t0 / sc_core::sc_time(1, sc_core::SC_PS)));
    top_->a_addr_i = j.a;
    top_->b_addr_i = j.b;
    top_->c_addr_i = j.c;
    top_->m_i = static_cast<std::uint16_t>(j.m);
    top_->n_i = static_cast<std::uint16_t>(j.n);
    top_->k_i = static_cast<std::uint16_t>(j.k);
    top_->lda_i = j.lda;
    top_->ldb_i = j.ldb;
    top_->ldc_i = j.ldc;
    top_->fp32_i = j.fp32;
    top_->accumulate_i = j.accumulate;
    const std::uint64_t setup = env_.geometry.setup_cycles + (jobs_ == inject_.setup_job ? inject_.setup_extra : 0);
    top_->setup_cycles_i = static_cast<std::uint16_t>(std::min<std::uint64_t>(setup, 0xFFFF));
    top_->bandwidth_i = static_cast<std::uint16_t>(env_.geometry.port_bandwidth);
    // The port's bank-cycles: booked tile by tile (tile_wait), or, under
    // sa.model=compare, booked by the TLM engine, whose waits are replayed.
    // Either way the words the RTL moves must not book them again.
    job_ = &j;
    tile_ = 0;
    replay_ = std::exchange(replay_waits_, nullptr);
    booking_ = !replay_ && port_.begin_job(base::nearest_cycle(t0, env_.period),
                                           accel::sa_job_cycles(j, env_.geometry).total);
    run.booked_banks = booking_ || replay_;
    const base::bus_initiator::banks_booked_scope booked_scope(env_.bus, run.booked_banks);
    top_->start_i = 1;
    step();
    top_->start_i = 0;
    for (;;) {
        step();
        if (top_->error_o) {
            run.ok = false;
            run.end = at_cycle();
            run.failed = accel::sa_failed_access{
                top_->row_operand_o, top_->row_addr_o, top_->row_len_o, static_cast<bool>(top_->row_write_o), run.end,
                top_->row_index_o};
            break;
        }
        if (top_->done_o) {
            run.end = at_cycle();
            break;
        }
        // Like the TLM engine: a stop request (memcheck=error) ends the job
        // after the tile that raised it.
        if (top_->tile_end_o && env_.services.stop_requested()) {
            run.end = at_cycle();
            break;
        }
    }
    run.stall_cycles = top_->stall_o;
    if (trace_) trace_->flush();
    // Leave the RTL idle for the next job (an aborted or stopped job may not be).
    top_->rst_ni = 0;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
    return run;
}

}  // namespace npu::rtl
