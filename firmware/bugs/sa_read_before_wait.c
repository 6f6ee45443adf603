/* Kin of "a DMA still writing a buffer a core already reads", on the
 * systolic array: the cluster controller starts a matmul and reads C before
 * npu_sa_wait(). On silicon the read returns whatever C held (the results
 * leave the array tile by tile, at the job's end for the last); npusim's
 * engine computes the job at START, so without a check the read would even
 * see the right numbers. memcheck treats a running job's C as "in flight"
 * until the job ends: the read is a finding naming the job and who started
 * it. Built with -DBUG_FIXED the wait comes first and the run is clean. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_sa.h"

#define M 16
#define N 16
#define K 32

static int8_t a[M * K] NPU_L1_BSS;
static int8_t b[K * N] NPU_L1_BSS;
static int32_t c[M * N] NPU_L1_NOINIT;

int main(void) {
    for (unsigned i = 0; i < M * K; ++i) a[i] = (int8_t)(i % 7 - 3);
    for (unsigned i = 0; i < K * N; ++i) b[i] = (int8_t)(i % 5 - 2);
    npu_sa_matmul_i8(a, b, c, M, N, K, 0);
#ifdef BUG_FIXED
    if (npu_sa_wait()) return 2;
#endif
    int32_t sum = 0;
    for (unsigned i = 0; i < M * N; ++i) sum += c[i]; /* the bug: no wait before this */
#ifndef BUG_FIXED
    if (npu_sa_wait()) return 2;
#endif
    printf("sum of C: %ld\n", (long)sum);
    return 0;
}
