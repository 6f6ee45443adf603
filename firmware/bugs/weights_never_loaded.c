/* Bug class 2: weights never loaded. The L2 weight buffer is reserved (and
 * would be filled from flash by a loader step that depends on the platform
 * name — here it never runs); the layer DMAs it into L1 and computes. Every
 * logit comes out equal. npusim's memcheck reports the DMA's read of
 * never-written bytes at the first transfer, naming the buffer. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"

#define IN 128
#define OUT 10

/* Filled at run time by the (missing) weight-loading step: not in the ELF. */
int8_t fc_weights[OUT * IN] NPU_NOINIT;

int main(void) {
    int8_t *w_l1 = npu_l1_malloc(sizeof fc_weights);
    int8_t *x = npu_l1_malloc(IN);
    if (!w_l1 || !x) return 3;
    for (unsigned i = 0; i < IN; ++i) x[i] = (int8_t)(i % 7);
    /* The weight-loading step would go here; it is skipped on this "platform". */
    if (npu_dma_wait(npu_dma_copy_1d(w_l1, fc_weights, sizeof fc_weights))) return 4;
    int32_t logits[OUT];
    for (unsigned o = 0; o < OUT; ++o) {
        logits[o] = 0;
        for (unsigned i = 0; i < IN; ++i) logits[o] += (int32_t)w_l1[o * IN + i] * x[i];
    }
    printf("logits:");
    for (unsigned o = 0; o < OUT; ++o) printf(" %ld", (long)logits[o]);
    printf("\n");
    return 0;
}
