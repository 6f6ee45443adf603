// The systolic array (SA): a weight-stationary R x C array of MAC cells that
// computes C = A * B (+ C) for int8 (int32 accumulate) or fp32 operands in
// L1. Firmware programs it through the register window of sa_regs.h; the
// operands and results move through the SA's own bus master, which sees only
// what the config's visibility.sa allows (L1), so an L2, L3 or NULL operand
// is a bus error of the SA, reported with the whole job.
//
// This class is the register front end; the engine that computes and times
// a job is behind sa_engine (sa_engine.h), built by the maker the platform
// passes (sa.model). With the TLM engine the job is loosely timed,
// evaluated at START: it runs through its weight tiles at once (reads and writes through the master, timed at the tile they
// belong to), so its end — or the time of the access that faulted — is
// known when START returns. STATUS answers as of the reader's local time
// (busy until the end), WAIT blocks the reader until the end, and the
// completion hooks get the delay to the event. No SystemC process of its
// own, no synchronisation forced on the programming core. The price: results
// are in memory before the job's simulated end (a core reading C without
// waiting sees them early); docs/sa.md lists this.
#pragma once

#include "sa_engine.h"
#include "sa_regs.h"

#include "base/bus_initiator.h"
#include "base/line.h"
#include "base/peripheral.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npu::accel {

class systolic_array : public base::peripheral {
public:
    // Registers live in config section "sa_ctrl"; the array in "sa".
    // `make_engine` builds the engine that runs the jobs.
    systolic_array(sc_core::sc_module_name nm, const cfg::config& cfg, const sa_engine_maker& make_engine);

    // The SA's master: bind it to the router as initiator class `sa`.
    base::bus_initiator bus;

    // Event lines: a pulse when a job ends (done) or aborts (error), driven
    // with the delay from the current SystemC time to that moment.
    base::line_out done;
    base::line_out error;

    // Stop the run with a bus-error report when a job faults (sa.stop_on_error);
    // false leaves it to firmware (STATUS.ERROR, ERR_*, the error event).
    bool stop_on_error;

    const sa_geometry& geometry() const { return geo_; }
    std::uint64_t busy_cycles() const { return busy_cycles_; }
    // The running job whose result C holds `addr` ("" if none), for memcheck
    // reports of a read of C before the job ended.
    std::string running_job_at(std::uint64_t addr) const;
    // Memcheck: once the last job has ended (SystemC time), its C stops
    // counting as in flight. With `addr`, only if C holds it. True if the
    // marks were released. Called lazily (a finding, the golden check): a
    // process woken at each job's end would reorder same-time accesses.
    bool release_ended_results(std::uint64_t addr = UINT64_MAX);
    // Memcheck's buffers in use: the rows of A and B the job running at `at`
    // reads and of C it writes (nothing when no job runs then).
    void running_job_use(const sc_core::sc_time& at, std::vector<base::buffer_use>& out) const;

private:
    enum class outcome { none, done, error };

    void start(std::uint32_t value);
    std::string validate(const sa_job& j) const;
    std::uint32_t status_at(const sc_core::sc_time& t) const;
    // Records the failed access of `j`: error registers, the report.
    void fault(const sa_job& j, const sa_failed_access& f);
    std::string describe_job(const sa_job& j) const;
    // The row of the running job's C that holds `addr`, -1 if none.
    int running_job_row(std::uint64_t addr) const;
    // The rows job `j` reads and writes, as memcheck's buffer use `describe`.
    // The job's spans: A and B read, C written; with `writes_only`, C's
    // alone (a new job checked against the buffers in use: only what it
    // writes can conflict).
    static base::buffer_use use_of(const sa_job& j, base::deferred_text describe, bool writes_only = false);
    // f(first, end) for the extent of each of the job's non-empty A, B, C.
    template <class F>
    static void for_each_operand_extent(const sa_job& j, F&& f);
    // Memcheck: C of a running job counts as "in flight" from START until
    // the job ends, so a read of it before then is a finding (the engine
    // computes the whole job at START).
    void mark_results(const sa_job& j, bool on);
    void release_results();

    sa_geometry geo_;
    std::unique_ptr<sa_engine> engine_;
    std::uint32_t job_regs_[NPU_SA_CTRL / 4 + 1] = {};  // A_ADDR .. CTRL, by offset / 4

    // The last job: when it started and ended (or faulted), how it ended.
    sc_core::sc_time job_start_, job_end_;
    sc_core::sc_event job_end_event_;
    outcome outcome_ = outcome::none;
    sa_job pending_results_;
    bool results_pending_ = false;
    // pending_results_ is the last job that ran (memcheck on): its use of
    // A, B and C lasts until job_end_, whether or not its results were
    // released since (a core's store checked after it waited for the job).
    bool job_ran_ = false;
    bool started_ = false;
    std::uint64_t job_cycles_ = 0;
    std::uint32_t err_addr_ = 0, err_info_ = 0;
    base::bus_error_info fault_;  // the report of the last fault
    // Who wrote START of the current job (the initiator's id lives as long
    // as the SoC), named only when a report needs it (starter()).
    const base::initiator_id* starter_who_ = nullptr;
    static std::string starter_text(const base::initiator_id* who);
    std::string starter() const { return starter_text(starter_who_); }
    std::uint64_t starter_pc_ = 0;
    bool starter_has_pc_ = false;
    // "npu_sa_matmul_i8, called from main (main.c:42)" (memcheck on), or
    // "": captured at START, symbolised only if a report names it.
    base::deferred_text starter_site_;
    std::string starter_site() const { return starter_site_ ? starter_site_() : std::string(); }

    std::uint64_t jobs_ = 0, macs_ = 0, macs_f32_ = 0, busy_cycles_ = 0, stall_cycles_ = 0, errors_ = 0, refused_ = 0;
    // Jobs longer than the L1 bank calendar's ring (see start()).
    std::uint64_t jobs_past_calendar_ = 0;
    // The SoC's L1 bank calendar (sim_context::shared), found once.
    const base::l1_bank_calendar* l1_banks_ = nullptr;
};

}  // namespace npu::accel
