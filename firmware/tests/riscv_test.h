/* A riscv-tests "p" environment (machine-mode setup, tests run in user mode,
 * pass/fail through tohost), written after riscv-tests/env/p/riscv_test.h.
 * Programs using it link with NO_RUNTIME: nothing of the npusim runtime is
 * involved, exactly like a standard bare-metal test.
 *
 * One difference: riscv-tests park every hart but hart 0 in software
 * (RISCV_MULTICORE_DISABLE). npusim parks the workers in hardware and the
 * hart that runs is the cluster controller, hart 8 on gap9, so that check
 * would park the only running hart; it is left out. */
#ifndef NPU_RISCV_TEST_H
#define NPU_RISCV_TEST_H

#define TESTNUM gp

/* Upstream riscv-tests park every hart but hart 0. Built with
 * NPU_RVTEST_UPSTREAM_HART_CHECK the test keeps that check, and runs on
 * npusim with --cluster.workers=0 (the cluster controller is then hart 0). */
#ifdef NPU_RVTEST_UPSTREAM_HART_CHECK
#define RVTEST_MULTICORE_DISABLE \
    csrr a0, mhartid;            \
    1: bnez a0, 1b
#else
#define RVTEST_MULTICORE_DISABLE
#endif

#define MSTATUS_MPP 0x00001800
#define MSTATUS_FS 0x00006000
#define CAUSE_USER_ECALL 8
#define CAUSE_MACHINE_ECALL 11

/* Writes to CSRs a core may not implement (PMP, delegation, satp) go through
 * a temporary trap vector that skips them, as riscv-tests do. */
#define RVTEST_CODE_BEGIN                                        \
    .section .text.init, "ax", @progbits;                        \
    .balign 64;                                                  \
    .globl _start;                                               \
_start:                                                          \
    j reset_vector;                                              \
    .balign 4;                                                   \
trap_vector:                                                     \
    csrr t5, mcause;                                             \
    li t6, CAUSE_USER_ECALL;                                     \
    beq t5, t6, write_tohost;                                    \
    li t6, CAUSE_MACHINE_ECALL;                                  \
    beq t5, t6, write_tohost;                                    \
    /* any other trap: fail with test number 1337 */             \
    li TESTNUM, (1337 << 1) | 1;                                 \
write_tohost:                                                    \
    sw TESTNUM, tohost, t5;                                      \
    j write_tohost;                                              \
reset_vector:                                                    \
    RVTEST_MULTICORE_DISABLE;                                    \
    li TESTNUM, 0;                                               \
    la t0, 1f;                                                   \
    csrw mtvec, t0;                                              \
    li t0, -1;                                                   \
    csrw pmpaddr0, t0;                                           \
    li t0, 0x1f;                                                 \
    csrw pmpcfg0, t0;                                            \
    .balign 4;                                                   \
1:  la t0, 1f;                                                   \
    csrw mtvec, t0;                                              \
    csrwi medeleg, 0;                                            \
    csrwi mideleg, 0;                                            \
    .balign 4;                                                   \
1:  csrwi mie, 0;                                                \
    la t0, trap_vector;                                          \
    csrw mtvec, t0;                                              \
    li t0, MSTATUS_FS & (MSTATUS_FS >> 1);                       \
    csrs mstatus, t0;                                            \
    fscsr zero;                                                  \
    li t0, MSTATUS_MPP;                                          \
    csrc mstatus, t0; /* MPP = user */                           \
    la t0, 1f;                                                   \
    csrw mepc, t0;                                               \
    mret;                                                        \
1:

#define RVTEST_CODE_END \
    unimp

#define RVTEST_PASS     \
    fence;              \
    li TESTNUM, 1;      \
    li a7, 93;          \
    li a0, 0;           \
    ecall

#define RVTEST_FAIL                 \
    fence;                          \
1:  beqz TESTNUM, 1b;               \
    sll TESTNUM, TESTNUM, 1;        \
    or TESTNUM, TESTNUM, 1;         \
    li a7, 93;                      \
    addi a0, TESTNUM, 0;            \
    ecall

#define RVTEST_DATA_BEGIN                              \
    .pushsection .tohost, "aw", @progbits;             \
    .balign 64;                                        \
    .globl tohost;                                     \
tohost:                                                \
    .dword 0;                                          \
    .balign 64;                                        \
    .globl fromhost;                                   \
fromhost:                                              \
    .dword 0;                                          \
    .popsection;                                       \
    .data;                                             \
    .balign 4;

#define RVTEST_DATA_END

/* --- test macros (after riscv-tests/isa/macros/scalar/test_macros.h) --- */
#define TEST_CASE(testnum, testreg, correctval, code...) \
test_##testnum:                                          \
    li TESTNUM, testnum;                                 \
    code;                                                \
    li x7, correctval;                                   \
    bne testreg, x7, fail;

#define TEST_RR_OP(testnum, inst, result, val1, val2) \
    TEST_CASE(testnum, x14, result,                   \
        li x1, val1;                                  \
        li x2, val2;                                  \
        inst x14, x1, x2)

#define TEST_PASSFAIL   \
    bne x0, TESTNUM, pass; \
fail:                   \
    RVTEST_FAIL;        \
pass:                   \
    RVTEST_PASS

#endif
