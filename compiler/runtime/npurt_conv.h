/* npurt_conv: runtime kernels for convolutional networks (libnpurt.a).
 *
 * Three kernels, DORY / PULP-NN style: every operand of the systolic array and
 * of the workers is in L1, tiles of the L2 tensors are brought in by
 * double-buffered DMA (halo rows along H), results go back by DMA. The tile
 * sizes are parameters (npuc's cost model chooses them); each kernel checks
 * that its tiles fit the L1 bytes it is given and stops with a message
 * ("npurt_conv2d: l1_bytes ... is less than ...", exit 1) otherwise.
 *
 * Layouts (all dense, row-major, batch 1):
 *   activations NHWC  [H][W][C]
 *   conv weights HWCF [KH][KW][CIN][COUT]  (= a row-major K x COUT matrix,
 *                                           K = KH*KW*CIN, k = (r*KW + s)*CIN + ci)
 *   depthwise weights HWC [KH][KW][C]      (channel multiplier 1)
 * Output size per dimension: O = (I + pad_lo + pad_hi - dil*(KS-1) - 1) / stride + 1.
 * Padding is zero padding (symmetric int8 quantisation: zero point 0).
 * Tensors are in L2 (cores and the DMA reach them); L3 is not supported here:
 * stage an L3 tensor to L2 first (npurt_copy).
 *
 * Every argument block is made of 32-bit words only (pointers are 32-bit on
 * rv32), so generated code can pass a constant i32 array.
 *
 * ---------------------------------------------------------------------------
 * The int8 requantisation (the compiler's host golden must do exactly this):
 *
 *   rq(x, m, s) = (int32_t)(((int64_t)x * m + ((INT64_C(1) << s) >> 1)) >> s)
 *
 * i.e. an i64 multiply by the int32 multiplier m, add 2^(s-1) (0 for s = 0),
 * arithmetic shift right by s (0 <= s <= 62): rounding half up (toward +inf),
 * NOT TFLite's MultiplyByQuantizedMultiplier (doubling high mul + rounding
 * divide, half away from zero). The epilogue of an output element of channel n:
 *
 *   a = (int32_t)((uint32_t)acc + (uint32_t)bias[n])     int32, wraps (bias NULL: 0)
 *   v = (int64_t)rq(a, mult[n], shift[n])               per channel, or mult[0]/shift[0]
 *   v += (int64_t)rq(residual, res_mult, res_shift)     only with a residual tensor
 *   v = min(max(v, act_min), act_max)                   (NPURT_CONV_RELU: act_min raised to 0)
 *   out = (int8_t)v
 *
 * In MLIR: extsi i32 -> i64, muli, addi (1 << s) >> 1, shrsi, trunci to i32,
 * extsi, [addi residual's], maxsi, minsi, trunci to i8 (the rq result is
 * truncated to i32 like the C cast above; a generator keeps it in range).
 *
 * f32 epilogue: v = acc + bias[n]; v = v + residual; v = max(v, 0) with
 * NPURT_CONV_RELU (each step only when present), in that order.
 * f32 accumulation on the SA: fmaf in k order from +0.0 (docs/sa.md), k as in
 * the HWCF flattening above.
 */
#ifndef NPURT_CONV_H
#define NPURT_CONV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* flags of all three kernels */
#define NPURT_CONV_F32 1u           /* f32 tensors; else int8 (int32 accumulation) */
#define NPURT_CONV_PER_CHANNEL 2u   /* int8: rq_mult/rq_shift have one entry per output channel; else one */
#define NPURT_CONV_RELU 4u          /* clamp at 0 (int8: act_min raised to 0) */
#define NPURT_CONV_UNCHECKED_L1 16u /* fault injection 'unchecked-l1-alloc' (= NPURT_UNCHECKED_L1): the
                                       npu_l1_malloc result is used without a NULL check */

/* ---------------------------------------------------------------------------
 * npurt_conv2d: output = epilogue(conv(input, weights)) on the systolic array
 * ---------------------------------------------------------------------------
 * Implicit im2col: output tiles of tile_oh full output rows x tile_cout
 * channels. For each row tile the input rows it needs (with the halo,
 * clipped to the tensor) come to L1 in one DMA (double-buffered: the next
 * tile's rows move while this one computes); the workers gather the patches
 * into an L1 matrix A [M = rows*OW][K] (zeros for padding); the weights'
 * K x tile_cout column panel B is DMA'd to L1 (once for the whole call when
 * tile_cout >= cout, else double-buffered per step) and the SA computes
 * C = A * B (int32 / f32) into L1. The epilogue above runs on the workers
 * straight from C into an int8/f32 output tile in L1 (the accumulator never
 * goes to L2), which is DMA'd to the output. Steps (row tile i outer, cout
 * tile j inner) are pipelined: while the SA computes step s the workers do
 * the epilogue of step s-1 and, at a row tile's last step, the im2col of the
 * next row tile; the DMA moves the next input rows, B panel, residual tile
 * and the previous output tile meanwhile.
 * 1x1 kernels with stride 1 and no padding skip the im2col: the input rows
 * are A as they are.
 *
 * L1 working set (every buffer rounded up to a multiple of 4 bytes), with
 * e = 1 (int8) or 4 (f32), OW the output width, M = tile_oh * OW,
 * tn = min(tile_cout, cout), K = kh*kw*cin,
 * in_rows = min(h, (tile_oh - 1) * stride_h + (kh - 1) * dilation_h + 1):
 *
 *   l1_bytes >= 2 * M*tn*4                     C (int32 / f32)
 *             + 2 * M*tn*e                     output tiles
 *             + 2 * M*tn*e                     residual tiles (only with residual)
 *             + (tn < cout ? 2 : 1) * K*tn*e   B panels
 *             + 2 * M*K*e                      im2col A (not for 1x1 s1 unpadded)
 *             + 2 * in_rows*w*cin*e            input rows
 *             + cout*4 * (bias != NULL)
 *             + cout*4*2 (int8 with NPURT_CONV_PER_CHANNEL)
 *
 * (npurt_conv2d_l1_bytes() computes it.) Besides, a program that links
 * npurt_conv2d has its state (420 bytes) in L1 .bss, outside l1_bytes.
 * Tiles larger than the tensor
 * shrink to it before the check. `l1`: the caller's L1 block of l1_bytes, or
 * NULL: the kernel calls npu_l1_malloc(l1_bytes) (a failure prints the
 * request and the largest free block and exits with NPU_ALLOC_FAILED_EXIT)
 * and frees it before returning.
 * Call it from the cluster controller; it returns with the output in L2. */
typedef struct {
    const void *input;       /* NHWC [h][w][cin], int8 / f32 */
    const void *weights;     /* HWCF [kh][kw][cin][cout], int8 / f32 */
    const void *bias;        /* [cout] int32 (int8 mode) / f32; NULL: none */
    const int32_t *rq_mult;  /* int8: [cout] or [1] multipliers; unused for f32 */
    const int32_t *rq_shift; /* int8: [cout] or [1] right shifts, 0..62 */
    const void *residual;    /* NHWC [oh][ow][cout], int8 / f32, added in the epilogue; NULL: none */
    void *output;            /* NHWC [oh][ow][cout], int8 / f32 */
    uint32_t h, w, cin, cout;
    uint32_t kh, kw, stride_h, stride_w, dilation_h, dilation_w;
    uint32_t pad_top, pad_left, pad_bottom, pad_right;
    int32_t act_min, act_max;   /* int8 clamp of the result (-128, 127 for none) */
    int32_t res_mult, res_shift; /* int8: the residual's rescale rq(res, res_mult, res_shift) */
    uint32_t tile_oh, tile_cout; /* output rows and channels per tile, >= 1 */
    uint32_t flags;              /* NPURT_CONV_* */
    uint32_t l1_bytes;           /* the working set above, at least */
    void *l1;                    /* caller's L1 block, or NULL (npu_l1_malloc) */
} npurt_conv2d_args;

void npurt_conv2d(const npurt_conv2d_args *args);
uint32_t npurt_conv2d_l1_bytes(const npurt_conv2d_args *args);

/* npurt_conv2d_ksplit (f32) and npurt_conv2d_ksplit_i8 (int8): npurt_conv2d
 * for a layer whose K x tile_cout weight panel and im2col rows do not fit L1
 * (npuc uses them only then): K = kh*kw*cin is split into chunks of tile_k,
 * accumulated on the SA in k order (f32: bit for bit what one job gives;
 * int8: the int32 partial sums, exact), then npurt_conv2d's epilogue. Each
 * stops with a message if the flags' element type is the other kernel's.
 * Single-buffered, not pipelined:
 *
 *   l1_bytes >= M*tn*4 + M*tn*e + M*tn*e (residual) + tile_k*tn*e
 *             + M*tile_k*e + in_rows*w*cin*e + the parameters
 *
 * (npurt_conv2d_ksplit_l1_bytes(); each buffer rounded up to 4). */
typedef struct {
    npurt_conv2d_args conv;
    uint32_t tile_k; /* K per SA job, >= 1 */
} npurt_conv2d_ksplit_args;

void npurt_conv2d_ksplit(const npurt_conv2d_ksplit_args *args);
void npurt_conv2d_ksplit_i8(const npurt_conv2d_ksplit_args *args);
uint32_t npurt_conv2d_ksplit_l1_bytes(const npurt_conv2d_ksplit_args *args);

/* ---------------------------------------------------------------------------
 * npurt_dwconv2d: depthwise convolution on the workers
 * ---------------------------------------------------------------------------
 * output[oh][ow][c] = epilogue(sum_{r,s} input[oh*sh - pt + r*dh][ow*sw - pl + s*dw][c] * weights[r][s][c])
 * (padding contributes nothing). int8: exact int32 sum, then the int8
 * epilogue above (no residual). f32: acc = +0.0, acc = fmaf(x, w, acc) over
 * r then s ascending (padding skipped), then the f32 epilogue.
 * Tiles of tile_oh output rows (all channels): the input rows with their halo
 * DMA'd to L1 (double-buffered), the 8 workers compute the tile's pixels into
 * an L1 output tile, DMA'd back while the next tile computes. The weights
 * and the per-channel parameters are DMA'd to L1 once.
 *
 *   l1_bytes >= kh*kw*c*e + c*4*(bias != NULL) + c*4*2 (int8 per channel)
 *             + 2 * in_rows*w*c*e + 2 * tile_oh*OW*c*e    (each rounded up to 4)
 */
typedef struct {
    const void *input;   /* NHWC [h][w][c] */
    const void *weights; /* HWC [kh][kw][c] */
    const void *bias;    /* [c] int32 / f32, or NULL */
    const int32_t *rq_mult, *rq_shift;
    void *output; /* NHWC [oh][ow][c] */
    uint32_t h, w, c;
    uint32_t kh, kw, stride_h, stride_w, dilation_h, dilation_w;
    uint32_t pad_top, pad_left, pad_bottom, pad_right;
    int32_t act_min, act_max;
    uint32_t tile_oh;
    uint32_t flags;
    uint32_t l1_bytes;
    void *l1;
} npurt_dwconv2d_args;

void npurt_dwconv2d(const npurt_dwconv2d_args *args);
uint32_t npurt_dwconv2d_l1_bytes(const npurt_dwconv2d_args *args);

/* ---------------------------------------------------------------------------
 * npurt_pool2d: max / sum / average pooling on the workers
 * ---------------------------------------------------------------------------
 * Windows kh x kw with stride and padding; padded positions are skipped (they
 * never win a max and add nothing to a sum). Global average pooling: kh = h,
 * kw = w. Modes:
 *   NPURT_POOL_MAX  out = max of the window; int8 -> int8, f32 -> f32
 *                   (a window entirely in padding gives -128 / -inf)
 *   NPURT_POOL_SUM  int8 -> int32 sums; f32 -> f32: acc = +0.0, acc += x over
 *                   r then s ascending
 *   NPURT_POOL_AVG  int8: out = clamp(rq(sum, rq_mult, rq_shift), act_min,
 *                   act_max) -> int8 (the caller folds 1/count into the
 *                   multiplier); f32: out = sum / divisor
 * Tiled like npurt_dwconv2d (eo: bytes of an output element):
 *   l1_bytes >= 2 * in_rows*w*c*e + 2 * tile_oh*OW*c*eo
 */
#define NPURT_POOL_MAX 0u
#define NPURT_POOL_SUM 1u
#define NPURT_POOL_AVG 2u

typedef struct {
    const void *input; /* NHWC [h][w][c] */
    void *output;      /* NHWC [oh][ow][c] */
    uint32_t h, w, c;
    uint32_t kh, kw, stride_h, stride_w;
    uint32_t pad_top, pad_left, pad_bottom, pad_right;
    uint32_t mode;             /* NPURT_POOL_* */
    int32_t rq_mult, rq_shift; /* int8 AVG */
    int32_t act_min, act_max;  /* int8 AVG */
    float divisor;             /* f32 AVG */
    uint32_t tile_oh;
    uint32_t flags; /* NPURT_CONV_F32, NPURT_CONV_UNCHECKED_L1 */
    uint32_t l1_bytes;
    void *l1;
} npurt_pool2d_args;

void npurt_pool2d(const npurt_pool2d_args *args);
uint32_t npurt_pool2d_l1_bytes(const npurt_pool2d_args *args);

/* ---------------------------------------------------------------------------
 * npurt_dwconv2d_csplit, npurt_pool2d_csplit: channel slices
 * ---------------------------------------------------------------------------
 * npurt_dwconv2d / npurt_pool2d for a layer whose row tiles of all channels
 * do not fit L1 (npuc uses them only then): depthwise convolution and
 * pooling are independent per channel, so the channels run in slices of
 * tile_c (the last one takes the rest), each like a layer of tile_c
 * channels: its input rows come to L1 packed by 2-D DMA (tile_c channels
 * out of every pixel), a depthwise slice's weights and parameters too, its
 * output tiles go back into their channels by 2-D DMA; the steps (slice
 * outer, row tile inner) are double-buffered across slices. Every output
 * element is computed exactly as the unsliced kernel computes it. The L1
 * working set is the unsliced kernel's with c = min(tile_c, c):
 *
 *   dwconv: kh*kw*tile_c*e + tile_c*4*(bias != NULL) + tile_c*4*2 (int8 per
 *           channel) + 2 * in_rows*w*tile_c*e + 2 * tile_oh*OW*tile_c*e
 *   pool:   2 * in_rows*w*tile_c*e + 2 * tile_oh*OW*tile_c*eo
 *
 * (npurt_*_csplit_l1_bytes(); each buffer rounded up to 4; args.l1_bytes
 * and args.l1 as for the unsliced kernel). */
typedef struct {
    npurt_dwconv2d_args dw;
    uint32_t tile_c; /* channels per slice, >= 1 */
} npurt_dwconv2d_csplit_args;

void npurt_dwconv2d_csplit(const npurt_dwconv2d_csplit_args *args);
uint32_t npurt_dwconv2d_csplit_l1_bytes(const npurt_dwconv2d_csplit_args *args);

typedef struct {
    npurt_pool2d_args pool;
    uint32_t tile_c; /* channels per slice, >= 1 */
} npurt_pool2d_csplit_args;

void npurt_pool2d_csplit(const npurt_pool2d_csplit_args *args);
uint32_t npurt_pool2d_csplit_l1_bytes(const npurt_pool2d_csplit_args *args);

/* The requantisation of the int8 epilogues (see above), for references. */
static inline int32_t npurt_rq(int32_t x, int32_t m, int32_t s) {
    return (int32_t)(((int64_t)x * m + ((INT64_C(1) << s) >> 1)) >> s);
}

#ifdef __cplusplus
}
#endif

#endif
