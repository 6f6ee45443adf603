/* A core writing a buffer that a DMA transfer or the SA's job is still
 * using: memcheck stops at that store (tests/firmware, fw.buffer_race_*),
 * naming the transfer or job. One race per build (RACE_*); without one, the
 * same program waits where it must and its stores between the rows of a 2-D
 * transfer in flight, and into the other buffer of a ping-pong pair, are no
 * finding. Also the simulation controls refusing a DMA transfer's write
 * (DMA_TO_EXIT, DMA_TO_CHECK): a stray transfer there once ended the run as
 * the firmware's exit(0), or made a self-check that compared nothing pass;
 * a burst over L2's end (DMA_PAST_L2_END); and a transfer that overruns
 * the largest L1 block into the controller's stack (DMA_INTO_STACK; in 4-byte
 * rows, none of which crosses the bound itself: DMA_INTO_STACK_2D); a burst
 * from worker 0's stack, at the top of L1, past L1's end (DMA_PAST_L1_END:
 * a bus error there, not a stack crossing); a local buffer larger than the
 * controller's stack filled by DMA only, in the live L1 block below the
 * stack that sp dropped into (DMA_INTO_OVERFLOWED_STACK). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"
#include "npu_platform.h"
#include "npu_sa.h"

#if defined(DMA_TO_EXIT) || defined(DMA_TO_CHECK) || defined(DMA_PAST_L2_END) || defined(DMA_INTO_STACK) || \
    defined(DMA_INTO_STACK_2D) || defined(DMA_PAST_L1_END) || defined(DMA_INTO_OVERFLOWED_STACK)
#define STRAY_DMA 1
#endif

#ifndef STRAY_DMA
#define N 1024
static int32_t out_l2[N];
static int32_t src_l2[N];
static NPU_L1_BSS int32_t ping[N];
static NPU_L1_BSS int32_t pong[N];

#define M 16
#define NN 16
#define K 64
static NPU_L1_BSS int8_t a[M * K];
static NPU_L1_BSS int8_t b[K * NN];
static NPU_L1_BSS int32_t c[M * NN];

static void __attribute__((noinline)) fill(int32_t *t, int n, int k) {
    for (int i = 0; i < n; ++i) t[i] = i * k;
}

static long sum(const int32_t *t, int n) {
    long s = 0;
    for (int i = 0; i < n; ++i) s += t[i];
    return s;
}
#endif

#if defined(DMA_INTO_OVERFLOWED_STACK)
/* A 3000-byte local buffer on a 2 KiB stack, touched only by the DMA. */
static int8_t staged_l2[1024] = {1, 2, 3};
static void __attribute__((noinline)) stage_on_stack(void) {
    int8_t buf[3000];
    npu_dma_wait(npu_dma_copy_1d(buf, staged_l2, 512));
    npu_dma_wait(npu_dma_copy_1d(staged_l2 + 512, buf, 512));
}
#endif

int main(void) {
#if defined(DMA_TO_EXIT)
    static uint32_t zero = 0;
    npu_dma_wait(npu_dma_copy_1d((void *)(SOC_PERIPH_BASE + 0x100), &zero, 4));
    printf("the DMA transfer's write did not end the run\n");
    return 5;
#elif defined(DMA_PAST_L2_END)
    /* 32 bytes from 16 bytes before L2's end: the burst's first byte is in
     * L2, its last 16 past it (the report says so). */
    static NPU_L1_BSS uint32_t dst[8];
    npu_dma_wait(npu_dma_copy_1d(dst, (const void *)(L2_BASE + L2_SIZE - 16), 32));
    return 0;
#elif defined(DMA_INTO_OVERFLOWED_STACK)
    const uint32_t n = npu_l1_free_bytes();
    int32_t *live = npu_l1_malloc(n); /* the L1 heap right below the stacks */
    if (!live) return 3;
    for (uint32_t i = 0; i < n / 4; ++i) live[i] = 0x11111111;
    stage_on_stack();
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n / 4; ++i) bad += live[i] != 0x11111111;
    printf("%lu words of the live block overwritten\n", (unsigned long)bad);
    return bad != 0;
#elif defined(DMA_PAST_L1_END)
    static uint32_t src[64];
    for (int i = 0; i < 64; ++i) src[i] = i;
    npu_dma_wait(npu_dma_copy_1d((void *)(L1_BASE + L1_SIZE - 100), src, sizeof src));
    return 0;
#elif defined(DMA_INTO_STACK)
    /* One tile too many into the largest L1 block: the stacks lie right
     * above the L1 heap, the controller's first. */
    const uint32_t n = npu_l1_free_bytes();
    int8_t *block = npu_l1_malloc(n);
    if (!block) return 3;
    npu_dma_wait(npu_dma_copy_1d(block, (const void *)L2_BASE, n + 512));
    return 0;
#elif defined(DMA_INTO_STACK_2D)
    const uint32_t n = npu_l1_free_bytes();
    int8_t *block = npu_l1_malloc(n);
    if (!block) return 3;
    npu_dma_wait(npu_dma_copy_2d(block, (const void *)L2_BASE, 4, n / 4 + 8, 0, 4));
    return 0;
#elif defined(DMA_TO_CHECK)
    static uint32_t many = 100000;
    npu_check_begin("logits", 100000);
    npu_dma_wait(npu_dma_copy_1d((void *)(SOC_PERIPH_BASE + 0x414), &many, 4));
    npu_check_end();
    return 0;
#else
    /* DMA source: the write-back of ping to L2 reads it. */
    fill(ping, N, 1);
    int id = npu_dma_copy_1d(out_l2, ping, sizeof ping);
#if defined(RACE_DMA_SRC)
    fill(ping, N, 3); /* refilled while the write-back still reads it */
#endif
    fill(pong, N, 2); /* the other buffer of the pair: no race */
    npu_dma_wait(id);
    fill(ping, N, 4); /* after the wait: no race */

    /* DMA destination: ping filled from L2. */
    for (int i = 0; i < N; ++i) src_l2[i] = i;
    id = npu_dma_copy_1d(ping, src_l2, sizeof ping);
#if defined(RACE_DMA_DST)
    ping[5] = -1; /* written under the transfer, which overwrites it */
#endif
    npu_dma_wait(id);

    /* A 2-D transfer in flight: 16 rows of 16 words, 64 words apart in pong;
     * stores between its rows are no race, one into a row is. */
    id = npu_dma_copy_2d(pong, src_l2, 16 * 4, 16, 16 * 4, 64 * 4);
    for (int r = 0; r < 16; ++r) pong[r * 64 + 16 + r] = r;
#if defined(RACE_DMA_2D_ROW)
    pong[3 * 64 + 7] = 7;
#endif
    npu_dma_wait(id);

    /* A buffer on the controller's stack, wholly inside it: no finding. */
    int32_t local[16];
    npu_dma_wait(npu_dma_copy_1d(local, src_l2, sizeof local));
    pong[0] += local[15];

    /* The SA's job reads A and B and writes C until it ends. */
    for (int i = 0; i < M * K; ++i) a[i] = (int8_t)(i % 7 - 3);
    for (int i = 0; i < K * NN; ++i) b[i] = (int8_t)(i % 5 - 2);
    npu_sa_matmul_i8(a, b, c, M, NN, K, 0);
#if defined(RACE_SA_B)
    b[3] = 1; /* the next layer's weights into B under the job */
#elif defined(RACE_SA_C)
    c[0] = 0; /* C cleared under the job */
#endif
    if (npu_sa_wait()) return 2;
    c[0] = 0; /* after the wait: no race */
    b[3] = 1;
    printf("ping %ld pong %ld out %ld c %ld\n", sum(ping, N), sum(pong, 16 * 64), sum(out_l2, N), sum(c, M * NN));
    return 0;
#endif
}
