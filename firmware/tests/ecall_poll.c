/* A program that makes the same environment call from the same registers
 * many times in a row: a yield while it polls memory the handler updates.
 * The trap-loop check (the same trap from the same state 1000 times in a
 * row, models/cpu/core.cpp) must leave it alone: an ecall is a call, not
 * a fault the handler failed to fix. 3000 calls, then exit 0. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

static volatile uint32_t calls, done;

void npu_trap_handler(struct npu_trap_frame *frame) {
    if (frame->mcause == 11) { /* ecall from M-mode: count it, return past it */
        if (++calls == 3000) done = 1;
        frame->mepc += 4;
        return;
    }
    *npu_soc_reg(NPU_SIMCTL_TRAP_CAUSE) = frame->mcause;
    *npu_soc_reg(NPU_SIMCTL_TRAP_EPC) = frame->mepc;
    *npu_soc_reg(NPU_SIMCTL_TRAP_TVAL) = frame->mtval;
    *npu_soc_reg(NPU_SIMCTL_TRAP_HART) = npu_core_id();
}

int main(void) {
    /* Every register the same at each ecall: the loop keeps nothing but
     * the memory the handler writes. */
    while (!done) __asm__ volatile("ecall" ::: "memory");
    printf("ecall poll: %lu calls\n", (unsigned long)calls);
    return 0;
}
