/* An SA operand row that runs past L1's end (A's first row: 16 bytes from
 * 8 bytes before the end): the bus error names the row the array streams
 * and where in it the memory ends, not a 1-byte load at the first element
 * it could not reach. */
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"
#include "npu_sa.h"

int main(void) {
    int8_t *b = npu_l1_malloc(64);
    int32_t *c = npu_l1_malloc(32);
    if (!b || !c) return 3;
    const int8_t *a = (const int8_t *)(uintptr_t)(L1_BASE + L1_SIZE - 8);
    npu_sa_matmul_i8(a, b, c, 2, 4, 16, 0);
    printf("not reached (rc %d)\n", npu_sa_wait());
    return 0;
}
