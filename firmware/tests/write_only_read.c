/* A load from a write-only register (the sim-control exit register) is a
 * bus error; the report says why: the register and its rights. */
#include <stdio.h>

#include "npu.h"

int main(void) {
    printf("reading simctl_exit\n");
    return (int)*npu_soc_reg(NPU_SIMCTL_EXIT);
}
