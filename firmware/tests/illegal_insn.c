/* An illegal instruction reaches the runtime's default trap handler, which
 * reports mcause 2 (illegal instruction), mepc and mtval through the
 * simulation-control block: npusim exits with the unhandled-trap code. */
#include <stdio.h>

#include "npu.h"

__attribute__((noinline)) void run_bad_opcode(void) {
    /* All-zero bits are defined to be illegal on every RISC-V. */
    __asm__ volatile(".word 0x00000000");
}

int main(void) {
    printf("executing an illegal instruction\n");
    run_bad_opcode();
    printf("illegal instruction did not trap\n");
    return 0;
}
