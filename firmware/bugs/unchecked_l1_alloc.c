/* Bug class 4: a failed L1 allocation whose NULL is used as a tile base.
 * The layer asks for more L1 than is free; the SDK-style code does not check
 * the result and programs the DMA with NULL + tile offset. On silicon (L1
 * aliased at 0) this "works" and corrupts L1; npusim stops at the DMA's
 * write to the NULL-based address, naming the descriptor and the hart/PC
 * that programmed it. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"

#define TILE 4096

static int8_t activations[8 * TILE];

static void __attribute__((noinline)) load_tiles(int8_t *l1_base) {
    for (int t = 0; t < 8; ++t) {
        int id = npu_dma_copy_1d(l1_base + t * TILE, activations + t * TILE, TILE);
        npu_dma_wait(id);
    }
}

int main(void) {
    for (unsigned i = 0; i < sizeof activations; ++i) activations[i] = (int8_t)i;
    /* 512 KiB: more than the whole L1. The result is not checked (the bug). */
    int8_t *tiles = npu_l1_malloc(512 * 1024);
    printf("tile buffer at %p\n", (void *)tiles);
    load_tiles(tiles);
    printf("tiles loaded\n");
    return 0;
}
