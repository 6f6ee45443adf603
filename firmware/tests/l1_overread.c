/* A loop that reads 64 bytes past the end of an L1 array: the finding names
 * the array and how far past its end the read is (it named the linker's
 * marker after it, <__l1_bss_end>). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"

static NPU_L1_BSS int8_t samples[256];

static int32_t __attribute__((noinline)) sum(const int8_t *p, unsigned n) {
    int32_t s = 0;
    for (unsigned i = 0; i < n; ++i) s += p[i];
    return s;
}

int main(void) {
    memset(samples, 1, sizeof samples);
    printf("sum %ld\n", (long)sum(samples, sizeof samples + 64));
    return 0;
}
