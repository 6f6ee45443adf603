/* A tile buffer reused while the systolic array still reads it (issue 13,
 * item 5): two A tiles are multiplied by the same B; the second tile is
 * DMA'd into L1 while the first job runs, but into the buffer that job is
 * reading (a single-buffered A where double buffering was meant). On
 * silicon the array reads A over the whole job, so the first result mixes
 * both tiles; npusim's TLM engine reads A at START, so without a check the
 * results would even look right. memcheck reports the push whose
 * destination overlaps what the running job reads, naming the transfer and
 * the job (and where user code started it). With -DBUG_FIXED the second
 * tile goes to its own buffer. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"
#include "npu_sa.h"

#define M 16
#define N 16
#define K 32

static int8_t a_l2[2][M * K];
static int8_t b[K * N] NPU_L1_BSS;
static int8_t a_l1[2][M * K] NPU_L1_NOINIT;
static int32_t c[2][M * N] NPU_L1_NOINIT;

int main(void) {
    for (unsigned t = 0; t < 2; ++t)
        for (unsigned i = 0; i < M * K; ++i) a_l2[t][i] = (int8_t)((i + 3 * t) % 7 - 3);
    for (unsigned i = 0; i < K * N; ++i) b[i] = (int8_t)(i % 5 - 2);
    if (npu_dma_wait(npu_dma_copy_1d(a_l1[0], a_l2[0], M * K))) return 3;
    npu_sa_matmul_i8(a_l1[0], b, c[0], M, N, K, 0);
#ifdef BUG_FIXED
    int8_t *next = a_l1[1];
#else
    int8_t *next = a_l1[0]; /* the buffer the running job reads */
#endif
    const int id = npu_dma_copy_1d(next, a_l2[1], M * K);
    if (npu_sa_wait() || npu_dma_wait(id)) return 3;
    npu_sa_matmul_i8(next, b, c[1], M, N, K, 0);
    if (npu_sa_wait()) return 2;
    int32_t sum[2] = {0, 0};
    for (unsigned t = 0; t < 2; ++t)
        for (unsigned i = 0; i < M * N; ++i) sum[t] += c[t][i] * (int32_t)(i % 3 + 1);
    printf("sums of C: %ld %ld\n", (long)sum[0], (long)sum[1]);
    return 0;
}
