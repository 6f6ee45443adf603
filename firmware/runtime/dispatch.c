/* Fork/join and events on the cluster event unit (models/cluster,
 * event_unit_regs.h). The hardware queues each job per worker, wakes the
 * worker asleep on DISPATCH_POP, and lets the forking hart sleep on
 * DISPATCH_JOIN until every job reported DONE: nobody polls. */
#include "npu.h"

/* Workers already started through cluster_ctrl WAKE; touched by the
 * cluster controller only (the one hart that forks). */
static uint32_t started_workers;
/* Workers with a job from npu_run_on_worker not joined yet. */
static uint32_t posted_mask;

static uint32_t all_workers(void) {
    unsigned n = npu_nb_workers();
    return n >= 32 ? ~0u : (1u << n) - 1u;
}

void npu_cluster_fork_mask(uint32_t team_mask, npu_job_fn fn, void *arg) {
    /* Job data written before the fork must be visible to the team. */
    __asm__ volatile("fence" ::: "memory");
    *npu_eu_reg(NPU_EU_DISPATCH_FN) = (uint32_t)(uintptr_t)fn;
    *npu_eu_reg(NPU_EU_DISPATCH_ARG) = (uint32_t)(uintptr_t)arg;
    /* Queued before the workers start: a worker that boots later finds its
     * job waiting in the dispatcher. */
    *npu_eu_reg(NPU_EU_DISPATCH_FORK) = team_mask;
    uint32_t boot = team_mask & ~started_workers;
    if (boot) {
        started_workers |= boot;
        npu_cluster_wake(boot);
    }
}

void npu_cluster_fork(unsigned nb_workers, npu_job_fn fn, void *arg) {
    /* More workers than the cluster has are not clamped: a job that splits
     * its work n ways would leave the missing workers' share undone. The
     * event unit refuses the team (a bus error at the fork naming the harts
     * that are not workers). */
    uint32_t team = all_workers();
    if (nb_workers) team = nb_workers >= 32 ? 0xFFFFFFFFu : (1u << nb_workers) - 1u;
    npu_cluster_fork_mask(team, fn, arg);
}

void npu_cluster_join(void) {
    (void)*npu_eu_reg(NPU_EU_DISPATCH_JOIN);
    __asm__ volatile("fence" ::: "memory");
    posted_mask = 0;
}

void npu_cluster_run(unsigned nb_workers, npu_job_fn fn, void *arg) {
    npu_cluster_fork(nb_workers, fn, arg);
    npu_cluster_join();
}

uint32_t npu_evt_wait(uint32_t mask) {
    volatile uint32_t *m = npu_eu_reg(NPU_EU_EVT_MASK);
    uint32_t old = *m;
    *m = mask;
    uint32_t got = *npu_eu_reg(NPU_EU_EVT_WAIT_CLEAR);
    *m = old;
    return got;
}

int npu_run_on_worker(unsigned hart, npu_job_fn fn, void *arg) {
    if (hart >= npu_nb_workers() || (posted_mask >> hart) & 1u) return -1;
    posted_mask |= 1u << hart;
    npu_cluster_fork_mask(1u << hart, fn, arg);
    return 0;
}

void npu_wait_workers(void) { npu_cluster_join(); }

__attribute__((weak)) void npu_worker_entry(void) {
    for (;;) {
        /* Sleeps in the event unit until a job is dispatched to this hart. */
        npu_job_fn fn = (npu_job_fn)(uintptr_t)*npu_eu_reg(NPU_EU_DISPATCH_POP);
        void *arg = (void *)(uintptr_t)*npu_eu_reg(NPU_EU_DISPATCH_POP_ARG);
        fn(arg);
        __asm__ volatile("fence" ::: "memory");
        *npu_eu_reg(NPU_EU_DISPATCH_DONE) = 1;
    }
}
