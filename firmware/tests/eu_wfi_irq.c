/* Sleeping cores wake on event-unit events, end to end:
 *  1. WFI: the controller waits for software event 0 in `wfi` (its event
 *     mask holds line 0); worker 0 raises the event after some work. A lost
 *     wake-up would hang (caught by the test's --max-cycles).
 *  2. Interrupt: line 1 is in the controller's IRQ_MASK; a worker's event
 *     raises the controller's local interrupt 16 + 1, taken by this
 *     program's trap handler, which clears the event (lowering the line). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define LINE_WFI (NPU_EVT_SW0 + 0)
#define LINE_IRQ (NPU_EVT_SW0 + 1)

static volatile uint32_t irq_cause;
static volatile uint32_t irq_count;

void npu_trap_handler(struct npu_trap_frame *f) {
    if (f->mcause == (0x80000000u | (16u + LINE_IRQ))) {
        irq_cause = f->mcause;
        ++irq_count;
        *npu_eu_reg(NPU_EU_BUFFER_CLEAR) = 1u << LINE_IRQ;
        return;
    }
    printf("unexpected trap: mcause %#lx mepc %#lx\n", (unsigned long)f->mcause, (unsigned long)f->mepc);
    *npu_soc_reg(NPU_SIMCTL_EXIT) = 1;
}

static void raise_to_controller(void *arg) {
    for (volatile int i = 0; i < 2000; ++i) {
    }
    npu_evt_trigger((unsigned)(uintptr_t)arg, 1u << CC_HART_ID);
}

int main(void) {
    /* 1. wfi until the event is in the buffer */
    *npu_eu_reg(NPU_EU_EVT_MASK) = 1u << LINE_WFI;
    npu_cluster_fork(1, raise_to_controller, (void *)(uintptr_t)LINE_WFI);
    unsigned sleeps = 0;
    while (!(*npu_eu_reg(NPU_EU_BUFFER) & (1u << LINE_WFI))) {
        __asm__ volatile("wfi");
        ++sleeps;
    }
    *npu_eu_reg(NPU_EU_BUFFER_CLEAR) = 1u << LINE_WFI;
    *npu_eu_reg(NPU_EU_EVT_MASK) = 0;
    npu_cluster_join();
    printf("woken from wfi by worker 0 (%s)\n", sleeps ? "slept" : "did not sleep");

    /* 2. the same event line as an interrupt */
    *npu_eu_reg(NPU_EU_IRQ_MASK) = 1u << LINE_IRQ;
    __asm__ volatile("csrs mie, %0" ::"r"(1u << (16 + LINE_IRQ)));
    __asm__ volatile("csrsi mstatus, 8");
    npu_cluster_fork(1, raise_to_controller, (void *)(uintptr_t)LINE_IRQ);
    while (!irq_count) __asm__ volatile("wfi");
    npu_cluster_join();
    __asm__ volatile("csrci mstatus, 8");
    printf("interrupt mcause %#lx taken %lu time(s), lines 0-1 pending: %#lx\n", (unsigned long)irq_cause,
           (unsigned long)irq_count, (unsigned long)(*npu_eu_reg(NPU_EU_BUFFER) & 3u));
    return 0;
}
