/* The SA's results read after polling STATUS (npu_sa_busy) until the job
 * ended, not after npu_sa_wait: correct code, no memcheck finding. The
 * controller runs ahead of SystemC time between synchronisations, so it sees
 * the job end (STATUS answers at its local time) before SystemC time gets
 * there. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npu_sa.h"

int main(void) {
    int8_t *a = npu_l1_malloc(64 * 64), *b = npu_l1_malloc(64 * 64);
    int32_t *c = npu_l1_malloc(64 * 64 * 4);
    if (!a || !b || !c) return 3;
    memset(a, 1, 64 * 64);
    memset(b, 1, 64 * 64);
    npu_sa_matmul_i8(a, b, c, 64, 64, 64, 0);
    unsigned polls = 0;
    while (npu_sa_busy()) ++polls;
    const int32_t last = c[64 * 64 - 1];
    printf("polled %s, c[last] = %ld\n", polls ? "several times" : "never", (long)last);
    return last != 64;
}
