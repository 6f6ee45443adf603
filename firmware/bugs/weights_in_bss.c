/* Bug class 2, the realistic form: the weights are an ordinary global
 * (`float fc_weights[...]`), so they live in .bss, which crt0 zeroes. The
 * step that should load them (from flash, from the host) never runs: every
 * logit is 0 and the run exits 0. Only `--memcheck=strict` catches it: there
 * startup zeroing does not count as loading data, so the first read of the
 * weights as data is a finding naming the symbol — by the DMA staging them
 * into L1 or, built with -DBUG_CORE_READ, by a core's float load computing
 * on them in place. Built with -DBUG_FIXED the weights are loaded first
 * (here: computed) and every memcheck mode is clean. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"

#define IN 16
#define OUT 10

float fc_weights[OUT * IN];   /* .bss: zeroed by crt0, never loaded */
float x[IN];
float logits[OUT];
static unsigned calls;        /* a zero-initialised counter is fine in every mode */

static void load_weights(void) {
#ifdef BUG_FIXED
    for (unsigned i = 0; i < OUT * IN; ++i) fc_weights[i] = (float)((int)(i % 9) - 4) * 0.25f;
#endif
    ++calls;
}

int main(void) {
    load_weights();
    for (unsigned i = 0; i < IN; ++i) x[i] = (float)(i % 5);
#ifdef BUG_CORE_READ
    const float *w = fc_weights;
#else
    float *w = npu_l1_malloc(sizeof fc_weights);
    if (!w) return 3;
    if (npu_dma_wait(npu_dma_copy_1d(w, fc_weights, sizeof fc_weights))) return 4;
#endif
    for (unsigned o = 0; o < OUT; ++o) {
        float acc = 0.0f;
        for (unsigned i = 0; i < IN; ++i) acc += w[o * IN + i] * x[i];
        logits[o] = acc;
    }
    printf("loaded %u time(s), logits:", calls);
    for (unsigned o = 0; o < OUT; ++o) printf(" %d", (int)(logits[o] * 4));
    printf("\n");
    return 0;
}
