/* The systolic array handed an operand in L2: its master sees only L1, so
 * the first read of A is a bus error of the SA, reported with the job and
 * the PC of the store that started it — not a matmul of whatever the array
 * would have read. */
#include <stdio.h>

#include "npu.h"

static int8_t weights_l2[8 * 8] = {1}; /* default placement: L2 */
static int8_t b_l1[8 * 8] NPU_L1_DATA = {1}; /* loaded: memcheck=strict stays quiet */
static int32_t c_l1[8 * 8] NPU_L1_BSS;

static void __attribute__((noinline)) run_layer(const int8_t *a) {
    npu_sa_matmul_i8(a, b_l1, c_l1, 8, 8, 8, 0);
    npu_sa_wait();
}

int main(void) {
    printf("matmul with A at %p (L2)\n", (void *)weights_l2);
    run_layer(weights_l2);
    printf("not reached\n");
    return 0;
}
