/* A DMA still writing a buffer a core already reads (the "kin" of
 * docs/bug-classes.md): double buffering with the wait in the wrong place.
 * The next tile is pushed L2 -> L1 and the core sums it before waiting for the
 * transfer. On silicon the sum mixes the old tile with whatever bursts have
 * landed, so the result is plausible and wrong, and changes with timing.
 * npusim's memcheck reports the first read of a byte the transfer has not
 * written yet, naming the transfer and the hart/PC that pushed it. With
 * -DBUG_FIXED the wait comes first and the sum is right. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"

#define N 4096

static int8_t tile_l2[N];
static NPU_L1_BSS int8_t tile_l1[N];

int main(void) {
    for (unsigned i = 0; i < N; ++i) tile_l2[i] = (int8_t)(i * 7 + 3);
    /* The previous tile: the buffer holds data, just not this tile's. */
    for (unsigned i = 0; i < N; ++i) tile_l1[i] = 1;
    const int id = npu_dma_copy_1d(tile_l1, tile_l2, N);
#ifdef BUG_FIXED
    if (npu_dma_wait(id)) return 3;
#endif
    int32_t sum = 0, expect = 0;
    for (unsigned i = 0; i < N; ++i) sum += tile_l1[i];
#ifndef BUG_FIXED
    if (npu_dma_wait(id)) return 3; /* too late */
#endif
    for (unsigned i = 0; i < N; ++i) expect += tile_l2[i];
    printf("sum %ld, expected %ld\n", (long)sum, (long)expect);
    return sum == expect ? 0 : 1;
}
