/* riscv-tests style program whose test 3 fails on purpose (1 + 1 is not 3):
 * tohost = (3 << 1) | 1, so npusim must end the run with firmware code 3
 * (npusim exit code 1), proving a failing riscv-test is not a pass. */
#include "riscv_test.h"

RVTEST_CODE_BEGIN

    TEST_RR_OP(2, add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR_OP(3, add, 0x00000003, 0x00000001, 0x00000001)
    TEST_RR_OP(4, add, 0x00000004, 0x00000002, 0x00000002)

    TEST_PASSFAIL

RVTEST_CODE_END

RVTEST_DATA_BEGIN
RVTEST_DATA_END
