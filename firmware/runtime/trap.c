/* Default trap handler: no recovery, report the trap to npusim and stop.
 * The TRAP_HART write must come last: it triggers the report. */
#include "npu.h"

__attribute__((weak)) void npu_trap_handler(struct npu_trap_frame *frame) {
    *npu_soc_reg(NPU_SIMCTL_TRAP_CAUSE) = frame->mcause;
    *npu_soc_reg(NPU_SIMCTL_TRAP_EPC) = frame->mepc;
    *npu_soc_reg(NPU_SIMCTL_TRAP_TVAL) = frame->mtval;
    *npu_soc_reg(NPU_SIMCTL_TRAP_HART) = npu_core_id();
    for (;;)
        __asm__ volatile("wfi");
}
