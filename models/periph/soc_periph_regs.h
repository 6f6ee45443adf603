/* Register map of the SoC peripheral block (UART, simulation control,
 * performance counter, trace markers). Offsets from soc_periph.base.
 * Plain C: the model (models/periph/soc_periph.cpp) and the firmware runtime
 * include this same file, so the two cannot disagree. Documented in
 * docs/memory-map.md. */
#ifndef NPU_SOC_PERIPH_REGS_H
#define NPU_SOC_PERIPH_REGS_H

/* UART: a byte written to TX appears on npusim's stdout. */
#define NPU_UART_TX     0x000u           /* W: low byte is printed */
#define NPU_UART_STATUS 0x004u       /* R: bit0 = TX ready (always 1) */

/* Simulation control. */
#define NPU_SIMCTL_EXIT       0x100u       /* W: end the run; value = firmware exit code */
#define NPU_SIMCTL_TRAP_CAUSE 0x104u /* W: mcause of an unhandled trap (write first) */
#define NPU_SIMCTL_TRAP_EPC   0x108u   /* W: mepc */
#define NPU_SIMCTL_TRAP_TVAL  0x10Cu  /* W: mtval */
#define NPU_SIMCTL_TRAP_HART  0x110u  /* W: hart id; this write reports the trap and stops the run */

/* Cycle counter of the cluster clock (64 bit, read LO first: LO latches HI). */
#define NPU_PERF_CYCLES_LO 0x200u    /* R */
#define NPU_PERF_CYCLES_HI 0x204u    /* R */

/* Trace markers: name regions of the run (e.g. one per layer); the report
 * lists cycles per region. The value written is the address of a
 * NUL-terminated name (at most 63 characters); regions nest per hart and an
 * END closes the innermost open region of that name on the writing hart. */
#define NPU_TRACE_BEGIN 0x300u       /* W: address of the region's name */
#define NPU_TRACE_END   0x304u         /* W: address of the same name */

/* Memcheck hints (no hardware effect; docs/memory-map.md). The allocators
 * write a fresh block's address and then its length to UNWRITTEN: the block
 * is never-written until the program writes it, in every memcheck mode.
 * crt0 writes STARTUP_ZEROED once .bss and .l1.bss are zeroed: with
 * --memcheck=strict their bytes then count as zeroed, not loaded. */
#define NPU_MEMCHECK_ADDR           0x400u           /* W: first byte of the range */
#define NPU_MEMCHECK_UNWRITTEN      0x404u      /* W: length; marks [ADDR, ADDR + length) never-written */
#define NPU_MEMCHECK_STARTUP_ZEROED 0x408u /* W: any value */
/* npu_l1_free writes the freed block's address to ADDR, then its length to
 * FREED: the block is never-written again (a read of it is a finding naming
 * where it was allocated and freed); a pointer that starts no allocated
 * block (freed already, or never returned by npu_l1_malloc) is written to
 * BAD_FREE instead: a memcheck finding at that call. */
#define NPU_MEMCHECK_FREED    0x420u /* W: length; [ADDR, ADDR + length) freed */
#define NPU_MEMCHECK_BAD_FREE 0x424u /* W: the pointer of an invalid free */

/* Self-checks (npu_check_begin/compare/end in npu.h): a firmware test
 * harness declares each comparison it makes so npusim counts it; a declared
 * check that compared nothing (or fewer elements than declared) fails the
 * run with exit code 8. One check is open at a time. */
#define NPU_CHECK_EXPECTED 0x40Cu          /* W: elements the next check compares */
#define NPU_CHECK_BEGIN    0x410u             /* W: address of its name; opens it */
#define NPU_CHECK_COMPARED 0x414u          /* W: adds elements compared to the open check */
#define NPU_CHECK_ERRORS   0x418u            /* W: adds mismatches found to the open check */
#define NPU_CHECK_END      0x41Cu               /* W: any value; closes it */

#define NPU_SOC_PERIPH_SPAN 0x428u   /* registers end here; the rest of the window is an address error */

#endif
