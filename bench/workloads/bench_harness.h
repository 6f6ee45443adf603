/* Shared driver of the ISS benchmark workloads.
 *
 * BENCH_ITERATIONS independent iterations are split over the harts taking
 * part (BENCH_ALL_HARTS=1: every worker and the cluster controller; 0: the
 * cluster controller alone). Iteration i depends only on i, and the
 * per-iteration results are summed mod 2^32, so the printed checksum is the
 * same for any number of harts: a wrong multi-hart result shows up as a
 * different checksum, which bench/iss_mips checks. */
#ifndef BENCH_HARNESS_H
#define BENCH_HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#ifndef BENCH_ITERATIONS
#define BENCH_ITERATIONS 1000
#endif
#ifndef BENCH_ALL_HARTS
#define BENCH_ALL_HARTS 0
#endif

/* Provided by the workload (which defines BENCH_NAME before including this
 * file): the result of iteration i on hart slot `slot`. */
static uint32_t bench_iteration(uint32_t i, unsigned slot);


static unsigned bench_harts;
static volatile uint32_t bench_partial[NPU_MAX_HARTS];

/* Workers are slots 0..NB_WORKERS-1, the cluster controller the last slot. */
static unsigned bench_slot(void) { return npu_is_cluster_controller() ? bench_harts - 1 : npu_core_id(); }

static void bench_share(void *arg) {
    (void)arg;
    const unsigned slot = bench_slot();
    uint32_t sum = 0;
    for (uint32_t i = slot; i < BENCH_ITERATIONS; i += bench_harts) sum += bench_iteration(i, slot);
    bench_partial[slot] = sum;
}

static uint32_t lcg_next(uint32_t *s) {
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

int main(void) {
    bench_harts = BENCH_ALL_HARTS ? NB_WORKERS + 1 : 1;
    for (unsigned w = 0; w + 1 < bench_harts; ++w)
        if (npu_run_on_worker(w, bench_share, 0) != 0) {
            printf("cannot start worker %u\n", w);
            return 1;
        }
    bench_share(0);
    npu_wait_workers();
    uint32_t checksum = 0;
    for (unsigned s = 0; s < bench_harts; ++s) checksum += bench_partial[s];
    printf("%s: %u iterations on %u hart(s), checksum 0x%08lx\n", BENCH_NAME, (unsigned)BENCH_ITERATIONS, bench_harts,
           (unsigned long)checksum);
    return 0;
}

#endif
