/* A hart's stack overflowing (issue 13, item 4). Each hart has
 * firmware.stack_size bytes (2 KiB on gap9.cfg) at the top of L1: hart h's
 * stack is [__stack_top - (h + 1) * size, __stack_top - h * size), so the
 * cluster controller (the last hart) has the lowest one, right above the L1
 * data and heap, and worker w's lies right above worker w + 1's.
 * smooth() keeps a 3 KiB scratch row on the stack. On silicon nothing stops
 * it: run by the cluster controller it overwrites L1 data below the stacks
 * (which surfaces much later as a wrong result or a DMA to a garbage
 * address); run by worker 0 (-DBUG_WORKER) it overwrites worker 1's stack.
 * npusim's stack guard reports the first access below the stack's limit,
 * naming the hart, its PC and sp, the stack's bounds and what lies there.
 * With -DBUG_FIXED the scratch row is a static L1 buffer. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define N 768 /* int32: 3 KiB, more than a 2 KiB stack */

static int32_t row[N];

__attribute__((noinline)) static void fill(int32_t *dst, const int32_t *src, unsigned n) {
    for (unsigned i = 0; i < n; ++i) dst[i] = src[i] * 3 + (i > 0 ? src[i - 1] : 0);
}

__attribute__((noinline)) static int32_t total(const int32_t *v, unsigned n) {
    int32_t s = 0;
    for (unsigned i = 0; i < n; ++i) s += v[i] ^ (int32_t)i;
    return s;
}

static volatile int32_t result;

static void smooth(void *arg) {
    (void)arg;
#ifdef BUG_FIXED
    static NPU_L1_BSS int32_t scratch[N];
#else
    int32_t scratch[N];
#endif
    fill(scratch, row, N);
    result = total(scratch, N);
}

int main(void) {
    for (unsigned i = 0; i < N; ++i) row[i] = (int32_t)(i % 11) - 5;
#ifdef BUG_WORKER
    if (npu_run_on_worker(0, smooth, 0) != 0) return 2;
    npu_wait_workers();
#else
    smooth(0);
#endif
    printf("smoothed total %ld\n", (long)result);
    return 0;
}
