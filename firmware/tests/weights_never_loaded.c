/* Bug class 2, "weights never loaded": a weight buffer is reserved in L2 but
 * the copy that should fill it never runs. Reading it is a memcheck finding
 * at the first read, naming the buffer — not a run of all-zero logits.
 *
 * WEIGHTS_IN_L3: the buffer is in L3 (NPU_L3_NOINIT: filled at run time, as
 * from flash on silicon), so only the DMA reads it, staging it into L2; the
 * finding is then the DMA's read. With LOAD_FIRST the program fills it (a DMA
 * from an L2 copy) before the staging copy: no finding. */
#include <stdio.h>

#include "npu.h"

#ifdef WEIGHTS_IN_L3
int layer1_weights[64] NPU_L3_NOINIT;
static int staged[64];
#else
/* Filled at run time (by a DMA on real deployments), so neither loaded
 * from the ELF nor zeroed by crt0. */
/* Global, as in generated code: a static that is never written would be
 * folded to zeros by the compiler. */
int layer1_weights[64] NPU_NOINIT;
#endif

static int __attribute__((noinline)) dot(const int *w, const int *x, int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += w[i] * x[i];
    return s;
}

#ifdef WEIGHTS_IN_L3
/* L3 -> L2 (a core cannot read L3). */
static int __attribute__((noinline)) stage_weights(void) {
    return npu_dma_wait(npu_dma_copy_1d(staged, layer1_weights, sizeof staged));
}
#endif

int main(void) {
    int x[16];
    for (int i = 0; i < 16; ++i) x[i] = i + 1;
#ifdef WEIGHTS_IN_L3
#ifdef LOAD_FIRST
    /* The loading step: the weights' image (here computed) copied into L3. */
    for (int i = 0; i < 64; ++i) staged[i] = i % 5 - 2;
    if (npu_dma_wait(npu_dma_copy_1d(layer1_weights, staged, sizeof staged))) return 5;
    for (int i = 0; i < 64; ++i) staged[i] = 0;
    printf("dot product with layer1_weights (loaded into L3)\n");
#else
    printf("dot product with layer1_weights (never loaded into L3)\n");
#endif
    if (stage_weights()) return 4;
    int s = dot(staged, x, 16);
#else
    printf("dot product with layer1_weights (never loaded)\n");
    int s = dot(layer1_weights, x, 16);
#endif
    printf("result %d\n", s);
    return 0;
}
