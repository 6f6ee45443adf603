/* DMA HAL (firmware/runtime/dma.c): 1-D, 2-D and 3-D strided copies between
 * L1, L2 and L3 on the cluster DMA, with transfer ids and per-id wait.
 * Register map: models/dma/dma_regs.h; model and timing: docs/dma.md.
 *
 *   int id = npu_dma_copy_1d(l2_buf, l3_weights, 4096);
 *   ... compute on the previous buffer ...
 *   if (npu_dma_wait(id)) { error }
 *
 * A copy returns as soon as the transfer is queued (or blocks while every
 * channel is busy). Its id is free again once it ends, waited for or not
 * (docs/dma.md, "Wait"). Every hart may use the HAL: the descriptor
 * registers are programmed under a lock. With the default
 * dma.on_error=stop a faulting transfer (or a refused one, e.g. L3 <-> L1
 * with dma.allow_l3_l1=false) ends the run with a bus-error report; with
 * dma.on_error=report the copy returns -1 (refused) or npu_dma_wait
 * returns -1 (aborted) and npu_dma_error_address() says where. */
#ifndef NPU_DMA_H
#define NPU_DMA_H

#include <stdint.h>

#include "dma_regs.h"
#include "npu_mutex.h"

#ifdef __cplusplus
extern "C" {
#endif

extern char __npu_dma_ctrl_base[];

static inline volatile uint32_t *npu_dma_reg(uint32_t offset) {
    return (volatile uint32_t *)((uintptr_t)__npu_dma_ctrl_base + offset);
}

/* The descriptor registers are one set for the whole cluster: a hart must
 * not write SRC while another is between its SRC write and its PUSH, so the
 * programming holds the event unit's NPU_MUTEX_DMA (npu.h). */
static inline void npu_dma_program_(void *dst, const void *src, uint32_t row_bytes) {
    npu_mutex_lock(NPU_MUTEX_DMA);
    *npu_dma_reg(NPU_DMA_SRC) = (uint32_t)(uintptr_t)src;
    *npu_dma_reg(NPU_DMA_DST) = (uint32_t)(uintptr_t)dst;
    *npu_dma_reg(NPU_DMA_LEN) = row_bytes;
}

static inline int npu_dma_push_(uint32_t which) {
    /* The core's stores to the source must be visible to the DMA. */
    __asm__ volatile("fence" ::: "memory");
    const uint32_t id = *npu_dma_reg(which);
    npu_mutex_unlock(NPU_MUTEX_DMA);
    return id == NPU_DMA_REFUSED ? -1 : (int)id;
}

/* The copies are inline so that the PUSH load, whose PC a DMA error report
 * names as "programmed at", sits in the caller's function. */

/* bytes contiguous bytes src -> dst. Returns the transfer id, or -1 if refused. */
static inline int npu_dma_copy_1d(void *dst, const void *src, uint32_t bytes) {
    npu_dma_program_(dst, src, bytes);
    return npu_dma_push_(NPU_DMA_PUSH_1D);
}

/* rows rows of row_bytes each; row r starts at src + r * src_stride and
 * lands at dst + r * dst_stride (strides in bytes). */
static inline int npu_dma_copy_2d(void *dst, const void *src, uint32_t row_bytes, uint32_t rows,
                                  uint32_t src_stride, uint32_t dst_stride) {
    npu_dma_program_(dst, src, row_bytes);
    *npu_dma_reg(NPU_DMA_COUNT_2D) = rows;
    *npu_dma_reg(NPU_DMA_SRC_STRIDE_2D) = src_stride;
    *npu_dma_reg(NPU_DMA_DST_STRIDE_2D) = dst_stride;
    return npu_dma_push_(NPU_DMA_PUSH_2D);
}

/* planes planes of rows rows: row r of plane p starts at
 * src + p * src_plane_stride + r * src_row_stride (same for dst). */
static inline int npu_dma_copy_3d(void *dst, const void *src, uint32_t row_bytes, uint32_t rows, uint32_t planes,
                                  uint32_t src_row_stride, uint32_t dst_row_stride, uint32_t src_plane_stride,
                                  uint32_t dst_plane_stride) {
    npu_dma_program_(dst, src, row_bytes);
    *npu_dma_reg(NPU_DMA_COUNT_2D) = rows;
    *npu_dma_reg(NPU_DMA_SRC_STRIDE_2D) = src_row_stride;
    *npu_dma_reg(NPU_DMA_DST_STRIDE_2D) = dst_row_stride;
    *npu_dma_reg(NPU_DMA_COUNT_3D) = planes;
    *npu_dma_reg(NPU_DMA_SRC_STRIDE_3D) = src_plane_stride;
    *npu_dma_reg(NPU_DMA_DST_STRIDE_3D) = dst_plane_stride;
    return npu_dma_push_(NPU_DMA_PUSH_3D);
}

/* Sleeps until transfer id finished (the store to WAIT blocks in the DMA).
 * 0: done; -1: it was aborted by an error (or id is -1, a refused copy). */
static inline int npu_dma_wait(int id) {
    if (id < 0) return -1;
    *npu_dma_reg(NPU_DMA_WAIT) = (uint32_t)id;
    /* The destination was written by another master: no load may be hoisted above. */
    __asm__ volatile("fence" ::: "memory");
    return (*npu_dma_reg(NPU_DMA_ERROR) >> id & 1u) ? -1 : 0;
}

/* Waits for every transfer in flight; -1 if any of them failed. */
int npu_dma_wait_all(void);

/* Bit i set: transfer id i queued or in flight (non-blocking). */
static inline uint32_t npu_dma_status(void) { return *npu_dma_reg(NPU_DMA_STATUS); }
/* Bit i set: the last transfer of id i failed. */
static inline uint32_t npu_dma_error(void) { return *npu_dma_reg(NPU_DMA_ERROR); }
static inline uint32_t npu_dma_error_address(void) { return *npu_dma_reg(NPU_DMA_ERROR_ADDR); }
static inline uint32_t npu_dma_error_info(void) { return *npu_dma_reg(NPU_DMA_ERROR_INFO); }
static inline unsigned npu_dma_channels(void) { return *npu_dma_reg(NPU_DMA_CHANNELS); }

#ifdef __cplusplus
}
#endif

#endif
