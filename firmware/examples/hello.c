/* The smallest program: printf through picolibc to the UART, from the
 * cluster controller (hart 8 on gap9: the hart that runs main). The float
 * line checks that the printf variant linked handles %f. */
#include <stdio.h>

#include "npu.h"

int main(void) {
    printf("Hello from npusim (hart %u)\n", npu_core_id());
    volatile float third = 1.0f / 3.0f; /* volatile: computed on the target FPU */
    printf("float: %.6f\n", (double)third);
    return 0;
}
