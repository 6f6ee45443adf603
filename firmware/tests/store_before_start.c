/* Worker 0 writes X about 500 cycles after the fork; the controller starts
 * an engine on X (the SA's B, or a DMA source with USE_DMA) about 5000
 * cycles after it: the store comes first in time, with no synchronisation
 * between them. Whichever hart the quantum lets run first, the store is no
 * finding: a use of a buffer starts at its START or push (tests/firmware,
 * fw.store_before_start.*, at quanta of 1 us to 1 ms). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_dma.h"
#include "npu_sa.h"

static NPU_L1_BSS int8_t a[64 * 64];
static NPU_L1_BSS int8_t x[64 * 64];
#ifdef USE_DMA
static int8_t out_l2[64 * 64];
#else
static NPU_L1_BSS int32_t c[64 * 64];
#endif

static void __attribute__((noinline)) spin(unsigned n) {
    for (unsigned i = 0; i < n; ++i) __asm__ volatile("nop");
}

static void job(void *arg) {
    (void)arg;
    spin(100);
    x[100] = 3;
}

int main(void) {
    for (int i = 0; i < 64 * 64; ++i) {
        a[i] = (int8_t)i;
        x[i] = (int8_t)(i * 3);
    }
    npu_cluster_fork(1, job, 0);
    spin(1000);
#ifdef USE_DMA
    npu_dma_wait(npu_dma_copy_1d(out_l2, x, sizeof x));
#else
    npu_sa_matmul_i8(a, x, c, 64, 64, 64, 0);
    if (npu_sa_wait()) return 2;
#endif
    npu_cluster_join();
    printf("done\n");
    return 0;
}
