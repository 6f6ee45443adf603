/* Ping/pong tile buffers that overlap (issue 13, item 5): double buffering
 * where the pong buffer is placed TILE *bytes* after ping instead of TILE
 * int32 elements, so it covers the last three quarters of ping. Both first
 * tiles are prefetched at once: the second transfer writes into the buffer
 * the first one is still writing. On silicon the result is silently wrong
 * (and changes with timing); npusim's memcheck reports the push whose
 * destination overlaps a buffer an in-flight transfer (or a running SA job)
 * reads or writes, naming both transfers and the overlap. With -DBUG_FIXED
 * pong starts TILE elements after ping. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"

#define TILE 256 /* int32 elements per tile */
#define TILES 8

static int32_t src[TILES * TILE];
static NPU_L1_NOINIT int32_t bufs[2 * TILE];

int main(void) {
    for (unsigned i = 0; i < TILES * TILE; ++i) src[i] = (int32_t)(i * 7 % 13) - 6;
    int32_t *buf[2];
    buf[0] = bufs;
#ifdef BUG_FIXED
    buf[1] = bufs + TILE;
#else
    buf[1] = (int32_t *)((char *)bufs + TILE); /* bytes, not elements */
#endif
    int id[2];
    id[0] = npu_dma_copy_1d(buf[0], src, TILE * sizeof(int32_t));
    id[1] = npu_dma_copy_1d(buf[1], src + TILE, TILE * sizeof(int32_t));
    int64_t sum = 0, expect = 0;
    for (unsigned t = 0; t < TILES; ++t) {
        const unsigned b = t & 1;
        if (npu_dma_wait(id[b])) return 3;
        for (unsigned i = 0; i < TILE; ++i) sum += (int64_t)buf[b][i] * (int32_t)(i + 1);
        if (t + 2 < TILES) id[b] = npu_dma_copy_1d(buf[b], src + (t + 2) * TILE, TILE * sizeof(int32_t));
    }
    for (unsigned t = 0; t < TILES; ++t)
        for (unsigned i = 0; i < TILE; ++i) expect += (int64_t)src[t * TILE + i] * (int32_t)(i + 1);
    printf("sum %lld, expected %lld\n", (long long)sum, (long long)expect);
    return sum == expect ? 0 : 1;
}
