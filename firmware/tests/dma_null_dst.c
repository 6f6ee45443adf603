/* A failed L1 allocation whose NULL result is used as a tile base: the DMA's
 * write to NULL + offset must stop the run with a report naming the
 * descriptor, the destination side and the function that programmed it. */
#include <stdio.h>

#include "npu.h"

static int32_t weights[64] = {1, 2, 3, 4};

__attribute__((noinline)) static void load_tile(int32_t *tile_base, unsigned row) {
    /* Row `row` of a 16-int tile: the tile base is NULL. */
    int id = npu_dma_copy_1d(tile_base + row * 16, &weights[row * 16], 16 * sizeof(int32_t));
    npu_dma_wait(id);
}

int main(void) {
    int32_t *tile = 0; /* what a failed npu_l1_malloc returned, unchecked */
    printf("loading tile row 1 through a NULL base\n");
    load_tile(tile, 1);
    printf("not reached\n");
    return 0;
}
