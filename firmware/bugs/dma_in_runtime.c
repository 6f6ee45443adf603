/* A faulty DMA pushed from inside a runtime function (issue 13, item 7).
 * Each layer's weights are staged into an L1 tile buffer with
 * npurt_copy_start (npuc's kernel runtime, libnpurt.a: a real function,
 * not inlined), from two call sites. The second layer asks npu_l1_malloc
 * for more L1 than there is and does not check the result: its weights
 * are DMA'd to NULL + offset. The PUSH instruction is inside
 * npurt_copy_start, so its pc names npurt.c; the transfer faults later, in
 * the DMA channel, when the pusher is long past the call. npusim captured
 * the pushing hart's call stack at the push, and the bus-error report's
 * `caller` line names the user's call site:
 *   caller    : npurt_copy_start, called from stage_weights (dma_in_runtime.c:36)
 * With -DBUG_FIXED the layer is staged tile by tile into a buffer that fits,
 * and the allocation is checked. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npurt.h"

#define TILE 4096u
#define LAYER0 (2u * TILE)
#define LAYER1 (40u * TILE) /* 160 KiB: more than the whole L1 */

static int8_t weights0[LAYER0];
static int8_t weights1[LAYER1];

/* Stages a layer's weights into L1 one tile at a time (at their offset
 * when `l1` holds the whole layer, else at its start) and sums each tile
 * (a stand-in for the layer's compute). */
static int32_t __attribute__((noinline)) stage_weights(int8_t *l1, uint32_t l1_bytes, const int8_t *w,
                                                       uint32_t bytes) {
    int32_t sum = 0;
    for (uint32_t at = 0; at < bytes; at += TILE) {
        const uint32_t n = bytes - at < TILE ? bytes - at : TILE;
        int8_t *dst = l1_bytes >= bytes ? l1 + at : l1;
        npurt_copy_wait(npurt_copy_start(dst, w + at, n));
        for (uint32_t i = 0; i < n; ++i) sum += dst[i];
    }
    return sum;
}

static int32_t run_layer(const int8_t *w, uint32_t bytes) {
#ifdef BUG_FIXED
    /* One tile at a time, in a buffer that fits; checked. */
    const uint32_t l1_bytes = TILE;
    int8_t *l1 = npu_l1_malloc(l1_bytes);
    if (!l1) {
        printf("npu_l1_malloc(%u) failed\n", (unsigned)l1_bytes);
        return 0;
    }
#else
    /* The whole layer at once; NULL when it does not fit (the bug). */
    const uint32_t l1_bytes = bytes;
    int8_t *l1 = npu_l1_malloc(l1_bytes);
#endif
    const int32_t sum = stage_weights(l1, l1_bytes, w, bytes);
    if (l1) npu_l1_free(l1);
    return sum;
}

int main(void) {
    for (uint32_t i = 0; i < LAYER0; ++i) weights0[i] = (int8_t)(i * 7 % 13 - 6);
    for (uint32_t i = 0; i < LAYER1; ++i) weights1[i] = (int8_t)(i * 5 % 11 - 5);
    const int32_t s0 = run_layer(weights0, LAYER0);
    const int32_t s1 = run_layer(weights1, LAYER1);
    printf("layer sums %ld %ld\n", (long)s0, (long)s1);
    return 0;
}
