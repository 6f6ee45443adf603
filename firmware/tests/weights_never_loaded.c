/* Bug class 2, "weights never loaded": a weight buffer is reserved in L2 but
 * the copy that should fill it never runs. Reading it is a memcheck finding
 * at the first read, naming the buffer — not a run of all-zero logits. */
#include <stdio.h>

#include "npu.h"

/* Filled at run time (by a DMA on real deployments), so neither loaded
 * from the ELF nor zeroed by crt0. */
/* Global, as in generated code: a static that is never written would be
 * folded to zeros by the compiler. */
int layer1_weights[64] NPU_NOINIT;

static int __attribute__((noinline)) dot(const int *w, const int *x, int n) {
    int s = 0;
    for (int i = 0; i < n; ++i) s += w[i] * x[i];
    return s;
}

int main(void) {
    int x[16];
    for (int i = 0; i < 16; ++i) x[i] = i + 1;
    printf("dot product with layer1_weights (never loaded)\n");
    int s = dot(layer1_weights, x, 16);
    printf("result %d\n", s);
    return 0;
}
