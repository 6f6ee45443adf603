/* A firmware trap handler that recovers: with --on-bus-error=trap the store
 * through NULL becomes a store access fault (mcause 7) delivered to this
 * npu_trap_handler, which skips the store and returns. The computation
 * around the fault must come out right, proving the trap entry restores
 * every integer and float register it saved. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

static volatile unsigned faults;
static volatile uint32_t fault_address;

void npu_trap_handler(struct npu_trap_frame *frame) {
    if (frame->mcause == 7) { /* store/AMO access fault */
        ++faults;
        fault_address = frame->mtval;
#ifndef TRAP_RETRY_FOREVER
        /* skip the store: 4 bytes, or 2 for a compressed c.sw/c.swsp */
        frame->mepc += (*(const volatile uint16_t *)frame->mepc & 3) == 3 ? 4 : 2;
#endif
        /* (TRAP_RETRY_FOREVER: the handler forgets to skip it, and returns
         * to the store, which faults again: a livelock npusim must end.) */
        return;
    }
    /* Anything else: report it like the default handler does. */
    *npu_soc_reg(NPU_SIMCTL_TRAP_CAUSE) = frame->mcause;
    *npu_soc_reg(NPU_SIMCTL_TRAP_EPC) = frame->mepc;
    *npu_soc_reg(NPU_SIMCTL_TRAP_TVAL) = frame->mtval;
    *npu_soc_reg(NPU_SIMCTL_TRAP_HART) = npu_core_id();
}

/* Values live across the faulting store in registers, integer and float. */
__attribute__((noinline)) int32_t compute_around_fault(int32_t *volatile *base, int32_t a, int32_t b, float x) {
    int32_t s = a * 3 + b;
    float y = x * 2.5f;
    (*base)[16] = s; /* faults: *base is NULL */
    /* s, a and y must be in registers across the faulting store: the empty
     * asm "uses and redefines" them after it (the memory clobber keeps the
     * store before it). */
    __asm__ volatile("" : "+r"(s), "+r"(a), "+f"(y) : : "memory");
    return s + (int32_t)(y * 4.0f) + a;
}

int main(void) {
    int32_t *volatile base = NULL;
    int32_t r = compute_around_fault(&base, 11, 2, 1.5f);
    printf("recovered from %u store fault(s) at 0x%08lx\n", faults, (unsigned long)fault_address);
    printf("result %ld (expected %d)\n", (long)r, 11 * 3 + 2 + 15 + 11);
    return (faults == 1 && fault_address == 0x40 && r == 11 * 3 + 2 + 15 + 11) ? 0 : 1;
}
