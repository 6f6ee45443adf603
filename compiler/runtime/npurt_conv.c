/* npurt_conv: convolution, depthwise convolution and pooling kernels of
 * libnpurt.a. The ABI, the L1 working sets and the arithmetic are in
 * npurt_conv.h; this file says why the schedule is what it is. */
#include "npurt_conv.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "npu.h"
/* The shared formulas round with align4 (below), as this file always did. */
#define NPU_CONV_ALIGN4(x) align4(x)
#include "npu_conv_l1_plan.h"
#include "npu_dma.h"
#include "npu_sa.h"
#include "npurt.h"
#include "npurt_internal.h"

/* --- errors, DMA, L1 ------------------------------------------------------------
 * npurt_die, dma_done, ceil_div, min_u32: npurt_internal.h (shared with
 * npurt.c). */

static inline uint32_t align4(uint32_t x) { return (x + 3u) & ~3u; }
static inline int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static inline int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

/* always_inline: the PUSH's PC, which a DMA error report names, stays in the
 * kernel function that moves the tile. A transfer id is -1 when nothing is
 * pending. A transfer of rows that are contiguous on both sides is one 1-D
 * copy (fewer, longer bursts). */
static inline __attribute__((always_inline)) int dma_rows(const char *kernel, const char *what, void *dst,
                                                          const void *src, uint32_t row_bytes, uint32_t rows,
                                                          uint32_t src_stride, uint32_t dst_stride) {
    int id;
    if (rows == 1 || (src_stride == row_bytes && dst_stride == row_bytes))
        id = npu_dma_copy_1d(dst, src, row_bytes * rows);
    else
        id = npu_dma_copy_2d(dst, src, row_bytes, rows, src_stride, dst_stride);
    if (id < 0)
        npurt_die(1, "%s: DMA refused the %s transfer 0x%08lx -> 0x%08lx (%lu rows of %lu B): error info 0x%lx", kernel,
                 what, (unsigned long)(uintptr_t)src, (unsigned long)(uintptr_t)dst, (unsigned long)rows,
                 (unsigned long)row_bytes, (unsigned long)npu_dma_error_info());
    return id;
}

/* The caller's L1 block, or one npu_l1_malloc'ed (*owned set). (npu_l1_malloc)
 * is the function, never the aborting macro of NPU_ALLOC_ABORT_ON_FAIL. */
static char *l1_acquire(const char *kernel, void *given, uint32_t bytes, uint32_t flags, int *owned) {
    *owned = 0;
    if (given) return given;
    char *p = (npu_l1_malloc)(bytes);
    if (!p && !(flags & NPURT_CONV_UNCHECKED_L1))
        npurt_die(NPU_ALLOC_FAILED_EXIT, "%s: npu_l1_malloc(%lu) failed for its tile buffers: largest free L1 block %lu bytes",
                 kernel, (unsigned long)bytes, (unsigned long)npu_l1_free_bytes());
    *owned = 1;
    return p;
}

/* Output size of one dimension; bad geometry stops the run. */
static uint32_t out_dim(const char *kernel, const char *dim, uint32_t in, uint32_t ks, uint32_t stride, uint32_t dil,
                        uint32_t pad_lo, uint32_t pad_hi) {
    if (in == 0 || ks == 0 || stride == 0 || dil == 0 || dil * (ks - 1u) + 1u > in + pad_lo + pad_hi)
        npurt_die(1, "%s: bad %s geometry: input %lu, kernel %lu, stride %lu, dilation %lu, padding %lu/%lu", kernel, dim,
                 (unsigned long)in, (unsigned long)ks, (unsigned long)stride, (unsigned long)dil, (unsigned long)pad_lo,
                 (unsigned long)pad_hi);
    return (in + pad_lo + pad_hi - dil * (ks - 1u) - 1u) / stride + 1u;
}

/* Input rows [lo, hi) that output rows [r0, r0 + rows) read (clipped to the tensor). */
static void input_rows(uint32_t r0, uint32_t rows, uint32_t stride, uint32_t pad, uint32_t ks, uint32_t dil,
                       uint32_t h, int32_t *lo, int32_t *hi) {
    *lo = max_i32(0, (int32_t)(r0 * stride) - (int32_t)pad);
    *hi = min_i32((int32_t)h, (int32_t)((r0 + rows - 1u) * stride + dil * (ks - 1u) + 1u) - (int32_t)pad);
    if (*hi < *lo) *hi = *lo;
}

/* Copies n bytes; words when both ends and n allow (im2col segments are
 * kw*cin or cin bytes: multiples of 4 in most layers). */
static inline void copy_bytes(char *dst, const char *src, uint32_t n) {
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 3u) == 0) {
        uint32_t *d = (uint32_t *)dst;
        const uint32_t *q = (const uint32_t *)src;
        for (uint32_t i = 0; i < n / 4u; ++i) d[i] = q[i];
        return;
    }
    for (uint32_t i = 0; i < n; ++i) dst[i] = src[i];
}

static inline void zero_bytes(char *dst, uint32_t n) {
    if ((((uintptr_t)dst | n) & 3u) == 0) {
        uint32_t *d = (uint32_t *)dst;
        for (uint32_t i = 0; i < n / 4u; ++i) d[i] = 0;
        return;
    }
    for (uint32_t i = 0; i < n; ++i) dst[i] = 0;
}

/* The per-channel parameters in L1: bias (int32 or f32 bits) and, per
 * channel, the multipliers and shifts. Loaded once per call. */
typedef struct {
    const int32_t *bias, *mult, *shift; /* bias NULL: none; mult/shift: [c] or [1] */
    int per_channel;
} channel_params;

static uint32_t params_bytes(uint32_t c, int has_bias, int f32, uint32_t flags) {
    return NPU_CONV_PARAMS_BYTES(c, has_bias, !f32 && (flags & NPURT_CONV_PER_CHANNEL));
}

static char *load_params(const char *kernel, char *l1, uint32_t c, const void *bias, const int32_t *mult,
                         const int32_t *shift, int f32, uint32_t flags, channel_params *p) {
    int ids[3] = {-1, -1, -1};
    p->per_channel = !f32 && (flags & NPURT_CONV_PER_CHANNEL);
    p->bias = NULL;
    p->mult = mult;
    p->shift = shift;
    if (bias) {
        ids[0] = dma_rows(kernel, "bias L2 -> L1", l1, bias, c * 4u, 1, 0, 0);
        p->bias = (const int32_t *)l1;
        l1 += c * 4u;
    }
    if (p->per_channel) {
        ids[1] = dma_rows(kernel, "multipliers L2 -> L1", l1, mult, c * 4u, 1, 0, 0);
        p->mult = (const int32_t *)l1;
        l1 += c * 4u;
        ids[2] = dma_rows(kernel, "shifts L2 -> L1", l1, shift, c * 4u, 1, 0, 0);
        p->shift = (const int32_t *)l1;
        l1 += c * 4u;
    }
    for (int k = 0; k < 3; ++k) dma_done(kernel, "parameters L2 -> L1", &ids[k]);
    if (!f32 && (!p->mult || !p->shift)) npurt_die(1, "%s: int8 needs rq_mult and rq_shift", kernel);
    for (uint32_t n = 0; !f32 && n < (p->per_channel ? c : 1u); ++n)
        if (p->shift[n] < 0 || p->shift[n] > 62)
            npurt_die(1, "%s: rq_shift[%lu] = %ld is outside 0..62", kernel, (unsigned long)n, (long)p->shift[n]);
    return l1;
}

/* The kernel taps [*k0, *k1) whose input coordinate base + k*dil lies in [0, size). */
static inline void tap_range(int32_t base, uint32_t ks, uint32_t dil, uint32_t size, uint32_t *k0, uint32_t *k1) {
    uint32_t a = 0, b = ks;
    while (a < b && base + (int32_t)(a * dil) < 0) ++a;
    while (b > a && base + (int32_t)((b - 1u) * dil) >= (int32_t)size) --b;
    *k0 = a;
    *k1 = b;
}

/* === npurt_conv2d ================================================================ */

/* Most output rows per tile whose im2col the DMA gathers (one transfer id
 * each); taller tiles are gathered by the workers alone. */
#define NPURT_CONV_IM2COL_DMAS 32

typedef struct {
    const npurt_conv2d_args *a;
    int f32, direct, has_res;
    uint32_t e, oh, ow, K, toh, tn, rt, nt, steps, in_rows;
    char *C[2], *O[2], *R[2], *B[2], *A[2], *IN[2];
    int32_t ih_lo[2]; /* first input row held by IN[t] */
    channel_params prm;
    int32_t act_min, act_max;
    /* the workers' current task: the epilogue of a step, the im2col of a row tile (-1: none) */
    int32_t epi_step, im2col_tile;
    /* DMA im2col: output columns [ow_lo, ow_hi) read whole kw*cin segments of
     * the input rows; their patches are gathered by the DMA (one 3-D
     * transfer per output row), the workers fill the rest (borders, padding) */
    int dma_im2col;
    uint32_t ow_lo, ow_hi;
    int im2col_id[2][NPURT_CONV_IM2COL_DMAS];
    uint32_t im2col_n[2]; /* transfers of im2col_id[t & 1] in flight */
} conv_ctx;

/* The npurt_parallel job reads its task from here (one conv at a time runs
 * on the cluster). */
static conv_ctx *conv_cur;
/* The state of the running convolution, in L1: in L2 every field access of
 * the controller and the workers would pay L2's latency (+8 % cycles). */
static conv_ctx conv_state NPU_L1_BSS;

static uint32_t conv_l1_need(const npurt_conv2d_args *a, uint32_t ow, uint32_t toh, uint32_t tn, uint32_t in_rows,
                             int direct) {
    const int f32 = (a->flags & NPURT_CONV_F32) != 0;
    const uint32_t e = f32 ? 4u : 1u, M = toh * ow, K = a->kh * a->kw * a->cin;
    uint32_t need;
    NPU_CONV2D_L1_BYTES(need, M, tn, K, e, in_rows * a->w * a->cin * e, tn < a->cout, direct, a->residual,
                        params_bytes(a->cout, a->bias != NULL, f32, a->flags));
    return need;
}

/* Geometry of the call: output size, tiles shrunk to the tensor. */
static void conv_geometry(const npurt_conv2d_args *a, conv_ctx *x) {
    const char *k = "npurt_conv2d";
    x->oh = out_dim(k, "H", a->h, a->kh, a->stride_h, a->dilation_h, a->pad_top, a->pad_bottom);
    x->ow = out_dim(k, "W", a->w, a->kw, a->stride_w, a->dilation_w, a->pad_left, a->pad_right);
    if (a->cin == 0 || a->cout == 0 || a->tile_oh == 0 || a->tile_cout == 0)
        npurt_die(1, "npurt_conv2d: bad arguments cin=%lu cout=%lu tiles %lu rows x %lu channels (all must be >= 1)",
                 (unsigned long)a->cin, (unsigned long)a->cout, (unsigned long)a->tile_oh, (unsigned long)a->tile_cout);
    x->toh = min_u32(a->tile_oh, x->oh);
    x->tn = min_u32(a->tile_cout, a->cout);
    x->K = a->kh * a->kw * a->cin;
    x->direct = a->kh == 1 && a->kw == 1 && a->stride_h == 1 && a->stride_w == 1 && a->pad_top == 0 &&
                a->pad_left == 0 && a->pad_bottom == 0 && a->pad_right == 0;
    x->in_rows = min_u32(a->h, (x->toh - 1u) * a->stride_h + (a->kh - 1u) * a->dilation_h + 1u);
}

uint32_t npurt_conv2d_l1_bytes(const npurt_conv2d_args *a) {
    conv_ctx x;
    conv_geometry(a, &x);
    return conv_l1_need(a, x.ow, x.toh, x.tn, x.in_rows, x.direct);
}

static inline void step_tile(const conv_ctx *x, uint32_t s, uint32_t *i, uint32_t *j, uint32_t *mr, uint32_t *j0,
                             uint32_t *nr) {
    *i = s / x->nt;
    *j = s % x->nt;
    *mr = min_u32(x->toh, x->oh - *i * x->toh) * x->ow;
    *j0 = *j * x->tn;
    *nr = min_u32(x->tn, x->a->cout - *j0);
}

/* Worker part of the epilogue: C tile (int32 / f32) -> output tile, rows
 * p = id, id + nw, ... */
static void conv_epilogue_rows(const conv_ctx *x, uint32_t s, uint32_t id, uint32_t nw) {
    uint32_t i, j, mr, j0, nr;
    step_tile(x, s, &i, &j, &mr, &j0, &nr);
    const npurt_conv2d_args *a = x->a;
    const channel_params *p = &x->prm;
    /* The tile's rows are split over the workers; a tile of fewer rows than
     * workers (a fully connected layer: one) splits its channels instead. */
    const int by_rows = mr >= nw;
    const uint32_t n0 = by_rows ? 0u : id, nstep = by_rows ? 1u : nw, r0 = by_rows ? id : 0u, rstep = by_rows ? nw : 1u;
    if (x->f32) {
        const float *C = (const float *)x->C[s & 1u], *R = (const float *)x->R[s & 1u];
        float *O = (float *)x->O[s & 1u];
        const float *bias = (const float *)p->bias;
        const int relu = (a->flags & NPURT_CONV_RELU) != 0;
        for (uint32_t r = r0; r < mr; r += rstep)
            for (uint32_t n = n0; n < nr; n += nstep) {
                float v = C[r * nr + n];
                if (bias) v = v + bias[j0 + n];
                if (x->has_res) v = v + R[r * nr + n];
                if (relu && !(v > 0.0f)) v = 0.0f;
                O[r * nr + n] = v;
            }
        return;
    }
    /* Channel outer, this worker's rows inner: the channel's parameters stay
     * in registers. Everything in locals: the int8 stores may alias any
     * field (char type). */
    const int32_t *C = (const int32_t *)x->C[s & 1u];
    const int8_t *R = (const int8_t *)x->R[s & 1u];
    int8_t *O = (int8_t *)x->O[s & 1u];
    const int32_t res_m = a->res_mult, res_s = a->res_shift, lo = x->act_min, hi = x->act_max;
    const int32_t step = (int32_t)(rstep * nr);
    /* The residual's rescale has s ~ 30 (a scale ratio near 1). For an int8
     * x, rq(x, m, s) == rq(x << k, m, s + k) exactly (numerator and
     * denominator times 2^k), and x << (33 - s) still fits int32 when
     * s >= 10: then the s >= 33 form applies to it too. */
    const int32_t res_k = res_s < 33 && res_s >= 10 ? 33 - res_s : 0, res_se = res_s + res_k, res_mul = 1 << res_k;
    for (uint32_t n = n0; n < nr; n += nstep) {
        const uint32_t ch = j0 + n, pc = p->per_channel ? ch : 0u;
        const int32_t b = p->bias ? p->bias[ch] : 0, m = p->mult[pc], sh = p->shift[pc];
        const int32_t *c = C + r0 * nr + n;
        int8_t *o = O + r0 * nr + n;
        if (sh >= 33 && (!x->has_res || res_se >= 33)) {
            /* rq_fast's s >= 33 form with the shift test and the indexing
             * hoisted out of the loop: the loop every real layer runs. Both
             * terms are below 2^30 in magnitude, so their sum fits int32. */
            const int32_t add = 1 << (sh - 33), rs = sh - 32;
            if (x->has_res) {
                const int8_t *q = R + r0 * nr + n;
                const int32_t radd = 1 << (res_se - 33), rrs = res_se - 32;
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step, q += step) {
                    int32_t v = ((int32_t)(((int64_t)(int32_t)((uint32_t)*c + (uint32_t)b) * m) >> 32) + add) >> rs;
                    v += ((int32_t)(((int64_t)(*q * res_mul) * res_m) >> 32) + radd) >> rrs;
                    v = v < lo ? lo : v;
                    *o = (int8_t)(v > hi ? hi : v);
                }
            } else {
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) {
                    int32_t v = ((int32_t)(((int64_t)(int32_t)((uint32_t)*c + (uint32_t)b) * m) >> 32) + add) >> rs;
                    v = v < lo ? lo : v;
                    *o = (int8_t)(v > hi ? hi : v);
                }
            }
        } else if (x->has_res) {
            const int8_t *q = R + r0 * nr + n;
            for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step, q += step) {
                const int32_t v = rq_fast((int32_t)((uint32_t)*c + (uint32_t)b), m, sh);
                *o = clamp_i8((int64_t)v + rq_fast(*q, res_m, res_s), lo, hi);
            }
        } else {
            for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) *o = epilogue_i8(*c, b, m, sh, lo, hi);
        }
    }
}

/* Worker part of the im2col of row tile t: A[p][(r*kw + c)*cin + ci] from the
 * input rows in IN[t & 1], zero where the patch lies in the padding. */
static void conv_im2col_rows(const conv_ctx *x, uint32_t t, uint32_t id, uint32_t nw) {
    const npurt_conv2d_args *a = x->a;
    const uint32_t e = x->e, cb = a->cin * e, seg = a->kw * cb, row_bytes = a->w * cb;
    const uint32_t r0 = t * x->toh, mr = min_u32(x->toh, x->oh - r0) * x->ow;
    const char *in = x->IN[t & 1u];
    const int32_t lo = x->ih_lo[t & 1u];
    char *A = x->A[t & 1u];
    for (uint32_t p = id; p < mr; p += nw) {
        const uint32_t oh = r0 + p / x->ow, ow = p % x->ow;
        char *dst = A + p * x->K * e;
        const int32_t iw0 = (int32_t)(ow * a->stride_w) - (int32_t)a->pad_left;
        const int w_inside = a->dilation_w == 1 && iw0 >= 0 && iw0 + (int32_t)a->kw <= (int32_t)a->w;
        const int by_dma = x->dma_im2col && ow >= x->ow_lo && ow < x->ow_hi;
        for (uint32_t r = 0; r < a->kh; ++r, dst += seg) {
            const int32_t ih = (int32_t)(oh * a->stride_h + r * a->dilation_h) - (int32_t)a->pad_top;
            if (ih < 0 || ih >= (int32_t)a->h) {
                zero_bytes(dst, seg);
                continue;
            }
            if (by_dma) continue;
            const char *row = in + (uint32_t)(ih - lo) * row_bytes;
            if (w_inside) {
                copy_bytes(dst, row + (uint32_t)iw0 * cb, seg);
                continue;
            }
            for (uint32_t c = 0; c < a->kw; ++c) {
                const int32_t iw = iw0 + (int32_t)(c * a->dilation_w);
                if (iw < 0 || iw >= (int32_t)a->w)
                    zero_bytes(dst + c * cb, cb);
                else
                    copy_bytes(dst + c * cb, row + (uint32_t)iw * cb, cb);
            }
        }
    }
}

/* The DMA part of row tile t's im2col: per output row, the interior columns'
 * patches rows of kw*cin*e bytes, one per valid kernel row (planes), from
 * IN[t & 1] to A[t & 1]. Issued by the cluster controller. */
static __attribute__((noinline)) void conv_im2col_dma(conv_ctx *x, uint32_t t) {
    const npurt_conv2d_args *a = x->a;
    const uint32_t e = x->e, cb = a->cin * e, row_bytes = a->w * cb;
    const uint32_t r0 = t * x->toh, rows = min_u32(x->toh, x->oh - r0);
    const int32_t lo = x->ih_lo[t & 1u];
    for (uint32_t k = 0; k < rows; ++k) {
        const int32_t ih0 = (int32_t)((r0 + k) * a->stride_h) - (int32_t)a->pad_top;
        uint32_t k0, k1;
        tap_range(ih0, a->kh, a->dilation_h, a->h, &k0, &k1);
        if (k1 <= k0) continue;
        const char *src = x->IN[t & 1u] + (uint32_t)(ih0 + (int32_t)(k0 * a->dilation_h) - lo) * row_bytes +
                          (uint32_t)((int32_t)(x->ow_lo * a->stride_w) - (int32_t)a->pad_left) * cb;
        char *dst = x->A[t & 1u] + ((k * x->ow + x->ow_lo) * x->K + k0 * a->kw * a->cin) * e;
        const int id = npu_dma_copy_3d(dst, src, a->kw * cb, x->ow_hi - x->ow_lo, k1 - k0, a->stride_w * cb,
                                       x->K * e, a->dilation_h * row_bytes, a->kw * cb);
        if (id < 0)
            npurt_die(1, "npurt_conv2d: DMA refused the im2col transfer 0x%08lx -> 0x%08lx: error info 0x%lx",
                     (unsigned long)(uintptr_t)src, (unsigned long)(uintptr_t)dst, (unsigned long)npu_dma_error_info());
        x->im2col_id[t & 1u][x->im2col_n[t & 1u]++] = id;
    }
}

static void conv_im2col_wait(conv_ctx *x, uint32_t t) {
    for (uint32_t k = 0; k < x->im2col_n[t & 1u]; ++k)
        dma_done("npurt_conv2d", "im2col L1 -> L1", &x->im2col_id[t & 1u][k]);
    x->im2col_n[t & 1u] = 0;
}

static void conv_worker(void) {
    const conv_ctx *x = conv_cur;
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    if (x->epi_step >= 0) conv_epilogue_rows(x, (uint32_t)x->epi_step, id, nw);
    if (x->im2col_tile >= 0) conv_im2col_rows(x, (uint32_t)x->im2col_tile, id, nw);
}

/* Row tile t's input rows (with their halo) -> IN[t & 1]: whole NHWC rows are
 * contiguous, so one 1-D transfer. */
static __attribute__((noinline)) void conv_load_input(conv_ctx *x, uint32_t t, int *id) {
    const npurt_conv2d_args *a = x->a;
    const uint32_t r0 = t * x->toh, rows = min_u32(x->toh, x->oh - r0);
    int32_t lo, hi;
    input_rows(r0, rows, a->stride_h, a->pad_top, a->kh, a->dilation_h, a->h, &lo, &hi);
    x->ih_lo[t & 1u] = lo;
    const uint32_t row_bytes = a->w * a->cin * x->e;
    if (hi > lo)
        *id = dma_rows("npurt_conv2d", "input rows L2 -> L1", x->IN[t & 1u],
                       (const char *)a->input + (uint32_t)lo * row_bytes, row_bytes * (uint32_t)(hi - lo), 1, 0, 0);
}

/* Step s's K x nr weight panel -> buf (2-D: rows of nr*e bytes, cout*e apart). */
static __attribute__((noinline)) int conv_load_weights(conv_ctx *x, uint32_t s, char *buf) {
    uint32_t i, j, mr, j0, nr;
    step_tile(x, s, &i, &j, &mr, &j0, &nr);
    const uint32_t e = x->e;
    return dma_rows("npurt_conv2d", "weights L2 -> L1", buf, (const char *)x->a->weights + j0 * e, nr * e, x->K,
                    x->a->cout * e, nr * e);
}

/* Step s's residual tile -> R[s & 1] (mr output pixels x nr channels). */
static __attribute__((noinline)) int conv_load_residual(conv_ctx *x, uint32_t s) {
    uint32_t i, j, mr, j0, nr;
    step_tile(x, s, &i, &j, &mr, &j0, &nr);
    const uint32_t e = x->e, cout = x->a->cout;
    return dma_rows("npurt_conv2d", "residual L2 -> L1", x->R[s & 1u],
                    (const char *)x->a->residual + ((i * x->toh * x->ow) * cout + j0) * e, nr * e, mr, cout * e,
                    nr * e);
}

static __attribute__((noinline)) int conv_write_back(conv_ctx *x, uint32_t s) {
    uint32_t i, j, mr, j0, nr;
    step_tile(x, s, &i, &j, &mr, &j0, &nr);
    const uint32_t e = x->e, cout = x->a->cout;
    return dma_rows("npurt_conv2d", "output L1 -> L2", (char *)x->a->output + ((i * x->toh * x->ow) * cout + j0) * e,
                    x->O[s & 1u], nr * e, mr, nr * e, cout * e);
}

void npurt_conv2d(const npurt_conv2d_args *a) {
    /* The state lives in L1 (the workers read it too), not on the cluster
     * controller's 2 KiB stack; one convolution runs at a time. Every field
     * is set before it is read (no memset: picolibc's costs thousands of
     * cycles for this struct). */
    conv_ctx *const x = &conv_state;
    x->a = a;
    x->f32 = (a->flags & NPURT_CONV_F32) != 0;
    x->e = x->f32 ? 4u : 1u;
    x->has_res = a->residual != NULL;
    conv_geometry(a, x);
    const uint32_t e = x->e, ow = x->ow, toh = x->toh, tn = x->tn, K = x->K, M = toh * ow;
    x->rt = ceil_div(x->oh, toh);
    x->nt = ceil_div(a->cout, tn);
    x->steps = x->rt * x->nt;
    if (M > 65535u || K > 65535u)
        npurt_die(1, "npurt_conv2d: a tile of %lu output pixels (tile_oh %lu, width %lu) x K = %lu exceeds the SA's 65535",
                 (unsigned long)M, (unsigned long)toh, (unsigned long)ow, (unsigned long)K);
    const uint32_t need = conv_l1_need(a, ow, toh, tn, x->in_rows, x->direct);
    if (a->l1_bytes < need)
        npurt_die(1,
                 "npurt_conv2d: l1_bytes %lu is less than the %lu bytes of tiles %lu rows x %lu channels "
                 "(%lux%lux%lu -> %lux%lux%lu, kernel %lux%lu)",
                 (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)toh, (unsigned long)tn,
                 (unsigned long)a->h, (unsigned long)a->w, (unsigned long)a->cin, (unsigned long)x->oh,
                 (unsigned long)ow, (unsigned long)a->cout, (unsigned long)a->kh, (unsigned long)a->kw);
    x->act_min = a->act_min;
    x->act_max = a->act_max;
    if (a->flags & NPURT_CONV_RELU) x->act_min = max_i32(x->act_min, 0);
    x->im2col_n[0] = x->im2col_n[1] = 0;
    /* Interior columns: ow*sw - pl >= 0 and ow*sw - pl + kw <= w. */
    x->ow_lo = ceil_div(a->pad_left, a->stride_w);
    x->ow_hi = a->w + a->pad_left >= a->kw ? min_u32(ow, (a->w + a->pad_left - a->kw) / a->stride_w + 1u) : 0u;
    x->dma_im2col = !x->direct && a->dilation_w == 1 && toh <= NPURT_CONV_IM2COL_DMAS && x->ow_hi > x->ow_lo;

    int owned;
    char *l1 = l1_acquire("npurt_conv2d", a->l1, a->l1_bytes, a->flags, &owned);
    /* The 4-byte-element buffers first; every size is rounded up to 4. */
    char *q = l1;
    x->R[0] = x->R[1] = x->A[0] = x->A[1] = x->B[1] = NULL;
    for (int b = 0; b < 2; ++b, q += align4(M * tn * 4u)) x->C[b] = q;
    for (int b = 0; b < 2; ++b, q += align4(M * tn * e)) x->O[b] = q;
    for (int b = 0; b < 2 && x->has_res; ++b, q += align4(M * tn * e)) x->R[b] = q;
    for (int b = 0; b < (x->nt > 1 ? 2 : 1); ++b, q += align4(K * tn * e)) x->B[b] = q;
    for (int b = 0; b < 2 && !x->direct; ++b, q += align4(M * K * e)) x->A[b] = q;
    for (int b = 0; b < 2; ++b, q += align4(x->in_rows * a->w * a->cin * e)) x->IN[b] = q;
    load_params("npurt_conv2d", q, a->cout, a->bias, a->rq_mult, a->rq_shift, x->f32, a->flags, &x->prm);

    int in_id[2] = {-1, -1}, b_id = -1, res_id[2] = {-1, -1}, wb_id[2] = {-1, -1};
    conv_cur = x;
    x->epi_step = x->im2col_tile = -1;

    /* Prologue: input rows of tiles 0 and 1, the first weight panel, the
     * first residual tile, and (im2col) tile 0's A. */
    conv_load_input(x, 0, &in_id[0]);
    if (x->rt > 1) conv_load_input(x, 1, &in_id[1]);
    b_id = conv_load_weights(x, 0, x->B[0]);
    if (x->has_res) res_id[0] = conv_load_residual(x, 0);
    if (!x->direct) {
        dma_done("npurt_conv2d", "input rows L2 -> L1", &in_id[0]);
        x->im2col_tile = 0;
        if (x->dma_im2col) conv_im2col_dma(x, 0);
        npurt_parallel(conv_worker);
        x->im2col_tile = -1;
    }

    for (uint32_t s = 0; s < x->steps; ++s) {
        uint32_t i, j, mr, j0, nr;
        step_tile(x, s, &i, &j, &mr, &j0, &nr);
        (void)j0;
        if (x->direct && j == 0) dma_done("npurt_conv2d", "input rows L2 -> L1", &in_id[i & 1u]);
        /* Row tile i's A is complete: IN[i & 1] may take tile i+2's rows. */
        if (!x->direct && j == 0) {
            conv_im2col_wait(x, i);
            if (i + 2 < x->rt) conv_load_input(x, i + 2, &in_id[i & 1u]);
        }
        dma_done("npurt_conv2d", "weights L2 -> L1", &b_id);

        const npu_sa_job_t job = {x->direct ? x->IN[i & 1u] : x->A[i & 1u],
                                  x->B[x->nt > 1 ? (s & 1u) : 0u],
                                  x->C[s & 1u],
                                  mr,
                                  nr,
                                  K,
                                  K * e,
                                  nr * e,
                                  nr * 4u,
                                  x->f32 ? NPU_SA_CTRL_DTYPE_FP32 : 0u};
        npu_sa_start(&job);

        /* While the SA works: the next step's weight panel (its buffer's last
         * reader was step s-1). */
        if (x->nt > 1 && s + 1 < x->steps) b_id = conv_load_weights(x, s + 1, x->B[(s + 1) & 1u]);

        /* The workers: the epilogue of step s-1 and, at a row tile's last step,
         * the im2col of the next row tile. */
        x->epi_step = s > 0 ? (int32_t)s - 1 : -1;
        x->im2col_tile = (!x->direct && j + 1 == x->nt && i + 1 < x->rt) ? (int32_t)i + 1 : -1;
        if (x->epi_step >= 0) {
            dma_done("npurt_conv2d", "output L1 -> L2", &wb_id[(s - 1) & 1u]);
            dma_done("npurt_conv2d", "residual L2 -> L1", &res_id[(s - 1) & 1u]);
        }
        if (x->im2col_tile >= 0) {
            dma_done("npurt_conv2d", "input rows L2 -> L1", &in_id[(i + 1) & 1u]);
            if (x->dma_im2col) conv_im2col_dma(x, i + 1);
        }
        if (x->epi_step >= 0 || x->im2col_tile >= 0) npurt_parallel(conv_worker);
        if (x->epi_step >= 0) wb_id[(s - 1) & 1u] = conv_write_back(x, s - 1);
        /* R[(s+1) & 1]'s last reader was step s-1's epilogue, just done. */
        if (x->has_res && s + 1 < x->steps) res_id[(s + 1) & 1u] = conv_load_residual(x, s + 1);

        if (npu_sa_wait())
            npurt_die(1, "npurt_conv2d: SA job of step %lu (row tile %lu, channel tile %lu) aborted at 0x%08lx (error info 0x%lx)",
                     (unsigned long)s, (unsigned long)i, (unsigned long)j, (unsigned long)npu_sa_error_address(),
                     (unsigned long)npu_sa_error_info());
        /* Direct: row tile i's last job has read IN[i & 1]; tile i+2 may come in. */
        if (x->direct && j + 1 == x->nt && i + 2 < x->rt) conv_load_input(x, i + 2, &in_id[i & 1u]);
    }

    /* The last step's epilogue. */
    const uint32_t last = x->steps - 1u;
    x->epi_step = (int32_t)last;
    x->im2col_tile = -1;
    dma_done("npurt_conv2d", "output L1 -> L2", &wb_id[last & 1u]);
    dma_done("npurt_conv2d", "residual L2 -> L1", &res_id[last & 1u]);
    npurt_parallel(conv_worker);
    wb_id[last & 1u] = conv_write_back(x, last);
    dma_done("npurt_conv2d", "output L1 -> L2", &wb_id[0]);
    dma_done("npurt_conv2d", "output L1 -> L2", &wb_id[1]);
    conv_cur = NULL;
    if (owned) npu_l1_free(l1);
}

/* === row-tiled worker kernels: npurt_dwconv2d, npurt_pool2d ======================
 * Both walk tiles of output rows: the input rows a tile reads (halo included)
 * come to L1 in one DMA, double-buffered; the workers compute the tile's
 * pixels (pixel p = id, id + nw, ...) into an L1 output tile, which goes back
 * while the next tile computes. */

typedef struct rowtile rowtile;
struct rowtile {
    const char *kernel;
    const char *in;
    char *out;
    uint32_t h, w, c, e, eo, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl;
    uint32_t toh, rt, in_rows;
    char *IN[2], *O[2];
    int32_t ih_lo[2];
    int32_t tile; /* the workers' tile */
    /* one output pixel's channels [c0, c1): out_px[c] from the input rows at `rows` (first row ih_lo) */
    void (*pixel)(const rowtile *t, uint32_t oh, uint32_t ow, const char *rows, int32_t ih_lo, char *out_px,
                  uint32_t c0, uint32_t c1);
    /* kernel data */
    const char *wts; /* dwconv: HWC weights in L1 */
    channel_params prm;
    int32_t act_min, act_max;
    const void *args;
};

static rowtile *rowtile_cur;

static void rowtile_worker(void) {
    const rowtile *t = rowtile_cur;
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    const uint32_t i = (uint32_t)t->tile, r0 = i * t->toh, n = min_u32(t->toh, t->oh - r0) * t->ow;
    const char *rows = t->IN[i & 1u];
    char *out = t->O[i & 1u];
    /* Work items: pixels x channel groups. A tile of few pixels (a global
     * pooling: one; DS-CNN's 5-row tiles: 25) is split over its channels
     * too, into at least ~4 items per worker so that the last round of
     * items is not a whole pixel for one worker while the others wait. */
    const uint32_t g = n >= 4u * nw ? 1u : min_u32(t->c, ceil_div(4u * nw, n));
    if (id >= n * g) return;
    /* Item `item` = pixel p (row oh, column ow of the tile), channel group
     * grp, stepped by nw without a division per item (divu: ~35 cycles,
     * four of them cost as much as a pixel's eight channels). */
    const uint32_t ow_n = t->ow, c = t->c, px_bytes = c * t->eo, dp = nw / g, dg = nw % g;
    uint32_t p = id / g, grp = id % g, oh = r0 + p / ow_n, ow = p % ow_n;
    for (uint32_t item = id; item < n * g; item += nw) {
        const uint32_t ca = g == 1u ? 0u : grp * c / g, cb = g == 1u ? c : (grp + 1u) * c / g;
        t->pixel(t, oh, ow, rows, t->ih_lo[i & 1u], out + p * px_bytes, ca, cb);
        uint32_t step = dp;
        grp += dg;
        if (grp >= g) grp -= g, ++step;
        p += step;
        for (ow += step; ow >= ow_n; ow -= ow_n) ++oh;
    }
}

static void rowtile_geometry(rowtile *t, uint32_t tile_oh, uint32_t pad_bottom, uint32_t pad_right) {
    t->oh = out_dim(t->kernel, "H", t->h, t->kh, t->sh, t->dh, t->pt, pad_bottom);
    t->ow = out_dim(t->kernel, "W", t->w, t->kw, t->sw, t->dw, t->pl, pad_right);
    if (t->c == 0 || tile_oh == 0)
        npurt_die(1, "%s: bad arguments c=%lu tile_oh=%lu (both must be >= 1)", t->kernel, (unsigned long)t->c,
                 (unsigned long)tile_oh);
    t->toh = min_u32(tile_oh, t->oh);
    t->rt = ceil_div(t->oh, t->toh);
    t->in_rows = min_u32(t->h, (t->toh - 1u) * t->sh + (t->kh - 1u) * t->dh + 1u);
}

static uint32_t rowtile_buffers_bytes(const rowtile *t) {
    return NPU_POOL2D_L1_BYTES(t->in_rows * t->w * t->c * t->e, t->toh * t->ow * t->c * t->eo);
}

static __attribute__((noinline)) void rowtile_load(rowtile *t, uint32_t i, int *id) {
    const uint32_t r0 = i * t->toh, rows = min_u32(t->toh, t->oh - r0), row_bytes = t->w * t->c * t->e;
    int32_t lo, hi;
    input_rows(r0, rows, t->sh, t->pt, t->kh, t->dh, t->h, &lo, &hi);
    t->ih_lo[i & 1u] = lo;
    if (hi > lo)
        *id = dma_rows(t->kernel, "input rows L2 -> L1", t->IN[i & 1u], t->in + (uint32_t)lo * row_bytes,
                       row_bytes * (uint32_t)(hi - lo), 1, 0, 0);
}

static __attribute__((noinline)) int rowtile_write_back(rowtile *t, uint32_t i) {
    const uint32_t r0 = i * t->toh, rows = min_u32(t->toh, t->oh - r0), row_bytes = t->ow * t->c * t->eo;
    return dma_rows(t->kernel, "output L1 -> L2", t->out + r0 * row_bytes, t->O[i & 1u], row_bytes * rows, 1, 0, 0);
}

/* The pipeline; q: where the tile buffers start in L1. */
static void rowtile_run(rowtile *t, char *q) {
    for (int b = 0; b < 2; ++b, q += align4(t->in_rows * t->w * t->c * t->e)) t->IN[b] = q;
    for (int b = 0; b < 2; ++b, q += align4(t->toh * t->ow * t->c * t->eo)) t->O[b] = q;
    int in_id[2] = {-1, -1}, wb_id[2] = {-1, -1};
    rowtile_load(t, 0, &in_id[0]);
    if (t->rt > 1) rowtile_load(t, 1, &in_id[1]);
    rowtile_cur = t;
    for (uint32_t i = 0; i < t->rt; ++i) {
        dma_done(t->kernel, "input rows L2 -> L1", &in_id[i & 1u]);
        dma_done(t->kernel, "output L1 -> L2", &wb_id[i & 1u]);
        t->tile = (int32_t)i;
        npurt_parallel(rowtile_worker);
        wb_id[i & 1u] = rowtile_write_back(t, i);
        if (i + 2 < t->rt) rowtile_load(t, i + 2, &in_id[i & 1u]);
    }
    dma_done(t->kernel, "output L1 -> L2", &wb_id[0]);
    dma_done(t->kernel, "output L1 -> L2", &wb_id[1]);
    rowtile_cur = NULL;
}

/* --- depthwise ------------------------------------------------------------------ */

/* With CORE-V's post-increment loads and cv.mac (the default march), one
 * row of a 3-wide depthwise window is a chain of byte loads that step by
 * the tap strides and multiply-accumulates: clang-19 keeps the nine taps'
 * offsets of the C form in registers and spills them (~100 cycles per
 * channel of a 3x3 window against ~50). */
#if defined(__riscv_xcvmem) && defined(__riscv_xcvmac)
#define DW_TAPS_ASM 1
/* acc + x[0]*w[0] + x[S]*w[C] + x[2S]*w[2C] (int8 products). */
static inline __attribute__((always_inline)) int32_t dw_row3_i8(int32_t acc, const int8_t *x, const int8_t *w,
                                                                int32_t S, int32_t C) {
    int32_t a0, b0, a1, b1;
    __asm__("cv.lb %[a0], (%[x]), %[S]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "cv.lb %[a1], (%[x]), %[S]\n\t"
            "cv.lb %[b1], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "lb %[a0], 0(%[x])\n\t"
            "lb %[b0], 0(%[w])\n\t"
            "cv.mac %[acc], %[a1], %[b1]\n\t"
            "cv.mac %[acc], %[a0], %[b0]"
            : [acc] "+r"(acc), [x] "+r"(x), [w] "+r"(w), [a0] "=&r"(a0), [b0] "=&r"(b0), [a1] "=&r"(a1),
              [b1] "=&r"(b1)
            : [S] "r"(S), [C] "r"(C)
            : "memory");
    return acc;
}
/* acc + x[0]*w[0] + x[S]*w[C] (int8 products). */
static inline __attribute__((always_inline)) int32_t dw_row2_i8(int32_t acc, const int8_t *x, const int8_t *w,
                                                                int32_t S, int32_t C) {
    int32_t a0, b0, a1, b1;
    __asm__("cv.lb %[a0], (%[x]), %[S]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "lb %[a1], 0(%[x])\n\t"
            "lb %[b1], 0(%[w])\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "cv.mac %[acc], %[a1], %[b1]"
            : [acc] "+r"(acc), [x] "+r"(x), [w] "+r"(w), [a0] "=&r"(a0), [b0] "=&r"(b0), [a1] "=&r"(a1),
              [b1] "=&r"(b1)
            : [S] "r"(S), [C] "r"(C)
            : "memory");
    return acc;
}
/* acc + the nine int8 products of a 3x3 window: rows x, x + R, x + 2R of
 * taps x, x + S, x + 2S (D = R - 2S); weights w, w + C, ..., w + 8C. The
 * loads run one tap ahead of the multiply-accumulates (no load-use stall). */
static inline __attribute__((always_inline)) int32_t dw_win3x3_i8(int32_t acc, const int8_t *x, const int8_t *w,
                                                                  int32_t S, int32_t D, int32_t C) {
    int32_t a0, b0, a1, b1;
    __asm__("cv.lb %[a0], (%[x]), %[S]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "cv.lb %[a1], (%[x]), %[S]\n\t"
            "cv.lb %[b1], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "cv.lb %[a0], (%[x]), %[D]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a1], %[b1]\n\t"
            "cv.lb %[a1], (%[x]), %[S]\n\t"
            "cv.lb %[b1], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "cv.lb %[a0], (%[x]), %[S]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a1], %[b1]\n\t"
            "cv.lb %[a1], (%[x]), %[D]\n\t"
            "cv.lb %[b1], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "cv.lb %[a0], (%[x]), %[S]\n\t"
            "cv.lb %[b0], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a1], %[b1]\n\t"
            "cv.lb %[a1], (%[x]), %[S]\n\t"
            "cv.lb %[b1], (%[w]), %[C]\n\t"
            "cv.mac %[acc], %[a0], %[b0]\n\t"
            "lb %[a0], 0(%[x])\n\t"
            "lb %[b0], 0(%[w])\n\t"
            "cv.mac %[acc], %[a1], %[b1]\n\t"
            "cv.mac %[acc], %[a0], %[b0]"
            : [acc] "+r"(acc), [x] "+r"(x), [w] "+r"(w), [a0] "=&r"(a0), [b0] "=&r"(b0), [a1] "=&r"(a1),
              [b1] "=&r"(b1)
            : [S] "r"(S), [D] "r"(D), [C] "r"(C)
            : "memory");
    return acc;
}

/* Channels [c0, c1) of one output pixel of a 3-wide int8 kernel: xp / wp
 * point at the window's first tap in the image (channel 0). shape: 9 = a
 * whole 3x3 window, 3 / 2 = `rows` rows of 3 / 2 taps; a constant at each
 * call, so each loop is its own code. */
static inline __attribute__((always_inline)) void dw_span_i8(const int8_t *xp, const int8_t *wp, int8_t *o,
                                                             uint32_t c0, uint32_t c1, uint32_t rows, int32_t R,
                                                             int32_t S, int32_t C, const channel_params *p,
                                                             int32_t lo8, int32_t hi8, const int shape) {
    /* Every operand walked by pointer: the loop keeps no index math live
     * (clang spills it to the stack otherwise). A missing bias reads a
     * zero that does not advance; so do per-tensor multiplier and shift. */
    static const int32_t zero = 0;
    const int32_t *bias = p->bias ? p->bias + c0 : &zero, *mult = p->mult, *shift = p->shift;
    const uint32_t bstep = p->bias ? 1u : 0u, pstep = p->per_channel ? 1u : 0u;
    if (pstep) mult += c0, shift += c0;
    const int8_t *xr = xp + c0, *wr = wp + c0;
    for (int8_t *out = o + c0, *end = o + c1; out != end; ++xr, ++wr, bias += bstep, mult += pstep, shift += pstep) {
        int32_t acc = *bias;
        if (shape == 9) {
            acc = dw_win3x3_i8(acc, xr, wr, S, R - 2 * S, C);
        } else {
            const int8_t *x = xr, *w = wr;
            for (uint32_t r = 0; r < rows; ++r, x += R, w += 3 * C)
                acc = shape == 3 ? dw_row3_i8(acc, x, w, S, C) : dw_row2_i8(acc, x, w, S, C);
        }
        *out++ = (int8_t)min_i32(max_i32(rq_fast(acc, *mult, *shift), lo8), hi8);
    }
}
#else
#define DW_TAPS_ASM 0
#endif


static void dw_pixel(const rowtile *t, uint32_t oh, uint32_t ow, const char *rows, int32_t lo, char *out_px,
                     uint32_t c0, uint32_t c1) {
    const uint32_t c = t->c, row_elems = t->w * c, kw = t->kw, dh = t->dh, dwc = t->dw * c;
    const int32_t ih0 = (int32_t)(oh * t->sh) - (int32_t)t->pt, iw0 = (int32_t)(ow * t->sw) - (int32_t)t->pl;
    uint32_t r0, r1, s0, s1;
    tap_range(ih0, t->kh, dh, t->h, &r0, &r1);
    tap_range(iw0, kw, t->dw, t->w, &s0, &s1);
    /* x + xoff(r) + s*dwc + ch: input of tap (r, s), channel ch; w + (r*kw + s)*c + ch: its weight */
    const int32_t xbase = ((ih0 - lo) * (int32_t)t->w + iw0) * (int32_t)c;
    const channel_params *p = &t->prm;
    if (t->e == 4u) {
        const float *x = (const float *)rows, *wt = (const float *)t->wts, *bias = (const float *)p->bias;
        const int relu = (((const npurt_dwconv2d_args *)t->args)->flags & NPURT_CONV_RELU) != 0;
        float *o = (float *)out_px;
        for (uint32_t ch = c0; ch < c1; ++ch) {
            float acc = 0.0f;
            for (uint32_t r = r0; r < r1; ++r) {
                const float *xr = x + xbase + (int32_t)(r * dh * row_elems) + ch;
                const float *wr = wt + r * kw * c + ch;
                for (uint32_t s = s0; s < s1; ++s) acc = __builtin_fmaf(xr[s * dwc], wr[s * c], acc);
            }
            if (bias) acc = acc + bias[ch];
            if (relu && !(acc > 0.0f)) acc = 0.0f;
            o[ch] = acc;
        }
        return;
    }
    const int8_t *x = (const int8_t *)rows, *wt = (const int8_t *)t->wts;
    const int32_t lo8 = t->act_min, hi8 = t->act_max;
    int8_t *o = (int8_t *)out_px;
#if DW_TAPS_ASM
    if (kw == 3u && s1 - s0 >= 2u) {
        /* A 3-wide kernel whose window has 2 or 3 columns in the image (all
         * of DS-CNN's and MobileNet's depthwise pixels): post-increment
         * load / cv.mac chains (dw_span_i8). */
        const int8_t *xp = x + xbase + (int32_t)(r0 * dh * row_elems) + (int32_t)(s0 * dwc);
        const int8_t *wp = wt + (r0 * kw + s0) * c;
        const int32_t R = (int32_t)(dh * row_elems), S = (int32_t)dwc, C = (int32_t)c;
        const uint32_t rows = r1 - r0;
        if (s1 - s0 == 3u && rows == 3u)
            dw_span_i8(xp, wp, o, c0, c1, rows, R, S, C, p, lo8, hi8, 9);
        else if (s1 - s0 == 3u)
            dw_span_i8(xp, wp, o, c0, c1, rows, R, S, C, p, lo8, hi8, 3);
        else
            dw_span_i8(xp, wp, o, c0, c1, rows, R, S, C, p, lo8, hi8, 2);
        return;
    }
#else
    if (r1 - r0 == 3u && s1 - s0 == 3u && kw == 3u) {
        /* A whole 3x3 window (most pixels of DS-CNN's and MobileNet's
         * layers): the nine taps unrolled, no loop overhead per MAC. */
        const int8_t *xp = x + xbase + (int32_t)(r0 * dh * row_elems);
        const uint32_t R = dh * row_elems, S = dwc, c2 = 2u * c, c3 = 3u * c;
        for (uint32_t ch = c0; ch < c1; ++ch) {
            const int8_t *a0 = xp + ch, *a1 = a0 + R, *a2 = a1 + R, *w = wt + ch;
            int32_t acc = a0[0] * w[0] + a0[S] * w[c] + a0[2u * S] * w[c2];
            acc += a1[0] * w[c3] + a1[S] * w[c3 + c] + a1[2u * S] * w[c3 + c2];
            acc += a2[0] * w[2u * c3] + a2[S] * w[2u * c3 + c] + a2[2u * S] * w[2u * c3 + c2];
            const uint32_t pc = p->per_channel ? ch : 0u;
            o[ch] = epilogue_i8(acc, p->bias ? p->bias[ch] : 0, p->mult[pc], p->shift[pc], lo8, hi8);
        }
        return;
    }
#endif
    for (uint32_t ch = c0; ch < c1; ++ch) {
        int32_t acc = 0;
        for (uint32_t r = r0; r < r1; ++r) {
            const int8_t *xr = x + xbase + (int32_t)(r * dh * row_elems) + ch;
            const int8_t *wr = wt + r * kw * c + ch;
            for (uint32_t s = s0; s < s1; ++s) acc += (int32_t)xr[s * dwc] * wr[s * c];
        }
        const uint32_t pc = p->per_channel ? ch : 0u;
        o[ch] = epilogue_i8(acc, p->bias ? p->bias[ch] : 0, p->mult[pc], p->shift[pc], lo8, hi8);
    }
}

static void dw_setup(const npurt_dwconv2d_args *a, rowtile *t) {
    t->kernel = "npurt_dwconv2d";
    t->args = a;
    t->in = a->input;
    t->out = a->output;
    t->h = a->h, t->w = a->w, t->c = a->c;
    t->kh = a->kh, t->kw = a->kw, t->sh = a->stride_h, t->sw = a->stride_w, t->dh = a->dilation_h,
    t->dw = a->dilation_w, t->pt = a->pad_top, t->pl = a->pad_left;
    t->e = t->eo = (a->flags & NPURT_CONV_F32) ? 4u : 1u;
    rowtile_geometry(t, a->tile_oh, a->pad_bottom, a->pad_right);
}

uint32_t npurt_dwconv2d_l1_bytes(const npurt_dwconv2d_args *a) {
    rowtile t;
    dw_setup(a, &t);
    return NPU_DWCONV2D_L1_BYTES(a->kh * a->kw * a->c * t.e, params_bytes(a->c, a->bias != NULL, t.e == 4u, a->flags),
                                 rowtile_buffers_bytes(&t));
}

void npurt_dwconv2d(const npurt_dwconv2d_args *a) {
    rowtile t;
    dw_setup(a, &t);
    const uint32_t need = npurt_dwconv2d_l1_bytes(a);
    if (a->l1_bytes < need)
        npurt_die(1, "npurt_dwconv2d: l1_bytes %lu is less than the %lu bytes of tiles of %lu rows (%lux%lux%lu, kernel %lux%lu)",
                 (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)t.toh, (unsigned long)a->h,
                 (unsigned long)a->w, (unsigned long)a->c, (unsigned long)a->kh, (unsigned long)a->kw);
    t.act_min = (a->flags & NPURT_CONV_RELU) ? max_i32(a->act_min, 0) : a->act_min;
    t.act_max = a->act_max;
    t.pixel = dw_pixel;
    int owned;
    char *l1 = l1_acquire(t.kernel, a->l1, a->l1_bytes, a->flags, &owned);
    const uint32_t wbytes = a->kh * a->kw * a->c * t.e;
    int wid = dma_rows(t.kernel, "weights L2 -> L1", l1, a->weights, wbytes, 1, 0, 0);
    t.wts = l1;
    char *q = load_params(t.kernel, l1 + align4(wbytes), a->c, a->bias, a->rq_mult, a->rq_shift, t.e == 4u, a->flags,
                          &t.prm);
    dma_done(t.kernel, "weights L2 -> L1", &wid);
    rowtile_run(&t, q);
    if (owned) npu_l1_free(l1);
}

/* --- pooling ---------------------------------------------------------------------- */

static void pool_pixel(const rowtile *t, uint32_t oh, uint32_t ow, const char *rows, int32_t lo, char *out_px,
                       uint32_t c0, uint32_t c1) {
    const npurt_pool2d_args *a = t->args;
    const uint32_t c = t->c, row_elems = t->w * c, mode = a->mode;
    const int32_t ih0 = (int32_t)(oh * t->sh) - (int32_t)t->pt, iw0 = (int32_t)(ow * t->sw) - (int32_t)t->pl;
    uint32_t r0, r1, s0, s1;
    tap_range(ih0, t->kh, 1, t->h, &r0, &r1);
    tap_range(iw0, t->kw, 1, t->w, &s0, &s1);
    const int32_t xbase = ((ih0 - lo) * (int32_t)t->w + iw0) * (int32_t)c;
    if (t->e == 4u) {
        const float *x = (const float *)rows;
        float *o = (float *)out_px;
        for (uint32_t ch = c0; ch < c1; ++ch) {
            float acc = mode == NPURT_POOL_MAX ? -__builtin_inff() : 0.0f;
            for (uint32_t r = r0; r < r1; ++r) {
                const float *xr = x + xbase + (int32_t)(r * row_elems) + ch;
                for (uint32_t s = s0; s < s1; ++s) {
                    const float v = xr[s * c];
                    acc = mode == NPURT_POOL_MAX ? (v > acc ? v : acc) : acc + v;
                }
            }
            o[ch] = mode == NPURT_POOL_AVG ? acc / a->divisor : acc;
        }
        return;
    }
    const int8_t *x = (const int8_t *)rows;
    for (uint32_t ch = c0; ch < c1; ++ch) {
        int32_t acc = mode == NPURT_POOL_MAX ? -128 : 0;
        for (uint32_t r = r0; r < r1; ++r) {
            const int8_t *xr = x + xbase + (int32_t)(r * row_elems) + ch;
            if (mode == NPURT_POOL_MAX)
                for (uint32_t s = s0; s < s1; ++s) acc = xr[s * c] > acc ? xr[s * c] : acc;
            else
                for (uint32_t s = s0; s < s1; ++s) acc += xr[s * c];
        }
        if (mode == NPURT_POOL_SUM)
            ((int32_t *)out_px)[ch] = acc;
        else if (mode == NPURT_POOL_AVG)
            ((int8_t *)out_px)[ch] = epilogue_i8(acc, 0, a->rq_mult, a->rq_shift, a->act_min, a->act_max);
        else
            ((int8_t *)out_px)[ch] = (int8_t)acc;
    }
}

static void pool_setup(const npurt_pool2d_args *a, rowtile *t) {
    t->kernel = "npurt_pool2d";
    t->args = a;
    t->in = a->input;
    t->out = a->output;
    t->h = a->h, t->w = a->w, t->c = a->c;
    t->kh = a->kh, t->kw = a->kw, t->sh = a->stride_h, t->sw = a->stride_w, t->dh = t->dw = 1u;
    t->pt = a->pad_top, t->pl = a->pad_left;
    const int f32 = (a->flags & NPURT_CONV_F32) != 0;
    t->e = f32 ? 4u : 1u;
    t->eo = (f32 || a->mode == NPURT_POOL_SUM) ? 4u : 1u;
    if (a->mode > NPURT_POOL_AVG) npurt_die(1, "npurt_pool2d: unknown mode %lu", (unsigned long)a->mode);
    if (!f32 && a->mode == NPURT_POOL_AVG && (a->rq_shift < 0 || a->rq_shift > 62))
        npurt_die(1, "npurt_pool2d: rq_shift %ld is outside 0..62", (long)a->rq_shift);
    rowtile_geometry(t, a->tile_oh, a->pad_bottom, a->pad_right);
}

uint32_t npurt_pool2d_l1_bytes(const npurt_pool2d_args *a) {
    rowtile t;
    pool_setup(a, &t);
    return rowtile_buffers_bytes(&t);
}

void npurt_pool2d(const npurt_pool2d_args *a) {
    rowtile t;
    pool_setup(a, &t);
    const uint32_t need = rowtile_buffers_bytes(&t);
    if (a->l1_bytes < need)
        npurt_die(1, "npurt_pool2d: l1_bytes %lu is less than the %lu bytes of tiles of %lu rows (%lux%lux%lu, window %lux%lu)",
                 (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)t.toh, (unsigned long)a->h,
                 (unsigned long)a->w, (unsigned long)a->c, (unsigned long)a->kh, (unsigned long)a->kw);
    t.pixel = pool_pixel;
    int owned;
    char *l1 = l1_acquire(t.kernel, a->l1, a->l1_bytes, a->flags, &owned);
    rowtile_run(&t, l1);
    if (owned) npu_l1_free(l1);
}

/* === npurt_conv2d_ksplit, npurt_conv2d_ksplit_i8 ================================
 * npurt_conv2d for layers whose K x tile_cout weight panel and im2col rows do
 * not fit L1 at all (f32 at 32/64 KiB, int8 ResNet-8 at 32 KiB): K is split
 * into chunks of tile_k. For each output tile the SA accumulates the chunks
 * in k order (ACCUMULATE after the first: the array continues the same fmaf
 * chain from C, so the f32 result is the one a single job gives, bit for
 * bit; int8 adds the int32 partial sums, exact). Single-buffered and not
 * pipelined (every step waits for its DMA and SA): the way to run such a
 * layer at all, not a fast one. One driver (convk_run) for two entry points
 * that differ in their workers' epilogue: npurt_conv2d's f32 one, or its
 * int8 one; each firmware links only the one its layers call, and the f32
 * kernel's code is what it was before the int8 one existed. */

typedef struct {
    conv_ctx *x;
    uint32_t t, k0, kn, tile_k; /* row tile, its K chunk [k0, k0 + kn) */
    char *A;                    /* the chunk's im2col: [mr][kn] */
    int epilogue;               /* 0: im2col of the chunk, 1: epilogue of step x->epi_step */
} convk_task;

/* In L2 .bss, in a section of its own, like the messages below: a firmware
 * without a K-split layer links none of this kernel (an L1 .bss variable
 * here would move every conv network's L1 tiles, and their cycles). The
 * workers read it once per call. */
static convk_task convk_cur __attribute__((section(".bss.convk_cur")));
static const char ks_kernel[] = "npurt_conv2d_ksplit";
static const char ks_bad_tile_k[] = "%s: tile_k must be >= 1";
static const char ks_i8_kernel[] = "npurt_conv2d_ksplit_i8";
static const char ks_wrong_type[] = "%s: the layer's element type is the other kernel's (f32: npurt_conv2d_ksplit, int8: npurt_conv2d_ksplit_i8)";
static const char ks_too_big[] = "%s: a tile of %lu output pixels exceeds the SA's 65535";
static const char ks_short_l1[] = "%s: l1_bytes %lu is less than the %lu bytes of tiles %lu rows x %lu channels x %lu k";
static const char ks_sa_abort[] = "%s: SA job of step %lu, k %lu aborted at 0x%08lx (error info 0x%lx)";

/* Worker part of a chunk's im2col: A[p][k - k0] for k in [k0, k0 + kn), k =
 * (r*kw + s)*cin + ci, in runs of contiguous input channels. Inlined into
 * both workers, as it was into the f32 one alone (its code unchanged). */
static inline __attribute__((always_inline)) void convk_im2col_rows(const convk_task *q, uint32_t id, uint32_t nw) {
    const conv_ctx *x = q->x;
    const npurt_conv2d_args *a = x->a;
    const uint32_t e = x->e, cin = a->cin, row_bytes = a->w * cin * e;
    const uint32_t r0 = q->t * x->toh, mr = min_u32(x->toh, x->oh - r0) * x->ow, k1 = q->k0 + q->kn;
    const int32_t lo = x->ih_lo[0];
    for (uint32_t p = id; p < mr; p += nw) {
        const uint32_t oh = r0 + p / x->ow, ow = p % x->ow;
        char *dst = q->A + p * q->kn * e;
        for (uint32_t k = q->k0; k < k1;) {
            const uint32_t ci = k % cin, s = (k / cin) % a->kw, r = k / (cin * a->kw), n = min_u32(cin - ci, k1 - k);
            const int32_t ih = (int32_t)(oh * a->stride_h + r * a->dilation_h) - (int32_t)a->pad_top;
            const int32_t iw = (int32_t)(ow * a->stride_w + s * a->dilation_w) - (int32_t)a->pad_left;
            if (ih < 0 || ih >= (int32_t)a->h || iw < 0 || iw >= (int32_t)a->w)
                zero_bytes(dst, n * e);
            else
                copy_bytes(dst, x->IN[0] + (uint32_t)(ih - lo) * row_bytes + ((uint32_t)iw * cin + ci) * e, n * e);
            dst += n * e;
            k += n;
        }
    }
}

/* The f32 epilogue of npurt_conv2d (npurt_conv.h) on the output tile's rows
 * p = id, id + nw, ...: its own copy, so that conv_epilogue_rows keeps the
 * single caller it is inlined into (npurt_conv2d's code, and the cycles of
 * every network, stay what they were). */
static void convk_epilogue_rows(const convk_task *q, uint32_t id, uint32_t nw) {
    const conv_ctx *x = q->x;
    uint32_t i, j, mr, j0, nr;
    step_tile(x, (uint32_t)x->epi_step, &i, &j, &mr, &j0, &nr);
    const float *C = (const float *)x->C[0], *R = (const float *)x->R[0], *bias = (const float *)x->prm.bias;
    float *O = (float *)x->O[0];
    const int relu = (x->a->flags & NPURT_CONV_RELU) != 0;
    for (uint32_t r = id; r < mr; r += nw)
        for (uint32_t n = 0; n < nr; ++n) {
            float v = C[r * nr + n];
            if (bias) v = v + bias[j0 + n];
            if (x->has_res) v = v + R[r * nr + n];
            if (relu && !(v > 0.0f)) v = 0.0f;
            O[r * nr + n] = v;
        }
}

static void convk_worker(void) {
    const convk_task *q = &convk_cur;
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    if (q->epilogue)
        convk_epilogue_rows(q, id, nw);
    else
        convk_im2col_rows(q, id, nw);
}

/* The int8 epilogue of npurt_conv2d (npurt_conv.h) on the output tile's rows
 * p = id, id + nw, ...: its plain form (rq_fast per element, the residual's
 * rescale added before the clamp), the same values as conv_epilogue_rows'
 * hoisted loops, which stay npurt_conv2d's alone. */
static void convk_epilogue_rows_i8(const convk_task *q, uint32_t id, uint32_t nw) {
    const conv_ctx *x = q->x;
    const npurt_conv2d_args *a = x->a;
    const channel_params *p = &x->prm;
    uint32_t i, j, mr, j0, nr;
    step_tile(x, (uint32_t)x->epi_step, &i, &j, &mr, &j0, &nr);
    const int32_t *C = (const int32_t *)x->C[0];
    const int8_t *R = (const int8_t *)x->R[0];
    int8_t *O = (int8_t *)x->O[0];
    for (uint32_t r = id; r < mr; r += nw)
        for (uint32_t n = 0; n < nr; ++n) {
            const uint32_t ch = j0 + n, pc = p->per_channel ? ch : 0u;
            const int32_t acc = (int32_t)((uint32_t)C[r * nr + n] + (uint32_t)(p->bias ? p->bias[ch] : 0));
            int64_t v = rq_fast(acc, p->mult[pc], p->shift[pc]);
            if (x->has_res) v += rq_fast(R[r * nr + n], a->res_mult, a->res_shift);
            O[r * nr + n] = clamp_i8(v, x->act_min, x->act_max);
        }
}

static void convk_worker_i8(void) {
    const convk_task *q = &convk_cur;
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    if (q->epilogue)
        convk_epilogue_rows_i8(q, id, nw);
    else
        convk_im2col_rows(q, id, nw);
}

uint32_t npurt_conv2d_ksplit_l1_bytes(const npurt_conv2d_ksplit_args *ka) {
    const npurt_conv2d_args *a = &ka->conv;
    conv_ctx x;
    conv_geometry(a, &x);
    const uint32_t e = (a->flags & NPURT_CONV_F32) ? 4u : 1u;
    return NPU_CONV2D_KSPLIT_L1_BYTES(x.toh * x.ow, x.tn, min_u32(ka->tile_k, x.K), e, x.in_rows * a->w * a->cin * e,
                                      a->residual != NULL,
                                      params_bytes(a->cout, a->bias != NULL, e == 4u, a->flags));
}

/* The K-split driver; `f32` and `worker` are constants of each entry point
 * (inlined into both, so each is the code of one element type). */
static inline __attribute__((always_inline)) void convk_run(const npurt_conv2d_ksplit_args *ka, const char *kernel,
                                                            int f32, void (*worker)(void)) {
    const npurt_conv2d_args *a = &ka->conv;
    conv_ctx *const x = &conv_state;
    convk_task *const q = &convk_cur;
    x->a = a;
    x->f32 = (a->flags & NPURT_CONV_F32) != 0;
    x->e = x->f32 ? 4u : 1u;
    x->has_res = a->residual != NULL;
    conv_geometry(a, x);
    const uint32_t e = x->e, ow = x->ow, toh = x->toh, tn = x->tn, K = x->K, M = toh * ow;
    const uint32_t tk = min_u32(ka->tile_k, K);
    if (tk == 0) npurt_die(1, ks_bad_tile_k, kernel);
    if (f32 ? !x->f32 : x->f32) npurt_die(1, ks_wrong_type, kernel);
    x->rt = ceil_div(x->oh, toh);
    x->nt = ceil_div(a->cout, tn);
    x->steps = x->rt * x->nt;
    if (M > 65535u)
        npurt_die(1, ks_too_big, kernel, (unsigned long)M);
    const uint32_t need = npurt_conv2d_ksplit_l1_bytes(ka);
    if (a->l1_bytes < need)
        npurt_die(1, ks_short_l1, kernel, (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)toh, (unsigned long)tn,
                  (unsigned long)tk);
    x->act_min = a->act_min;
    x->act_max = a->act_max;
    if (a->flags & NPURT_CONV_RELU) x->act_min = max_i32(x->act_min, 0);

    int owned;
    char *l1 = l1_acquire(kernel, a->l1, a->l1_bytes, a->flags, &owned);
    char *p = l1;
    x->C[0] = x->C[1] = p, p += align4(M * tn * 4u);
    x->O[0] = x->O[1] = p, p += align4(M * tn * e);
    x->R[0] = x->R[1] = NULL;
    if (x->has_res) x->R[0] = x->R[1] = p, p += align4(M * tn * e);
    x->B[0] = x->B[1] = p, p += align4(tk * tn * e);
    q->A = p, p += align4(M * tk * e);
    x->IN[0] = x->IN[1] = p, p += align4(x->in_rows * a->w * a->cin * e);
    load_params(kernel, p, a->cout, a->bias, a->rq_mult, a->rq_shift, x->f32, a->flags, &x->prm);
    q->x = x;
    q->tile_k = tk;

    for (uint32_t s = 0; s < x->steps; ++s) {
        uint32_t i, j, mr, j0, nr;
        step_tile(x, s, &i, &j, &mr, &j0, &nr);
        if (j == 0) {
            int in_id = -1;
            conv_load_input(x, i, &in_id);
            x->ih_lo[0] = x->ih_lo[i & 1u];
            dma_done(kernel, "input rows L2 -> L1", &in_id);
        }
        for (uint32_t k0 = 0; k0 < K; k0 += tk) {
            const uint32_t kn = min_u32(tk, K - k0);
            /* The chunk's weight rows k0 .. k0+kn, channels j0 .. j0+nr. */
            int b_id = dma_rows(kernel, "weights L2 -> L1", x->B[0],
                                (const char *)a->weights + (k0 * a->cout + j0) * e, nr * e, kn, a->cout * e, nr * e);
            q->t = i, q->k0 = k0, q->kn = kn, q->epilogue = 0;
            npurt_parallel(worker);
            dma_done(kernel, "weights L2 -> L1", &b_id);
            const npu_sa_job_t job = {q->A,     x->B[0], x->C[0], mr,    nr,
                                      kn,       kn * e,  nr * e,  nr * 4u,
                                      (x->f32 ? NPU_SA_CTRL_DTYPE_FP32 : 0u) | (k0 ? NPU_SA_CTRL_ACCUMULATE : 0u)};
            npu_sa_start(&job);
            if (npu_sa_wait())
                npurt_die(1, ks_sa_abort, kernel, (unsigned long)s, (unsigned long)k0, (unsigned long)npu_sa_error_address(),
                          (unsigned long)npu_sa_error_info());
        }
        int res_id = -1, wb_id = -1;
        if (x->has_res) {
            res_id = conv_load_residual(x, s);
            dma_done(kernel, "residual L2 -> L1", &res_id);
        }
        x->epi_step = (int32_t)s;
        q->epilogue = 1;
        npurt_parallel(worker);
        wb_id = conv_write_back(x, s);
        dma_done(kernel, "output L1 -> L2", &wb_id);
    }
    if (owned) npu_l1_free(l1);
}

void npurt_conv2d_ksplit(const npurt_conv2d_ksplit_args *ka) { convk_run(ka, ks_kernel, 1, convk_worker); }

void npurt_conv2d_ksplit_i8(const npurt_conv2d_ksplit_args *ka) { convk_run(ka, ks_i8_kernel, 0, convk_worker_i8); }

/* === channel slices: npurt_dwconv2d_csplit, npurt_pool2d_csplit =================
 * For a depthwise or pooling layer whose row tiles of all channels do not fit
 * L1 even one output row at a time (f32 DS-CNN and MobileNet depthwise layers,
 * the global average pooling of f32 ResNet-8 / DS-CNN, at 32 or 64 KiB).
 * Both are independent per channel, so the channels run in slices of tile_c,
 * each like a layer of its own: its input rows come to L1 packed (a 2-D DMA
 * of the slice's channels out of every pixel), its depthwise weights and
 * parameters too, and its output tiles go back into their channels by 2-D
 * DMA. The steps (slice outer, row tile inner) are pipelined across slices:
 * the next step's input moves while this one computes. The workers run
 * rowtile_worker and the pixel functions above on the slice as the layer (c
 * = its channels), so every output is computed as in the unsliced kernel,
 * bit for bit. Data in sections of their own, like the K split: a firmware
 * without such a layer links none of it. */

static const char cs_dw_kernel[] = "npurt_dwconv2d_csplit";
static const char cs_pool_kernel[] = "npurt_pool2d_csplit";
static const char cs_bad_tile_c[] = "%s: tile_c must be >= 1";
static const char cs_short_l1[] =
    "%s: l1_bytes %lu is less than the %lu bytes of tiles of %lu rows x %lu channels (%lux%lux%lu, window %lux%lu)";

/* Input rows of row tile i, channels [c0, c0 + cs) of each pixel -> buf,
 * packed (cs channels per pixel); *lo: the first row's index. */
static __attribute__((noinline)) int cslice_load(const rowtile *t, uint32_t c, uint32_t i, uint32_t c0, uint32_t cs,
                                                 char *buf, int32_t *lo) {
    const uint32_t r0 = i * t->toh, rows = min_u32(t->toh, t->oh - r0);
    int32_t hi;
    input_rows(r0, rows, t->sh, t->pt, t->kh, t->dh, t->h, lo, &hi);
    if (hi <= *lo) return -1;
    return dma_rows(t->kernel, "input rows L2 -> L1", buf, t->in + ((uint32_t)*lo * t->w * c + c0) * t->e, cs * t->e,
                    (uint32_t)(hi - *lo) * t->w, c * t->e, cs * t->e);
}

/* The packed output tile of row tile i, channels [c0, c0 + cs) -> their place. */
static __attribute__((noinline)) int cslice_write_back(const rowtile *t, uint32_t c, uint32_t i, uint32_t c0,
                                                       uint32_t cs, const char *buf) {
    const uint32_t r0 = i * t->toh, rows = min_u32(t->toh, t->oh - r0);
    return dma_rows(t->kernel, "output L1 -> L2", t->out + (r0 * t->ow * c + c0) * t->eo, buf, cs * t->eo,
                    rows * t->ow, cs * t->eo, c * t->eo);
}

/* A depthwise slice's weights (kh*kw rows of cs channels) -> wbuf and its
 * parameters -> pbuf; the workers are idle (between two steps). */
static __attribute__((noinline)) void cslice_dw_params(rowtile *t, uint32_t c0, uint32_t cs, char *wbuf, char *pbuf) {
    const npurt_dwconv2d_args *a = t->args;
    const int per_channel = t->e == 1u && (a->flags & NPURT_CONV_PER_CHANNEL);
    int wid = dma_rows(t->kernel, "weights L2 -> L1", wbuf, (const char *)a->weights + c0 * t->e, cs * t->e,
                       a->kh * a->kw, a->c * t->e, cs * t->e);
    t->wts = wbuf;
    load_params(t->kernel, pbuf, cs, a->bias ? (const char *)a->bias + c0 * 4u : NULL,
                per_channel ? a->rq_mult + c0 : a->rq_mult, per_channel ? a->rq_shift + c0 : a->rq_shift, t->e == 4u,
                a->flags, &t->prm);
    dma_done(t->kernel, "weights L2 -> L1", &wid);
}

/* The pipeline over (slice, row tile) steps; q: where the tile buffers start,
 * wbuf/pbuf: a depthwise layer's weight and parameter buffers (NULL: pooling). */
static void cslice_run(rowtile *t, char *q, uint32_t tile_c, char *wbuf, char *pbuf) {
    const uint32_t c = t->c, rt = t->rt, steps = ceil_div(c, tile_c) * rt;
    char *IN[2], *O[2];
    int32_t lo[2] = {0, 0};
    for (int b = 0; b < 2; ++b, q += align4(t->in_rows * t->w * tile_c * t->e)) IN[b] = q;
    for (int b = 0; b < 2; ++b, q += align4(t->toh * t->ow * tile_c * t->eo)) O[b] = q;
    int in_id[2] = {-1, -1}, wb_id[2] = {-1, -1};
    for (uint32_t s = 0; s < 2u && s < steps; ++s) {
        const uint32_t c0 = s / rt * tile_c;
        in_id[s] = cslice_load(t, c, s % rt, c0, min_u32(tile_c, c - c0), IN[s], &lo[s]);
    }
    rowtile_cur = t;
    for (uint32_t s = 0; s < steps; ++s) {
        const uint32_t i = s % rt, c0 = s / rt * tile_c, cs = min_u32(tile_c, c - c0), b = s & 1u;
        if (i == 0 && wbuf) cslice_dw_params(t, c0, cs, wbuf, pbuf);
        dma_done(t->kernel, "input rows L2 -> L1", &in_id[b]);
        dma_done(t->kernel, "output L1 -> L2", &wb_id[b]);
        /* rowtile_worker reads row tile i's buffers at [i & 1]: this step's. */
        t->c = cs;
        t->tile = (int32_t)i;
        t->IN[i & 1u] = IN[b], t->O[i & 1u] = O[b], t->ih_lo[i & 1u] = lo[b];
        npurt_parallel(rowtile_worker);
        wb_id[b] = cslice_write_back(t, c, i, c0, cs, O[b]);
        if (s + 2u < steps) {
            const uint32_t n0 = (s + 2u) / rt * tile_c;
            in_id[b] = cslice_load(t, c, (s + 2u) % rt, n0, min_u32(tile_c, c - n0), IN[b], &lo[b]);
        }
    }
    dma_done(t->kernel, "output L1 -> L2", &wb_id[0]);
    dma_done(t->kernel, "output L1 -> L2", &wb_id[1]);
    rowtile_cur = NULL;
    t->c = c;
}

/* The slice's L1 working set: the unsliced formula with tile_c channels. */
static uint32_t cslice_dw_l1_bytes(const npurt_dwconv2d_csplit_args *ca, rowtile *t) {
    const npurt_dwconv2d_args *a = &ca->dw;
    dw_setup(a, t);
    t->kernel = cs_dw_kernel;
    if (ca->tile_c == 0) npurt_die(1, cs_bad_tile_c, cs_dw_kernel);
    const uint32_t tc = min_u32(ca->tile_c, a->c), c = t->c;
    t->c = tc;
    const uint32_t need = NPU_DWCONV2D_L1_BYTES(a->kh * a->kw * tc * t->e, params_bytes(tc, a->bias != NULL, t->e == 4u, a->flags),
                                                rowtile_buffers_bytes(t));
    t->c = c;
    return need;
}

uint32_t npurt_dwconv2d_csplit_l1_bytes(const npurt_dwconv2d_csplit_args *ca) {
    rowtile t;
    return cslice_dw_l1_bytes(ca, &t);
}

void npurt_dwconv2d_csplit(const npurt_dwconv2d_csplit_args *ca) {
    const npurt_dwconv2d_args *a = &ca->dw;
    rowtile t;
    const uint32_t need = cslice_dw_l1_bytes(ca, &t), tc = min_u32(ca->tile_c, a->c);
    if (a->l1_bytes < need)
        npurt_die(1, cs_short_l1, cs_dw_kernel, (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)t.toh,
                  (unsigned long)tc, (unsigned long)a->h, (unsigned long)a->w, (unsigned long)a->c, (unsigned long)a->kh,
                  (unsigned long)a->kw);
    t.act_min = (a->flags & NPURT_CONV_RELU) ? max_i32(a->act_min, 0) : a->act_min;
    t.act_max = a->act_max;
    t.pixel = dw_pixel;
    int owned;
    char *l1 = l1_acquire(cs_dw_kernel, a->l1, a->l1_bytes, a->flags, &owned);
    char *pbuf = l1 + align4(a->kh * a->kw * tc * t.e);
    cslice_run(&t, pbuf + params_bytes(tc, a->bias != NULL, t.e == 4u, a->flags), tc, l1, pbuf);
    if (owned) npu_l1_free(l1);
}

static uint32_t cslice_pool_l1_bytes(const npurt_pool2d_csplit_args *ca, rowtile *t) {
    const npurt_pool2d_args *a = &ca->pool;
    pool_setup(a, t);
    t->kernel = cs_pool_kernel;
    if (ca->tile_c == 0) npurt_die(1, cs_bad_tile_c, cs_pool_kernel);
    const uint32_t c = t->c;
    t->c = min_u32(ca->tile_c, a->c);
    const uint32_t need = rowtile_buffers_bytes(t);
    t->c = c;
    return need;
}

uint32_t npurt_pool2d_csplit_l1_bytes(const npurt_pool2d_csplit_args *ca) {
    rowtile t;
    return cslice_pool_l1_bytes(ca, &t);
}

void npurt_pool2d_csplit(const npurt_pool2d_csplit_args *ca) {
    const npurt_pool2d_args *a = &ca->pool;
    rowtile t;
    const uint32_t need = cslice_pool_l1_bytes(ca, &t), tc = min_u32(ca->tile_c, a->c);
    if (a->l1_bytes < need)
        npurt_die(1, cs_short_l1, cs_pool_kernel, (unsigned long)a->l1_bytes, (unsigned long)need, (unsigned long)t.toh,
                  (unsigned long)tc, (unsigned long)a->h, (unsigned long)a->w, (unsigned long)a->c, (unsigned long)a->kh,
                  (unsigned long)a->kw);
    t.pixel = pool_pixel;
    int owned;
    char *l1 = l1_acquire(cs_pool_kernel, a->l1, a->l1_bytes, a->flags, &owned);
    cslice_run(&t, l1, tc, NULL, NULL);
    if (owned) npu_l1_free(l1);
}
