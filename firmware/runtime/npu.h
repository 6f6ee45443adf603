/* npusim firmware runtime: hart identity, fork/join and barriers (event
 * unit), printing, exit, traps, allocation and cycle counting. See
 * docs/firmware.md.
 *
 * The runtime is built once for every platform config: it reads the layout
 * (worker count, peripheral bases, stack size) from absolute symbols the
 * generated linker script defines, so only the link step is per config.
 * Programs that want the layout as constants include "npu_platform.h". */
#ifndef NPU_RUNTIME_H
#define NPU_RUNTIME_H

#include <stdint.h>

#include "cluster_ctrl_regs.h"
#include "event_unit_regs.h"
#include "soc_periph_regs.h"

/* The systolic-array HAL: npu_sa_matmul_i8/_f32, npu_sa_wait, ... */
#include "npu_sa.h"
/* Locks without atomics: npu_mutex_lock/unlock on the event unit's mutexes. */
#include "npu_mutex.h"
/* The DMA HAL: npu_dma_copy_1d/2d/3d, npu_dma_wait, npu_dma_status, ... */
#include "npu_dma.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Upper bound of harts the runtime keeps per-hart state for; the config
 * schema allows 31 workers + the cluster controller. */
#define NPU_MAX_HARTS 32

/* Section placement: code/data default to firmware.code_region (L2). */
#define NPU_L1_DATA __attribute__((section(".l1.data")))
#define NPU_L1_BSS __attribute__((section(".l1.bss")))
/* Neither loaded nor zeroed: for buffers a DMA or device fills at run time.
 * Reading one before it was written is a memcheck finding. */
#define NPU_NOINIT __attribute__((section(".noinit")))
#define NPU_L1_NOINIT __attribute__((section(".l1.noinit")))
/* L3 is reachable only by the DMA: a core access is a bus error.
 * NPU_L3_DATA: data in the image (loaded with it, as weights programmed into
 * flash); an array without an initialiser is loaded as zeros. NPU_L3_NOINIT:
 * neither loaded nor zeroed, for L3 buffers the firmware fills at run time;
 * a DMA reading one before it was written is a memcheck finding. */
#define NPU_L3_DATA __attribute__((section(".l3.data")))
#define NPU_L3_NOINIT __attribute__((section(".l3.noinit")))

/* Absolute symbols from the generated linker script (values, not objects). */
extern char __npu_nb_workers[], __npu_cc_hart_id[], __npu_soc_periph_base[], __npu_cluster_periph_base[],
    __npu_event_unit_base[];

static inline volatile uint32_t *npu_soc_reg(uint32_t offset) {
    return (volatile uint32_t *)((uintptr_t)__npu_soc_periph_base + offset);
}

static inline volatile uint32_t *npu_cluster_reg(uint32_t offset) {
    return (volatile uint32_t *)((uintptr_t)__npu_cluster_periph_base + offset);
}

/* The event unit's per-hart view (event_unit_regs.h). */
static inline volatile uint32_t *npu_eu_reg(uint32_t offset) {
    return (volatile uint32_t *)((uintptr_t)__npu_event_unit_base + offset);
}

/* --- identity ----------------------------------------------------------- */
static inline unsigned npu_core_id(void) {
    unsigned id;
    __asm__ volatile("csrr %0, mhartid" : "=r"(id));
    return id;
}

static inline unsigned npu_nb_workers(void) { return (unsigned)(uintptr_t)__npu_nb_workers; }

/* The cluster controller is hart `nb_workers` (8 on gap9), not hart 0. */
static inline int npu_is_cluster_controller(void) {
    return npu_core_id() == (unsigned)(uintptr_t)__npu_cc_hart_id;
}

/* --- fork / join / barrier (event unit) ------------------------------------
 * The cluster controller forks fn(arg) onto a team of workers and joins.
 * Workers run npu_worker_entry(): a loop asleep on the event unit's dispatch
 * register (no polling), which runs each job it receives. Workers are started
 * (cluster_ctrl WAKE, "fetch enable") the first time a fork names them.
 * Fork again only after the join (or when no worker of the previous team can
 * still be inside npu_barrier()). */
typedef void (*npu_job_fn)(void *);

/* fn(arg) on workers 0..nb_workers-1 (0 = all workers, more = all). Returns
 * at once; npu_cluster_join() waits for them. */
void npu_cluster_fork(unsigned nb_workers, npu_job_fn fn, void *arg);
/* The same on any set of workers (bit i = worker i). */
void npu_cluster_fork_mask(uint32_t team_mask, npu_job_fn fn, void *arg);
/* Sleeps until every job this hart forked has returned. */
void npu_cluster_join(void);
/* Fork, then join: fn(arg) on workers 0..nb_workers-1 (0 = all). */
void npu_cluster_run(unsigned nb_workers, npu_job_fn fn, void *arg);

/* Inside a job: the team's hart mask and size (a worker's index in a
 * count-based team is npu_core_id()). */
static inline uint32_t npu_team_mask(void) { return *npu_eu_reg(NPU_EU_DISPATCH_TEAM); }
static inline unsigned npu_team_size(void) { return (unsigned)__builtin_popcount(npu_team_mask()); }

/* Hardware barrier across the current fork's team (barrier 0): every member
 * sleeps until the last one arrives. Only team members may call it. */
static inline void npu_barrier(void) { (void)*npu_eu_reg(NPU_EU_BARRIER(0) + NPU_EU_BARRIER_WAIT); }

/* Sleeps until one of the events in `mask` (NPU_EVT_* line bits) is pending;
 * returns the pending ones among them and clears them. */
uint32_t npu_evt_wait(uint32_t mask);
/* Raises software event n (0..7) in the harts of `hart_mask`. */
static inline void npu_evt_trigger(unsigned n, uint32_t hart_mask) { *npu_eu_reg(NPU_EU_SW_EVENT(n)) = hart_mask; }

/* Starts parked harts, or ends a WFI (cluster_ctrl WAKE). */
static inline void npu_cluster_wake(uint32_t hart_mask) {
    __asm__ volatile("fence" ::: "memory");
    *npu_cluster_reg(NPU_CLUSTER_WAKE) = hart_mask;
}

/* Earlier single-worker interface, kept on top of the dispatcher:
 * fn(arg) on worker `hart`; -1 if it is not a worker or still has a job
 * posted this way that npu_wait_workers() has not joined. */
int npu_run_on_worker(unsigned hart, npu_job_fn fn, void *arg);
/* Joins every job posted with npu_run_on_worker (and any other fork). */
void npu_wait_workers(void);
/* What a started worker runs; the default serves the dispatcher forever.
 * A program may define its own (strong) version. */
void npu_worker_entry(void);

/* --- printing ----------------------------------------------------------------
 * printf/puts go to the UART (npusim's stdout). Harts printing concurrently
 * interleave characters; npu_printf holds a lock for the whole call so each
 * call's text comes out whole. */
int npu_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --- locks: the event unit's hardware mutexes (npu_mutex.h) ------------------ */
/* A lock on one hardware mutex (kept under its old name: the type's users
 * need not change; NPU_SPINLOCK_INIT is the program's mutex). */
typedef struct {
    unsigned mutex;
} npu_spinlock_t;
#define NPU_SPINLOCK_INIT    {NPU_MUTEX_USER}
#define NPU_LOCK_ON_MUTEX(m) {(m)}

static inline void npu_spin_lock(npu_spinlock_t *l) { npu_mutex_lock(l->mutex); }
static inline void npu_spin_unlock(npu_spinlock_t *l) { npu_mutex_unlock(l->mutex); }

/* --- time ------------------------------------------------------------------- */
/* Cluster-clock cycles since reset, from the SoC cycle counter (the same
 * clock for every hart, unlike the per-hart mcycle CSR). */
uint64_t npu_cycles(void);

/* This hart's own cycle count (the cycle/cycleh CSRs, read without a bus
 * access, so timing a loop with it does not add a peripheral access and
 * its synchronisation to what it times). Harts that slept count apart: use
 * it for durations on one hart, npu_cycles() to compare harts. */
static inline uint64_t npu_hart_cycles(void) {
    uint32_t lo, hi, hi2;
    do {
        __asm__ volatile("csrr %0, cycleh" : "=r"(hi));
        __asm__ volatile("csrr %0, cycle" : "=r"(lo));
        __asm__ volatile("csrr %0, cycleh" : "=r"(hi2));
    } while (hi != hi2); /* the low word wrapped between the reads */
    return ((uint64_t)hi << 32) | lo;
}

/* --- trace markers ---------------------------------------------------------
 * Name a region of the run (e.g. a layer); npusim's report lists the cycles
 * spent in each region per hart. Regions nest; `name` must stay valid until
 * the matching end (a string literal is the usual choice). */
static inline void npu_trace_begin(const char *name) { *npu_soc_reg(NPU_TRACE_BEGIN) = (uint32_t)(uintptr_t)name; }
static inline void npu_trace_end(const char *name) { *npu_soc_reg(NPU_TRACE_END) = (uint32_t)(uintptr_t)name; }

/* --- self-checks ---------------------------------------------------------------
 * A test harness that compares results on the target declares each check so
 * npusim counts it: a run that declared a check and compared zero elements
 * (or fewer than declared, or never ended it) fails with exit code 8 even
 * if the firmware exits 0, and the report shows "self-check: compared N of
 * M". Declare the check where it cannot be skipped (before calling the
 * comparison routine), report from inside the comparison:
 *
 *     npu_check_begin("logits", N);
 *     check_results();                 // calls npu_check_compare(n, errors)
 *     npu_check_end();
 *
 * One check is open at a time. npu_check_compare may be called per element
 * or once per block (each call is one register write). */
static inline void npu_check_begin(const char *name, uint32_t expected) {
    *npu_soc_reg(NPU_CHECK_EXPECTED) = expected;
    *npu_soc_reg(NPU_CHECK_BEGIN) = (uint32_t)(uintptr_t)name;
}
static inline void npu_check_compare(uint32_t compared, uint32_t errors) {
    *npu_soc_reg(NPU_CHECK_COMPARED) = compared;
    if (errors) *npu_soc_reg(NPU_CHECK_ERRORS) = errors;
}
static inline void npu_check_end(void) { *npu_soc_reg(NPU_CHECK_END) = 0; }

/* --- memory allocation -------------------------------------------------------
 * L1 (between the program's L1 data and the hart stacks) and L2 (the code
 * region's heap). Both return NULL when the request cannot be served: check
 * it. Build a program with -DNPU_ALLOC_ABORT_ON_FAIL and a failing call
 * instead ends the run there, printing the request and file:line, with
 * firmware exit code NPU_ALLOC_FAILED_EXIT — a safety net. */
#include <stddef.h>
#define NPU_ALLOC_FAILED_EXIT 99
void *npu_l1_malloc(size_t size);
void npu_l1_free(void *p);
size_t npu_l1_free_bytes(void); /* largest block npu_l1_malloc can return now */
void *npu_l2_malloc(size_t size);
void npu_l2_free(void *p);
void *npu_l1_malloc_or_abort(size_t size, const char *file, int line);
void *npu_l2_malloc_or_abort(size_t size, const char *file, int line);
#ifdef NPU_ALLOC_ABORT_ON_FAIL
#define npu_l1_malloc(size) npu_l1_malloc_or_abort((size), __FILE__, __LINE__)
#define npu_l2_malloc(size) npu_l2_malloc_or_abort((size), __FILE__, __LINE__)
#endif

/* --- traps -------------------------------------------------------------------- */
struct npu_trap_frame {
    uint32_t x[32]; /* x[0] unused; x[2] is sp at the time of the trap */
    uint32_t f[32]; /* raw f0..f31 */
    uint32_t fcsr;
    uint32_t mcause, mepc, mtval, mstatus;
};
/* Called by the trap entry with the saved context. The default (weak) reports
 * mcause/mepc/mtval/hart to the simulation-control block, which ends the run
 * (npusim exit code 7). An override may fix the cause and return; execution
 * resumes at frame->mepc with the saved registers restored. */
void npu_trap_handler(struct npu_trap_frame *frame);

#ifdef __cplusplus
}
#endif

#endif
