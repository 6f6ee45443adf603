/* A 2-D push with zero rows is refused at the push (no read, no write):
 * the report says so, at the pusher's time, instead of a "load of 16 bytes"
 * at the (valid) source. */
#include <stdio.h>

#include "npu.h"

static int32_t src[64];
NPU_L1_NOINIT static int32_t dst[64];

int main(void) {
    for (int i = 0; i < 64; ++i) src[i] = i;
    const int id = npu_dma_copy_2d(dst, src, 16, 0, 16, 16);
    printf("not reached (id %d)\n", id);
    return 0;
}
