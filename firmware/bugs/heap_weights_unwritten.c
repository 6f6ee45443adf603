/* Bug class 2 on the heap: the weight buffer comes from npu_l2_malloc and
 * the step that should fill it never runs; the layer DMAs it into L1 and
 * computes garbage (whatever the heap held). npu_l2_malloc and npu_l1_malloc
 * blocks are never-written until the program writes them, in every memcheck
 * mode, so the DMA's read is a finding naming the block. Built with
 * -DBUG_FIXED the buffer is filled first. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npu_dma.h"

#define IN 128
#define OUT 10

int main(void) {
    /* An earlier user of the heap leaves data behind: recycled memory is
     * no more "loaded" than fresh memory. */
    int8_t *scratch = npu_l2_malloc(OUT * IN);
    if (!scratch) return 3;
    memset(scratch, 1, OUT * IN);
    npu_l2_free(scratch);

    int8_t *w_l2 = npu_l2_malloc(OUT * IN);
    int8_t *w_l1 = npu_l1_malloc(OUT * IN);
    int8_t *x = npu_l1_malloc(IN);
    if (!w_l2 || !w_l1 || !x) return 3;
#ifdef BUG_FIXED
    for (unsigned i = 0; i < OUT * IN; ++i) w_l2[i] = (int8_t)(i % 11 - 5);
#endif
    for (unsigned i = 0; i < IN; ++i) x[i] = (int8_t)(i % 7);
    if (npu_dma_wait(npu_dma_copy_1d(w_l1, w_l2, OUT * IN))) return 4;
    printf("logits:");
    for (unsigned o = 0; o < OUT; ++o) {
        int32_t acc = 0;
        for (unsigned i = 0; i < IN; ++i) acc += (int32_t)w_l1[o * IN + i] * x[i];
        printf(" %ld", (long)acc);
    }
    printf("\n");
    return 0;
}
