/* A tiled int8 matmul the way a deployed layer runs on the cluster:
 *
 *   C[M x N] (int32, L2) = A[M x K] (int8, L2) x W[K x N] (int8 weights, L3)
 *
 * The weights live in L3, which only the DMA reaches. For each tile of
 * TILE_N output columns: the DMA stages the weight tile L3 -> L2 (2-D, one
 * row of TILE_N bytes per k), then L2 -> L1; the systolic array computes the
 * C tile from L1; the DMA writes it back L1 -> L2. Staging, loading and
 * write-back of neighbouring tiles overlap the array's work (double
 * buffering in L2 and L1). The cluster controller then compares every
 * element of C with a reference the workers computed on the cores, and
 * prints how many it compared: a check that compared nothing is a failure. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npu_dma.h"
#include "npu_sa.h"

#define M 32
#define K 128
#define N 256
#define TILE_N 64
#define TILES (N / TILE_N)

/* Weights: placed in L3 by the program (as a previous stage would), read by
 * the pipeline only through the DMA. */
static int8_t weights_l3[K * N] NPU_L3_DATA;
static int8_t act_l2[M * K];
static int32_t out_l2[M * N];
static int32_t ref_l2[M * N];

static int8_t act_value(unsigned m, unsigned k) { return (int8_t)((int)((m * 31 + k * 17) % 251) - 125); }
static int8_t weight_value(unsigned k, unsigned n) { return (int8_t)((int)((k * 7 + n * 13 + (k * n) % 5) % 253) - 126); }

/* Reference rows m = worker, worker + team, ... on the workers (fork/join). */
static const int8_t *ref_weights;
static void reference_rows(void *arg) {
    (void)arg;
    for (unsigned m = npu_core_id(); m < M; m += npu_team_size())
        for (unsigned n = 0; n < N; ++n) {
            int32_t s = 0;
            for (unsigned k = 0; k < K; ++k) s += (int32_t)act_l2[m * K + k] * ref_weights[k * N + n];
            ref_l2[m * N + n] = s;
        }
}

static int fail(const char *what) {
    printf("FAIL: %s\n", what);
    return 2;
}

int main(void) {
    /* --- put the data where a deployment has it ------------------------------- */
    for (unsigned m = 0; m < M; ++m)
        for (unsigned k = 0; k < K; ++k) act_l2[m * K + k] = act_value(m, k);
    int8_t *scratch = npu_l2_malloc(K * N);
    if (!scratch) return fail("no L2 for the weight scratch");
    for (unsigned k = 0; k < K; ++k)
        for (unsigned n = 0; n < N; ++n) scratch[k * N + n] = weight_value(k, n);
    if (npu_dma_wait(npu_dma_copy_1d(weights_l3, scratch, K * N))) return fail("weights L2 -> L3");

    /* Reference on the cores (the 8 workers), from the L2 copy of the weights:
     * independent of the DMA and the array. */
    ref_weights = scratch;
    npu_trace_begin("reference on 8 workers");
    npu_cluster_run(0, reference_rows, 0);
    npu_trace_end("reference on 8 workers");
    npu_l2_free(scratch);

    /* --- buffers: double-buffered weight staging in L2, tiles in L1 ----------- */
    int8_t *stage[2] = {npu_l2_malloc(K * TILE_N), npu_l2_malloc(K * TILE_N)};
    int8_t *a_l1 = npu_l1_malloc(M * K);
    int8_t *w_l1[2] = {npu_l1_malloc(K * TILE_N), npu_l1_malloc(K * TILE_N)};
    int32_t *c_l1[2] = {npu_l1_malloc(M * TILE_N * 4), npu_l1_malloc(M * TILE_N * 4)};
    if (!stage[0] || !stage[1] || !a_l1 || !w_l1[0] || !w_l1[1] || !c_l1[0] || !c_l1[1])
        return fail("buffer allocation");

    const uint64_t t0 = npu_cycles();
    npu_trace_begin("tiled matmul");
    int a_id = npu_dma_copy_1d(a_l1, act_l2, M * K);
    /* Tile 0: stage and load before the loop. */
    int l3_id = npu_dma_copy_2d(stage[0], weights_l3, TILE_N, K, N, TILE_N);
    if (npu_dma_wait(l3_id)) return fail("stage tile 0");
    int l1_id[2] = {npu_dma_copy_1d(w_l1[0], stage[0], K * TILE_N), -1};
    int out_id[2] = {-1, -1};
    l3_id = -1;

    for (unsigned t = 0; t < TILES; ++t) {
        const unsigned cur = t & 1, nxt = cur ^ 1;
        /* Stage the next weight tile L3 -> L2 while this one is computed. */
        if (t + 1 < TILES) l3_id = npu_dma_copy_2d(stage[nxt], weights_l3 + (t + 1) * TILE_N, TILE_N, K, N, TILE_N);
        if (npu_dma_wait(l1_id[cur]) || (t == 0 && npu_dma_wait(a_id))) return fail("load tile into L1");
        /* c_l1[cur] is free once its previous write-back finished. */
        if (out_id[cur] >= 0 && npu_dma_wait(out_id[cur])) return fail("write-back");
        npu_sa_job_t job = {a_l1, w_l1[cur], c_l1[cur], M, TILE_N, K, K, TILE_N, TILE_N * 4, 0};
        npu_sa_start(&job);
        /* Meanwhile: next tile L2 -> L1 as soon as it is staged. */
        if (t + 1 < TILES) {
            if (npu_dma_wait(l3_id)) return fail("stage next tile");
            l1_id[nxt] = npu_dma_copy_1d(w_l1[nxt], stage[nxt], K * TILE_N);
        }
        if (npu_sa_wait()) return fail("systolic array");
        out_id[cur] = npu_dma_copy_2d(out_l2 + t * TILE_N, c_l1[cur], TILE_N * 4, M, TILE_N * 4, N * 4);
    }
    if (npu_dma_wait_all()) return fail("final write-back");
    npu_trace_end("tiled matmul");
    const uint64_t t1 = npu_cycles();

    /* --- check every element ------------------------------------------------------- */
    unsigned compared = 0, mismatches = 0;
    for (unsigned i = 0; i < M * N; ++i) {
        ++compared;
        if (out_l2[i] != ref_l2[i]) {
            if (mismatches < 5)
                printf("mismatch at [%u][%u]: got %ld expected %ld\n", i / N, i % N, (long)out_l2[i], (long)ref_l2[i]);
            ++mismatches;
        }
    }
    printf("tiled int8 matmul %ux%ux%u (%u tiles of %u columns, weights in L3): compared %u of %u elements, %u mismatches\n",
           M, K, N, TILES, TILE_N, compared, M * N, mismatches);
    printf("cycles: %lu for the pipeline (%lu MACs, %u x %u array)\n", (unsigned long)(t1 - t0),
           (unsigned long)M * N * K, (unsigned)*npu_sa_reg(NPU_SA_ROWS), (unsigned)*npu_sa_reg(NPU_SA_COLS));
    if (compared != M * N) return fail("the check did not compare every element");
    return mismatches ? 1 : 0;
}
