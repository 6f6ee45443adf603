/* Bug class 5, accelerator side: the systolic array masters only L1, but the
 * kernel hands it the weights' L2 address (the copy into L1 was forgotten).
 * The array's first read of B is a bus error of the SA, naming the job and
 * the operand — not a result computed from whatever the address decoded to. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_sa.h"

#define M 16
#define K 32
#define N 16

static int8_t weights_l2[K * N]; /* L2: the SA cannot reach it */

int main(void) {
    int8_t *a = npu_l1_malloc(M * K);
    int32_t *c = npu_l1_malloc(M * N * 4);
    if (!a || !c) return 3;
    for (unsigned i = 0; i < M * K; ++i) a[i] = (int8_t)i;
    for (unsigned i = 0; i < K * N; ++i) weights_l2[i] = (int8_t)(i * 3);
    printf("starting the SA with B in L2 at %p\n", (void *)weights_l2);
    npu_sa_matmul_i8(a, weights_l2, c, M, N, K, 0);
    int r = npu_sa_wait();
    printf("sa returned %d\n", r);
    return 0;
}
