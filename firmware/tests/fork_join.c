/* Fork/join and the hardware barrier on the event unit, checked by results
 * and by cycles.
 *  1. Every round forks one job on all workers. Phase 1: each worker writes
 *     its slice; barrier; phase 2: each worker sums the *next* worker's slice
 *     (only correct if the barrier held everyone until the last writer);
 *     barrier; phase 3: worker 0 adds the partial sums of all. The controller
 *     checks every partial and the total after each join.
 *  2. Costs: an empty fork/join round and one barrier, in cluster cycles;
 *     the test bounds them far below one quantum (3700 cycles on gap9).
 *  3. Proportionality: the join returns when the slowest worker ends, so a
 *     job with twice the work costs about twice the cycles, not a multiple
 *     of the quantum. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define ROUNDS 100
#define SLICE 16
#define BARRIERS 64

static NPU_L1_BSS uint32_t data[NB_WORKERS * SLICE];
static NPU_L1_BSS uint32_t partial[NB_WORKERS];
static NPU_L1_BSS uint32_t total;

static void round_job(void *arg) {
    const uint32_t r = (uint32_t)(uintptr_t)arg;
    const unsigned id = npu_core_id(), n = npu_team_size();
    for (unsigned i = 0; i < SLICE; ++i) data[id * SLICE + i] = r * 1000u + id * SLICE + i;
    npu_barrier();
    const unsigned next = (id + 1) % n;
    uint32_t s = 0;
    for (unsigned i = 0; i < SLICE; ++i) s += data[next * SLICE + i];
    partial[id] = s;
    npu_barrier();
    if (id == 0) {
        uint32_t t = 0;
        for (unsigned w = 0; w < n; ++w) t += partial[w];
        total = t;
    }
}

static void empty_job(void *arg) { (void)arg; }

static void barrier_job(void *arg) {
    (void)arg;
    for (unsigned i = 0; i < BARRIERS; ++i) npu_barrier();
}

static void work_job(void *arg) {
    /* Worker w does (w + 1) / NB_WORKERS of the work: the last is slowest.
     * The counter stays in a register (the empty asm keeps the loop): a
     * volatile one on the stack made every worker load and store the same L1
     * bank each iteration (stacks are a multiple of the bank stride apart),
     * so the join time measured bank conflicts, whose pattern shifts with
     * any change of the workers' start times, not the work. */
    const uint32_t iters = (uint32_t)(uintptr_t)arg * (npu_core_id() + 1) / NB_WORKERS;
    for (uint32_t i = 0; i < iters; ++i) __asm__ volatile("");
}

static uint64_t timed_run(npu_job_fn fn, void *arg) {
    uint64_t t0 = npu_cycles();
    npu_cluster_run(0, fn, arg);
    return npu_cycles() - t0;
}

int main(void) {
    for (uint32_t r = 1; r <= ROUNDS; ++r) {
        npu_cluster_run(0, round_job, (void *)(uintptr_t)r);
        uint32_t expect_total = 0;
        for (unsigned w = 0; w < NB_WORKERS; ++w) {
            const unsigned next = (w + 1) % NB_WORKERS;
            uint32_t e = 0;
            for (unsigned i = 0; i < SLICE; ++i) e += r * 1000u + next * SLICE + i;
            if (partial[w] != e) {
                printf("round %lu: worker %u summed %lu, expected %lu\n", (unsigned long)r, w,
                       (unsigned long)partial[w], (unsigned long)e);
                return 1;
            }
            expect_total += e;
        }
        if (total != expect_total) {
            printf("round %lu: total %lu, expected %lu\n", (unsigned long)r, (unsigned long)total,
                   (unsigned long)expect_total);
            return 1;
        }
    }
    printf("%d rounds on %d workers with 2 barriers each: all sums correct\n", ROUNDS, NB_WORKERS);

    timed_run(empty_job, 0); /* every worker started and idle */
    uint64_t t = 0;
    for (int i = 0; i < 16; ++i) t += timed_run(empty_job, 0);
    printf("empty fork/join: %lu cycles per round\n", (unsigned long)(t / 16));

    const uint64_t tb = timed_run(barrier_job, 0) - t / 16;
    printf("barrier: %lu cycles each\n", (unsigned long)(tb / BARRIERS));

    const uint64_t t1 = timed_run(work_job, (void *)(uintptr_t)4000);
    const uint64_t t2 = timed_run(work_job, (void *)(uintptr_t)8000);
    printf("work 4000: %lu cycles, work 8000: %lu cycles\n", (unsigned long)t1, (unsigned long)t2);
    /* 10 * t2 within [18, 22] * t1: proportional to the work. */
    if (t2 * 10 < t1 * 18 || t2 * 10 > t1 * 22) {
        printf("join time is not proportional to the work\n");
        return 1;
    }
    printf("join time proportional to the work\n");
    return 0;
}
