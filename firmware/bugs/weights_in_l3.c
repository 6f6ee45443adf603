/* Bug class 5: weights placed in L3 while the generated code reads them as
 * if they were in L2. Only the DMA reaches L3 on this cluster, so the core's
 * first load from the weight buffer is a bus error "not visible to this
 * initiator" — not a wrong logit later. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

/* The memory plan put the weights in L3 ... */
const int8_t fc1_weights[256] NPU_L3_DATA = {1, 2, 3, 4, 5, 6, 7, 8};

/* ... but the kernel was generated for L2-resident weights. */
static int32_t __attribute__((noinline)) fc1_neuron(const int8_t *w, const int8_t *x, unsigned n) {
    int32_t acc = 0;
    for (unsigned i = 0; i < n; ++i) acc += (int32_t)w[i] * x[i];
    return acc;
}

int main(void) {
    int8_t x[256];
    for (unsigned i = 0; i < 256; ++i) x[i] = (int8_t)(i & 0x7f);
    printf("fc1 weights at %p\n", (const void *)fc1_weights);
    printf("fc1[0] = %ld\n", (long)fc1_neuron(fc1_weights, x, 256));
    return 0;
}
