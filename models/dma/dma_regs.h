/* Register map of the DMA engine (MCHAN-style). Offsets from dma_ctrl.base.
 * Plain C, shared by the model (models/dma) and the firmware HAL
 * (firmware/runtime/dma.c), so the two cannot disagree. Every register is
 * one aligned 32-bit word; see docs/dma.md for the timing model and errors.
 *
 * Programming: write SRC, DST and LEN (bytes per row), plus the 2-D and 3-D
 * strides and counts when needed, then READ one of the PUSH registers. The
 * read enqueues the transfer and returns its id (0 .. channels-1), or
 * NPU_DMA_REFUSED when the transfer was refused (route not allowed, bad
 * descriptor). A push with every channel busy blocks until one is free.
 * The descriptor registers keep their values after a push, so a sequence of
 * similar transfers only rewrites what changes. */
#ifndef NPU_DMA_REGS_H
#define NPU_DMA_REGS_H

#define NPU_DMA_SRC           0x000u         /* RW: source address of the first byte */
#define NPU_DMA_DST           0x004u         /* RW: destination address of the first byte */
#define NPU_DMA_LEN           0x008u         /* RW: bytes per row (the whole size of a 1-D transfer) */
#define NPU_DMA_SRC_STRIDE_2D 0x00Cu /* RW: bytes between the starts of consecutive source rows */
#define NPU_DMA_DST_STRIDE_2D 0x010u /* RW: bytes between the starts of consecutive destination rows */
#define NPU_DMA_COUNT_2D      0x014u    /* RW: rows per plane (2-D and 3-D pushes; 0 is refused) */
#define NPU_DMA_SRC_STRIDE_3D 0x018u /* RW: bytes between the starts of consecutive source planes */
#define NPU_DMA_DST_STRIDE_3D 0x01Cu /* RW: bytes between the starts of consecutive destination planes */
#define NPU_DMA_COUNT_3D      0x020u    /* RW: planes (3-D pushes; 0 is refused) */
#define NPU_DMA_PUSH_1D       0x024u     /* R: enqueue SRC -> DST, LEN bytes; returns the id */
#define NPU_DMA_PUSH_2D       0x028u     /* R: enqueue COUNT_2D rows of LEN bytes; returns the id */
#define NPU_DMA_PUSH_3D       0x02Cu     /* R: enqueue COUNT_3D planes of COUNT_2D rows; returns the id */
#define NPU_DMA_STATUS        0x030u      /* R: bit i set = transfer id i queued or in flight */
#define NPU_DMA_WAIT \
    0x034u        /* W: blocks the writer until transfer id (value) has finished (done or failed);
                                      an id >= CHANNELS is a command error */
#define NPU_DMA_ERROR      0x038u       /* RW: bit i set = the last transfer of id i failed; write 1s to clear */
#define NPU_DMA_ERROR_ADDR 0x03Cu  /* R: faulting address of the most recent error */
#define NPU_DMA_ERROR_INFO 0x040u  /* R: most recent error: id [7:0], side [9:8], cause [15:12] */
#define NPU_DMA_CHANNELS   0x044u    /* R: number of transfer ids (dma.channels) */

#define NPU_DMA_SPAN 0x048u

/* PUSH_* result when the transfer was refused (ERROR_INFO says why). */
#define NPU_DMA_REFUSED 0xFFFFFFFFu

/* ERROR_INFO fields. */
#define NPU_DMA_ERR_ID(info)    ((info) & 0xFFu)
#define NPU_DMA_ERR_SIDE(info)  (((info) >> 8) & 0x3u)
#define NPU_DMA_ERR_CAUSE(info) (((info) >> 12) & 0xFu)
#define NPU_DMA_SIDE_NONE       0u   /* refused at push: no side accessed */
#define NPU_DMA_SIDE_SRC        1u    /* the read of the source failed */
#define NPU_DMA_SIDE_DST        2u    /* the write of the destination failed */
#define NPU_DMA_CAUSE_BUS       1u   /* error response from the interconnect or target */
#define NPU_DMA_CAUSE_ROUTE     2u /* route not allowed by the config (e.g. dma.allow_l3_l1 = false) */
#define NPU_DMA_CAUSE_DESC      3u  /* bad descriptor (a zero count) */

#endif
