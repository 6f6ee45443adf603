/* DMA HAL end to end: a matrix goes L2 -> L3 (1-D), a tile of it comes back
 * L3 -> L2 as two 2-D transfers in flight at once (per-id wait), then
 * L2 -> L1 as one 3-D transfer into a padded layout. Every element of the L1
 * tile is compared with the value it must hold, and the count is printed:
 * comparing nothing is a failure. Last, a copy is awaited through the
 * event unit's DMA-done line instead of the WAIT register. */
#include <stdio.h>

#include "npu.h"

#define ROWS 24
#define COLS 40 /* int32 per matrix row */
#define TILE_R 16
#define TILE_C 24
#define R0 4 /* tile origin in the matrix */
#define C0 8
#define HALF (TILE_R / 2)
#define PAD 4 /* extra int32 per L1 row */

static int32_t matrix[ROWS * COLS];                    /* L2, written by the core */
NPU_L3_DATA static int32_t l3_matrix[ROWS * COLS];     /* L3: reachable by the DMA only */
NPU_NOINIT static int32_t l2_tile[TILE_R * TILE_C];    /* L2, packed tile, filled by the DMA */
NPU_L1_NOINIT static int32_t l1_tile[2][HALF][TILE_C + PAD]; /* L1: two planes, padded rows */

static int32_t expected(unsigned r, unsigned c) { return (int32_t)(0x10000 + r * 1000 + c * 7); }

int main(void) {
    for (unsigned r = 0; r < ROWS; ++r)
        for (unsigned c = 0; c < COLS; ++c) matrix[r * COLS + c] = expected(r, c);

    uint64_t t0 = npu_cycles();
    int id = npu_dma_copy_1d(l3_matrix, matrix, sizeof matrix);
    if (npu_dma_wait(id)) return 2;
    uint64_t t1 = npu_cycles();

    /* Top and bottom half of the tile on two channels at once. */
    int top = npu_dma_copy_2d(l2_tile, &l3_matrix[R0 * COLS + C0], TILE_C * 4, HALF, COLS * 4, TILE_C * 4);
    int bottom = npu_dma_copy_2d(&l2_tile[HALF * TILE_C], &l3_matrix[(R0 + HALF) * COLS + C0], TILE_C * 4, HALF,
                                 COLS * 4, TILE_C * 4);
    if (top < 0 || bottom < 0 || top == bottom) return 3;
    if (npu_dma_wait(bottom) || npu_dma_wait(top)) return 4;
    uint64_t t2 = npu_cycles();

    id = npu_dma_copy_3d(l1_tile, l2_tile, TILE_C * 4, HALF, 2, TILE_C * 4, (TILE_C + PAD) * 4, HALF * TILE_C * 4,
                         sizeof l1_tile[0]);
    if (npu_dma_wait(id)) return 5;
    uint64_t t3 = npu_cycles();
    if (npu_dma_status() != 0) return 6;

    unsigned compared = 0, mismatches = 0;
    for (unsigned p = 0; p < 2; ++p)
        for (unsigned r = 0; r < HALF; ++r)
            for (unsigned c = 0; c < TILE_C; ++c) {
                const int32_t want = expected(R0 + p * HALF + r, C0 + c);
                if (l1_tile[p][r][c] != want && mismatches++ < 5)
                    printf("mismatch at plane %u row %u col %u: %ld, want %ld\n", p, r, c, (long)l1_tile[p][r][c],
                           (long)want);
                ++compared;
            }
    /* The DMA-done event line: a core can sleep on it instead of WAIT. The
     * copies above left it pending; take that first. */
    (void)npu_evt_wait(1u << NPU_EVT_DMA_DONE);
    id = npu_dma_copy_1d(l2_tile, matrix, 256);
    const uint32_t ev = npu_evt_wait(1u << NPU_EVT_DMA_DONE);
    const int event_ok = id >= 0 && (ev >> NPU_EVT_DMA_DONE & 1u) && !(npu_dma_status() >> id & 1u);
    if (npu_dma_wait(id)) return 7;
    printf("dma done event: %s\n", event_ok ? "ok" : "MISSING");

    printf("dma cycles: l2->l3 %lu, l3->l2 tile %lu, l2->l1 tile %lu\n", (unsigned long)(t1 - t0),
           (unsigned long)(t2 - t1), (unsigned long)(t3 - t2));
    printf("dma: compared %u elements, %u mismatches\n", compared, mismatches);
    return compared == TILE_R * TILE_C && mismatches == 0 && event_ok ? 0 : 1;
}
