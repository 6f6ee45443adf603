/* Boot code for every hart. npusim starts all harts at the ELF entry: the
 * cluster controller (hart __npu_cc_hart_id) at t=0, each worker only when
 * the controller first writes its bit to NPU_CLUSTER_WAKE. So this code is
 * re-entered by every worker, long after the controller initialised memory.
 *
 * Per hart: gp, sp = __stack_top - hart * __npu_stack_size, mtvec, FPU on,
 * tp = the hart's own TLS block (picolibc keeps errno in TLS).
 * Controller only: .data copy (if LMA != VMA), .bss/.l1.bss zeroing (and
 * the memcheck hint that it was zeroing, not loading), constructors, main(),
 * exit(main's return value).
 * Workers: npu_worker_entry(); if it returns, the hart sleeps for good. */

/* Absolute addressing (lui/addi): every symbol here is a 32-bit address or
 * a constant. `la` would be auipc-relative, whose .Lpcrel_hi labels end up
 * in the symbol table and would name boot-code PCs in npusim's reports. */
.macro LA reg, sym
    lui \reg, %hi(\sym)
    addi \reg, \reg, %lo(\sym)
.endm

    .section .text.init.enter, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    /* gp must be set without relaxation, or the linker would turn this
     * very instruction into a gp-relative one. */
    .option push
    .option norelax
    lui gp, %hi(__global_pointer$)
    addi gp, gp, %lo(__global_pointer$)
    .option pop

    csrr s0, mhartid

    LA t0, __npu_stack_size
    mul t1, s0, t0
    LA sp, __stack_top
    sub sp, sp, t1

    LA t0, npu_trap_entry
    csrw mtvec, t0

    /* mstatus.FS = Initial: F instructions trap while FS is Off. */
    li t0, 0x2000
    csrs mstatus, t0
    fscsr zero

    LA t0, __npu_tls_stride
    mul t1, s0, t0
    LA tp, __npu_tls_blocks
    add tp, tp, t1

    LA t0, __npu_cc_hart_id
    bne s0, t0, npu_boot_worker

    /* --- cluster controller: initialise memory ------------------------- */
    LA a0, __data_start
    LA a1, __data_source
    LA a2, __data_end
    call npu_boot_copy
    LA a0, __l1_data_start
    LA a1, __l1_data_source
    LA a2, __l1_data_end
    call npu_boot_copy
    LA a0, __bss_start
    LA a1, __bss_end
    call npu_boot_zero
    LA a0, __l1_bss_start
    LA a1, __l1_bss_end
    call npu_boot_zero
    /* Memcheck hint: .bss is zeroed, not loaded (counts only with
     * --memcheck=strict). 0x408 = NPU_MEMCHECK_STARTUP_ZEROED (soc_periph_regs.h). */
    LA t0, __npu_soc_periph_base
    sw zero, 0x408(t0)

    mv a0, tp
    call _init_tls
    call __libc_init_array

    li a0, 0            /* argc */
    li a1, 0            /* argv */
    call main
    call exit           /* runs atexit handlers, then _exit -> SIMCTL_EXIT */
1:  wfi                 /* not reached: _exit ends the run */
    j 1b
    .size _start, . - _start

    .type npu_boot_worker, @function
npu_boot_worker:
    mv a0, tp
    call _init_tls
    call npu_worker_entry
2:  wfi
    j 2b
    .size npu_boot_worker, . - npu_boot_worker

/* copy [a1, a1 + (a2 - a0)) to [a0, a2), words; skipped when in place. */
    .type npu_boot_copy, @function
npu_boot_copy:
    beq a0, a1, 4f
3:  bgeu a0, a2, 4f
    lw t0, 0(a1)
    sw t0, 0(a0)
    addi a0, a0, 4
    addi a1, a1, 4
    j 3b
4:  ret
    .size npu_boot_copy, . - npu_boot_copy

/* zero [a0, a1), words (the linker script aligns both ends to 8). */
    .type npu_boot_zero, @function
npu_boot_zero:
5:  bgeu a0, a1, 6f
    sw zero, 0(a0)
    addi a0, a0, 4
    j 5b
6:  ret
    .size npu_boot_zero, . - npu_boot_zero
