/*
 * The L1 working sets of the conv kernels (npurt_conv.h documents them), the
 * one definition shared by the compiler (npu-tile chooses the tiles whose
 * working set fits the L1 budget) and the runtime (npurt_conv2d_l1_bytes,
 * npurt_dwconv2d_l1_bytes, npurt_pool2d_l1_bytes and each kernel's check of
 * the l1_bytes it is given), like npu_l1_plan.h for npurt_matmul.
 *
 * Macros, evaluated in the width of their arguments: uint32_t in the RV32
 * firmware, 64-bit in npu-tile, whose tile search tries sizes that would
 * wrap in 32 bits. Every buffer is rounded up to a multiple of 4 bytes.
 * Plain C, included by C (npurt_conv.c) and C++ (Tile.cpp).
 *
 *   m       output pixels of a tile (tile rows x output width)
 *   tn      output channels of a tile (<= cout)
 *   k       kh * kw * cin
 *   e, eo   element bytes of the input and weights, of the output
 *   in      bytes of one tile's input rows, halo included (in_rows * w * c * e)
 *   out     bytes of one output tile (tile rows * ow * c * eo)
 *   params  NPU_CONV_PARAMS_BYTES: bias and per-channel requantisation
 */
#ifndef NPU_CONV_L1_PLAN_H
#define NPU_CONV_L1_PLAN_H

/* An includer may bring its own rounding (npurt_conv.c: its align4). */
#ifndef NPU_CONV_ALIGN4
#define NPU_CONV_ALIGN4(x) (((x) + 3u) / 4u * 4u)
#endif

/* Bias (int32 / f32) and, int8 per channel, multipliers and shifts: c words each. */
#define NPU_CONV_PARAMS_BYTES(c, has_bias, per_channel) \
    ((c) * 4u * (((has_bias) ? 1u : 0u) + ((per_channel) ? 2u : 0u)))

/* npurt_conv2d, into `need`: C (int32 / f32) and output tiles,
 * double-buffered; residual tiles (with a residual); the K x tn weight panel
 * (double-buffered when the output channels are split over several tiles);
 * the im2col A (not for the direct 1x1 case); the input rows; the
 * parameters. A statement, so the runtime's code is what it was before the
 * formula was shared. */
#define NPU_CONV2D_L1_BYTES(need, m, tn, k, e, in, split, direct, residual, params) \
    do {                                                                             \
        (need) = 2u * NPU_CONV_ALIGN4((m) * (tn) * 4u) + 2u * NPU_CONV_ALIGN4((m) * (tn) * (e)); \
        if (residual) (need) += 2u * NPU_CONV_ALIGN4((m) * (tn) * (e));             \
        (need) += ((split) ? 2u : 1u) * NPU_CONV_ALIGN4((k) * (tn) * (e));          \
        if (!(direct)) (need) += 2u * NPU_CONV_ALIGN4((m) * (k) * (e));             \
        (need) += 2u * NPU_CONV_ALIGN4(in);                                         \
        (need) += (params);                                                         \
    } while (0)

/* npurt_conv2d_ksplit: single buffers of C, the output tile, the residual
 * tile, the tile_k x tn weight chunk, the chunk's im2col, the input rows. */
#define NPU_CONV2D_KSPLIT_L1_BYTES(m, tn, tk, e, in, residual, params)                       \
    (NPU_CONV_ALIGN4((m) * (tn) * 4u) + NPU_CONV_ALIGN4((m) * (tn) * (e)) +                   \
     ((residual) ? NPU_CONV_ALIGN4((m) * (tn) * (e)) : 0u) + NPU_CONV_ALIGN4((tk) * (tn) * (e)) + \
     NPU_CONV_ALIGN4((m) * (tk) * (e)) + NPU_CONV_ALIGN4(in) + (params))

/* npurt_pool2d (and npurt_dwconv2d's row tiles): input rows and output
 * tiles, double-buffered. */
#define NPU_POOL2D_L1_BYTES(in, out) (2u * NPU_CONV_ALIGN4(in) + 2u * NPU_CONV_ALIGN4(out))

/* npurt_dwconv2d: the kh x kw x c weights once, the parameters, the row tiles.
 * The channel-slicing kernels (npurt_dwconv2d_csplit, npurt_pool2d_csplit)
 * take these two with c = the slice's channels. */
#define NPU_DWCONV2D_L1_BYTES(weights, params, row_tiles) (NPU_CONV_ALIGN4(weights) + (params) + (row_tiles))

#endif /* NPU_CONV_L1_PLAN_H */
