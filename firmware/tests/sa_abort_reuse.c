/* With sa.stop_on_error=false: job 1 ends and is waited for, then job 2
 * (C in L2) aborts at its START while the program reuses job 1's C, by DMA
 * (REUSE_BY_DMA) or by core stores. Job 1's use of C ended before job 2
 * started: no finding (tests/firmware, fw.sa_abort_reuse.*; the DMA refill
 * was once reported against a job mixing job 1's operands with job 2's end). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"
#include "npu_sa.h"

static NPU_L1_BSS int8_t a[64 * 64];
static NPU_L1_BSS int8_t b[64 * 64];
static NPU_L1_BSS int32_t c1[64 * 64];
static int32_t c_l2[64 * 64];
static int32_t src_l2[64 * 64];

int main(void) {
    for (int i = 0; i < 64 * 64; ++i) {
        a[i] = (int8_t)i;
        b[i] = (int8_t)(i * 3);
        src_l2[i] = i;
    }
    npu_sa_matmul_i8(a, b, c1, 64, 64, 64, 0);
    if (npu_sa_wait()) return 2;
    long s = 0;
    for (int i = 0; i < 64 * 64; ++i) s += c1[i];
    npu_sa_matmul_i8(a, b, c_l2, 64, 64, 64, 0); /* aborts: C is not in L1 */
#ifdef REUSE_BY_DMA
    npu_dma_wait(npu_dma_copy_1d(c1, src_l2, sizeof c1));
#else
    for (int i = 0; i < 64 * 64; ++i) c1[i] = i;
#endif
    const int r = npu_sa_wait();
    printf("job 2 %s, job 1 sum %ld\n", r ? "aborted" : "done", s);
    return r ? 0 : 3;
}
