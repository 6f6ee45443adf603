/* Bug class 5: weights resident in L3 (the loader put them there) read by a
 * core as if they were in L2. L3 is reachable only by the DMA, so the load
 * must be a bus error saying the address is not visible to the core. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

/* First object in .l3.data, hence at L3_BASE. */
NPU_L3_DATA const int32_t weights[4] = {1, 2, 3, 4};

__attribute__((noinline)) int32_t sum_weights(const volatile int32_t *w, unsigned n) {
    int32_t s = 0;
    for (unsigned i = 0; i < n; ++i) s += w[i];
    return s;
}

int main(void) {
    printf("reading weights at 0x%08lx (L3_BASE 0x%08lx)\n", (unsigned long)(uintptr_t)weights,
           (unsigned long)L3_BASE);
    int32_t s = sum_weights(weights, 4);
    printf("load did not fault: %ld\n", (long)s);
    return 0;
}
