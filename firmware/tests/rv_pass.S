/* riscv-tests style program that passes: integer, multiply/divide, a data
 * load/store and a float add, run in user mode; tohost = 1 -> exit code 0. */
#include "riscv_test.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, add, 0x00000003, 0x00000001, 0x00000002)
    TEST_RR_OP(3, sub, 0xfffffffe, 0x00000001, 0x00000003)
    TEST_RR_OP(4, mul, 0x00001200, 0x00000048, 0x00000040)
    TEST_RR_OP(5, div, 0xfffffffd, 0xfffffff6, 0x00000003)
    TEST_RR_OP(6, remu, 0x00000001, 0x00000007, 0x00000003)

    TEST_CASE(7, x14, 0x12345678,
        la x1, scratch;
        li x2, 0x12345678;
        sw x2, 0(x1);
        lw x14, 0(x1))

    /* 1.5f + 2.25f = 3.75f (0x40700000) */
    TEST_CASE(8, x14, 0x40700000,
        la x1, operands;
        flw f1, 0(x1);
        flw f2, 4(x1);
        fadd.s f3, f1, f2;
        fmv.x.w x14, f3)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
operands: .word 0x3fc00000, 0x40100000
scratch: .word 0
RVTEST_DATA_END
