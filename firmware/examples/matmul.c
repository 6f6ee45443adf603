/* Integer matmul with a checksum, once on the cluster controller and once
 * split by rows across the workers. Both checksums must equal a constant
 * computed on the host (the same algorithm in plain C, uint32 wrap-around);
 * any mismatch exits 1, so a broken ALU, multiplier, load/store path or
 * worker dispatch is a failure, not a different number in the log. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define N 24
/* Host value of checksum() for N = 24 and the LCG below. */
#define EXPECTED_CHECKSUM 0x02910eaau

static int32_t a[N][N], b[N][N];
static NPU_L1_BSS int32_t c_serial[N][N];
static NPU_L1_BSS int32_t c_parallel[N][N];

static uint32_t lcg_state = 12345u;
static int32_t next_value(void) {
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (int32_t)((lcg_state >> 16) & 0xff) - 128; /* int8 range, like a quantised tensor */
}

static void matmul_rows(int32_t (*c)[N], unsigned row_begin, unsigned row_end) {
    for (unsigned i = row_begin; i < row_end; ++i)
        for (unsigned j = 0; j < N; ++j) {
            int32_t acc = 0;
            for (unsigned k = 0; k < N; ++k) acc += a[i][k] * b[k][j];
            c[i][j] = acc;
        }
}

/* Position-weighted so a transposed or shifted result does not collide. */
static uint32_t checksum(int32_t (*c)[N]) {
    uint32_t sum = 0;
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j) sum = sum * 31u + (uint32_t)c[i][j] * (i * N + j + 1u);
    return sum;
}

static void worker_rows(void *arg) {
    (void)arg;
    unsigned w = npu_core_id();
    unsigned rows = (N + NB_WORKERS - 1) / NB_WORKERS;
    unsigned begin = w * rows, end = begin + rows;
    if (begin > N) begin = N;
    if (end > N) end = N;
    matmul_rows(c_parallel, begin, end);
}

int main(void) {
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j) a[i][j] = next_value();
    for (unsigned i = 0; i < N; ++i)
        for (unsigned j = 0; j < N; ++j) b[i][j] = next_value();

    uint64_t t0 = npu_cycles();
    matmul_rows(c_serial, 0, N);
    uint64_t t1 = npu_cycles();
    for (unsigned w = 0; w < NB_WORKERS; ++w) npu_run_on_worker(w, worker_rows, 0);
    npu_wait_workers();
    uint64_t t2 = npu_cycles();

    uint32_t serial = checksum(c_serial), parallel = checksum(c_parallel);
    printf("matmul %dx%d checksum serial 0x%08lx parallel 0x%08lx expected 0x%08lx\n", N, N,
           (unsigned long)serial, (unsigned long)parallel, (unsigned long)EXPECTED_CHECKSUM);
    /* Cycle counts go to the log but not into the expected output. */
    printf("cycles: serial %lu, %d workers %lu\n", (unsigned long)(t1 - t0), NB_WORKERS,
           (unsigned long)(t2 - t1));
    if (serial != EXPECTED_CHECKSUM || parallel != EXPECTED_CHECKSUM) {
        printf("MISMATCH\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
