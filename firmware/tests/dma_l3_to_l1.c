/* Weights in L3 copied straight into an L1 tile: with dma.allow_l3_l1=false
 * (the default, as on GAP9) the push itself is refused and the run stops
 * with a report that says to stage through L2. */
#include <stdio.h>

#include "npu.h"

NPU_L3_DATA static int32_t weights_l3[16] = {1, 2, 3};
NPU_L1_BSS static int32_t tile[16];

__attribute__((noinline)) static int load_weights(void) {
    int id = npu_dma_copy_1d(tile, weights_l3, sizeof tile);
    return npu_dma_wait(id);
}

int main(void) {
    printf("copying weights L3 -> L1 directly\n");
    const int rc = load_weights();
    printf("not reached (rc %d)\n", rc);
    return 0;
}
