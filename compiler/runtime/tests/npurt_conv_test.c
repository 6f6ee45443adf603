/* Tests of the conv kernels of libnpurt.a (compiler/runtime/npurt_conv.h) on
 * npusim. One source, one program per mode (CMake DEFINES):
 *
 *   NPURT_CONV_TEST_KERNELS  npurt_conv2d, npurt_dwconv2d and npurt_pool2d on
 *                            seeded pseudo-random tensors of small and awkward
 *                            shapes (stride 2, asymmetric padding, kh != kw,
 *                            dilation, cout not a multiple of the SA columns,
 *                            cin = 1, 1x1 pointwise, DS-CNN's 10x4 s2 first
 *                            layer, residual, per-tensor and per-channel
 *                            requantisation, int8 and f32). EVERY output
 *                            element is compared with a direct (not im2col)
 *                            C reference on the cluster controller: int8 and
 *                            int32 exact, f32 bit-exact (fmaf in k order, as
 *                            docs/sa.md specifies the array); guard words
 *                            after each output checked untouched, and the L1
 *                            block checked freed.
 *   NPURT_CONV_TEST_CSPLIT   the depthwise and pooling cases above through
 *                            npurt_dwconv2d_csplit / npurt_pool2d_csplit in
 *                            channel slices of 1, 3 and half the channels,
 *                            compared the same way.
 *   NPURT_CONV_TEST_CYCLES   one ResNet-8 3x3 layer (32x32x16 -> 16, pad 1)
 *                            and one DS-CNN pointwise layer (25x5x64 -> 64),
 *                            int8: cycles, MAC/cycle, results compared.
 *   NPURT_CONV_TEST_L1_SMALL a conv whose tiles do not fit the l1_bytes it
 *                            is given: the kernel's message, exit 1.
 *   NPURT_CONV_TEST_L1_FAIL  a working set larger than the free L1: the
 *                            failed npu_l1_malloc is reported, exit(99).
 *   NPURT_CONV_TEST_UNCHECKED_L1  the same with NPURT_CONV_UNCHECKED_L1 (fault
 *                            injection 'unchecked-l1-alloc'): the NULL base is
 *                            used, the first DMA into it is npusim's bus error. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npurt.h"
#include "npurt_conv.h"

static uint32_t rng_state;
static __attribute__((unused)) void rng_seed(uint32_t s) { rng_state = s ? s : 0x9e3779b9u; }
static uint32_t rng(void) {
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}
static int8_t rng_i8(void) { return (int8_t)(rng() >> 24); }
static float rng_f32(void) { return (float)(int32_t)rng() * (2.0f / 2147483648.0f); }
static int32_t rng_range(int32_t lo, int32_t hi) { return lo + (int32_t)(rng() % (uint32_t)(hi - lo + 1)); }

static __attribute__((unused)) int fail(const char *what) {
    printf("FAIL: %s\n", what);
    return 1;
}

static uint32_t out_size(uint32_t in, uint32_t k, uint32_t s, uint32_t d, uint32_t p0, uint32_t p1) {
    return (in + p0 + p1 - d * (k - 1u) - 1u) / s + 1u;
}

#define I8 0u
#define F32 NPURT_CONV_F32
#define PC NPURT_CONV_PER_CHANNEL
#define RELU NPURT_CONV_RELU

#define MAX_IN (50 * 1024)
#define MAX_W (16 * 1024)
#define MAX_OUT (50 * 1024)
#define MAX_C 256
#define GUARD 16
#define GUARD_WORD 0xa5a5a5a5u

static __attribute__((unused)) uint32_t in_buf[MAX_IN / 4];
static __attribute__((unused)) uint32_t w_buf[MAX_W / 4];
static __attribute__((unused)) uint32_t res_buf[MAX_OUT / 4];
static __attribute__((unused)) uint32_t out_buf[MAX_OUT / 4 + GUARD];
static __attribute__((unused)) uint32_t ref_buf[MAX_OUT / 4];
static int32_t bias_buf[MAX_C], mult_buf[MAX_C], shift_buf[MAX_C];

static void fill(void *dst, uint32_t n, int f32) {
    for (uint32_t i = 0; i < n; ++i) {
        if (f32)
            ((float *)dst)[i] = rng_f32();
        else
            ((int8_t *)dst)[i] = rng_i8();
    }
}

/* Per-channel multipliers in [2^30, 2^31) and shifts chosen so that int8
 * results spread over the range instead of saturating: s ~ 35 + log4(K), as
 * real layers have. Every 4th channel trades 6 bits of the multiplier for 6
 * of the shift (s < 33: the kernels' general 64-bit requantisation path),
 * every 4th + 1 has s = 33 exactly (the smallest fast-path shift). */
static void fill_params(uint32_t c, uint32_t k_macs, int f32) {
    int32_t sh = 35;
    for (uint32_t m = k_macs; m > 1; m >>= 2) ++sh; /* ~ log4(K): the accumulator grows like sqrt(K) */
    for (uint32_t n = 0; n < c; ++n) {
        if (f32) {
            ((float *)bias_buf)[n] = rng_f32();
            continue;
        }
        bias_buf[n] = rng_range(-3000, 3000);
        int32_t m = rng_range(1 << 30, 0x7fffffff), s = sh + rng_range(0, 2);
        if (n % 4 == 0) {
            m >>= 6;
            s -= 6;
        } else if (n % 4 == 1) {
            m >>= s - 33;
            s = 33;
        }
        mult_buf[n] = m;
        shift_buf[n] = s;
    }
}

static __attribute__((unused)) void set_guard(uint32_t out_bytes) {
    memset(out_buf, 0x5c, out_bytes);
    uint8_t *g = (uint8_t *)out_buf + out_bytes;
    for (uint32_t i = 0; i < GUARD * 4; ++i) g[i] = 0xa5;
}

static __attribute__((unused)) uint32_t check_guard(uint32_t out_bytes) {
    const uint8_t *g = (const uint8_t *)out_buf + out_bytes;
    for (uint32_t i = 0; i < GUARD * 4; ++i)
        if (g[i] != 0xa5) return 1;
    return 0;
}

/* Compares n elements of eb bytes bitwise; prints the first mismatches. */
static __attribute__((unused)) uint32_t compare(const char *name, const void *got, const void *want, uint32_t n, uint32_t eb,
                        uint32_t *compared) {
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t g = 0, w = 0;
        memcpy(&g, (const char *)got + i * eb, eb);
        memcpy(&w, (const char *)want + i * eb, eb);
        ++*compared;
        if (g != w) {
            if (bad < 4)
                printf("  %s: mismatch at %lu: got 0x%lx expected 0x%lx\n", name, (unsigned long)i, (unsigned long)g,
                       (unsigned long)w);
            ++bad;
        }
    }
    return bad;
}

/* --- references: direct loops, the arithmetic of npurt_conv.h ------------------- */

static int8_t ref_epilogue_i8(int32_t acc, int32_t bias, int32_t m, int32_t s, int has_res, int32_t res, int32_t rm,
                              int32_t rs, int32_t lo, int32_t hi) {
    const int32_t a = (int32_t)((uint32_t)acc + (uint32_t)bias);
    int64_t v = npurt_rq(a, m, s);
    if (has_res) v += npurt_rq(res, rm, rs);
    return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

static __attribute__((unused)) void ref_conv2d(const npurt_conv2d_args *a, void *out) {
    const int f32 = (a->flags & NPURT_CONV_F32) != 0;
    const uint32_t oh = out_size(a->h, a->kh, a->stride_h, a->dilation_h, a->pad_top, a->pad_bottom);
    const uint32_t ow = out_size(a->w, a->kw, a->stride_w, a->dilation_w, a->pad_left, a->pad_right);
    const int32_t lo = (a->flags & NPURT_CONV_RELU) && a->act_min < 0 ? 0 : a->act_min;
    for (uint32_t y = 0; y < oh; ++y)
        for (uint32_t x = 0; x < ow; ++x)
            for (uint32_t n = 0; n < a->cout; ++n) {
                int32_t acc = 0;
                float facc = 0.0f;
                for (uint32_t r = 0; r < a->kh; ++r)
                    for (uint32_t s = 0; s < a->kw; ++s)
                        for (uint32_t ci = 0; ci < a->cin; ++ci) {
                            const int32_t ih = (int32_t)(y * a->stride_h + r * a->dilation_h) - (int32_t)a->pad_top;
                            const int32_t iw = (int32_t)(x * a->stride_w + s * a->dilation_w) - (int32_t)a->pad_left;
                            const int inside = ih >= 0 && ih < (int32_t)a->h && iw >= 0 && iw < (int32_t)a->w;
                            const uint32_t xi = ((uint32_t)ih * a->w + (uint32_t)iw) * a->cin + ci;
                            const uint32_t wi = ((r * a->kw + s) * a->cin + ci) * a->cout + n;
                            if (f32)
                                facc = __builtin_fmaf(inside ? ((const float *)a->input)[xi] : 0.0f,
                                                      ((const float *)a->weights)[wi], facc);
                            else if (inside)
                                acc += (int32_t)((const int8_t *)a->input)[xi] * ((const int8_t *)a->weights)[wi];
                        }
                const uint32_t o = (y * ow + x) * a->cout + n;
                if (f32) {
                    if (a->bias) facc = facc + ((const float *)a->bias)[n];
                    if (a->residual) facc = facc + ((const float *)a->residual)[o];
                    if ((a->flags & NPURT_CONV_RELU) && !(facc > 0.0f)) facc = 0.0f;
                    ((float *)out)[o] = facc;
                } else {
                    const uint32_t pc = (a->flags & NPURT_CONV_PER_CHANNEL) ? n : 0u;
                    ((int8_t *)out)[o] =
                        ref_epilogue_i8(acc, a->bias ? ((const int32_t *)a->bias)[n] : 0, a->rq_mult[pc], a->rq_shift[pc],
                                        a->residual != NULL, a->residual ? ((const int8_t *)a->residual)[o] : 0,
                                        a->res_mult, a->res_shift, lo, a->act_max);
                }
            }
}

#if defined(NPURT_CONV_TEST_KERNELS) || defined(NPURT_CONV_TEST_CSPLIT)
static void ref_dwconv2d(const npurt_dwconv2d_args *a, void *out) {
    const int f32 = (a->flags & NPURT_CONV_F32) != 0;
    const uint32_t oh = out_size(a->h, a->kh, a->stride_h, a->dilation_h, a->pad_top, a->pad_bottom);
    const uint32_t ow = out_size(a->w, a->kw, a->stride_w, a->dilation_w, a->pad_left, a->pad_right);
    const int32_t lo = (a->flags & NPURT_CONV_RELU) && a->act_min < 0 ? 0 : a->act_min;
    for (uint32_t y = 0; y < oh; ++y)
        for (uint32_t x = 0; x < ow; ++x)
            for (uint32_t c = 0; c < a->c; ++c) {
                int32_t acc = 0;
                float facc = 0.0f;
                for (uint32_t r = 0; r < a->kh; ++r)
                    for (uint32_t s = 0; s < a->kw; ++s) {
                        const int32_t ih = (int32_t)(y * a->stride_h + r * a->dilation_h) - (int32_t)a->pad_top;
                        const int32_t iw = (int32_t)(x * a->stride_w + s * a->dilation_w) - (int32_t)a->pad_left;
                        if (ih < 0 || ih >= (int32_t)a->h || iw < 0 || iw >= (int32_t)a->w) continue;
                        const uint32_t xi = ((uint32_t)ih * a->w + (uint32_t)iw) * a->c + c, wi = (r * a->kw + s) * a->c + c;
                        if (f32)
                            facc = __builtin_fmaf(((const float *)a->input)[xi], ((const float *)a->weights)[wi], facc);
                        else
                            acc += (int32_t)((const int8_t *)a->input)[xi] * ((const int8_t *)a->weights)[wi];
                    }
                const uint32_t o = (y * ow + x) * a->c + c;
                if (f32) {
                    if (a->bias) facc = facc + ((const float *)a->bias)[c];
                    if ((a->flags & NPURT_CONV_RELU) && !(facc > 0.0f)) facc = 0.0f;
                    ((float *)out)[o] = facc;
                } else {
                    const uint32_t pc = (a->flags & NPURT_CONV_PER_CHANNEL) ? c : 0u;
                    ((int8_t *)out)[o] = ref_epilogue_i8(acc, a->bias ? ((const int32_t *)a->bias)[c] : 0,
                                                         a->rq_mult[pc], a->rq_shift[pc], 0, 0, 0, 0, lo, a->act_max);
                }
            }
}

static void ref_pool2d(const npurt_pool2d_args *a, void *out) {
    const int f32 = (a->flags & NPURT_CONV_F32) != 0;
    const uint32_t oh = out_size(a->h, a->kh, a->stride_h, 1, a->pad_top, a->pad_bottom);
    const uint32_t ow = out_size(a->w, a->kw, a->stride_w, 1, a->pad_left, a->pad_right);
    for (uint32_t y = 0; y < oh; ++y)
        for (uint32_t x = 0; x < ow; ++x)
            for (uint32_t c = 0; c < a->c; ++c) {
                int32_t acc = a->mode == NPURT_POOL_MAX ? -128 : 0;
                float facc = a->mode == NPURT_POOL_MAX ? -__builtin_inff() : 0.0f;
                for (uint32_t r = 0; r < a->kh; ++r)
                    for (uint32_t s = 0; s < a->kw; ++s) {
                        const int32_t ih = (int32_t)(y * a->stride_h + r) - (int32_t)a->pad_top;
                        const int32_t iw = (int32_t)(x * a->stride_w + s) - (int32_t)a->pad_left;
                        if (ih < 0 || ih >= (int32_t)a->h || iw < 0 || iw >= (int32_t)a->w) continue;
                        const uint32_t xi = ((uint32_t)ih * a->w + (uint32_t)iw) * a->c + c;
                        if (f32) {
                            const float v = ((const float *)a->input)[xi];
                            facc = a->mode == NPURT_POOL_MAX ? (v > facc ? v : facc) : facc + v;
                        } else {
                            const int32_t v = ((const int8_t *)a->input)[xi];
                            acc = a->mode == NPURT_POOL_MAX ? (v > acc ? v : acc) : acc + v;
                        }
                    }
                const uint32_t o = (y * ow + x) * a->c + c;
                if (f32)
                    ((float *)out)[o] = a->mode == NPURT_POOL_AVG ? facc / a->divisor : facc;
                else if (a->mode == NPURT_POOL_SUM)
                    ((int32_t *)out)[o] = acc;
                else if (a->mode == NPURT_POOL_AVG)
                    ((int8_t *)out)[o] = ref_epilogue_i8(acc, 0, a->rq_mult, a->rq_shift, 0, 0, 0, 0, a->act_min, a->act_max);
                else
                    ((int8_t *)out)[o] = (int8_t)acc;
            }
}

#ifdef NPURT_CONV_TEST_KERNELS
typedef struct {
    const char *name;
    uint32_t h, w, cin, cout, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, toh, tn, flags;
    int residual, caller_l1;
} conv_case;


static const conv_case conv_cases[] = {
    {"int8 3x3 s1 pad 1, 8x9x5 -> 20 (cout edge), tiles 3x16, residual, relu", 8, 9, 5, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1,
     3, 16, I8 | PC | RELU, 1, 0},
    {"int8 3x3 s2 pad 0/0/1/1, 9x11x3 -> 7, tiles 2x7", 9, 11, 3, 7, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 2, 7, I8 | PC, 0, 0},
    {"int8 DS-CNN conv1 10x4 s2 same, 49x10x1 -> 64, tiles 5x64", 49, 10, 1, 64, 10, 4, 2, 2, 1, 1, 4, 1, 5, 1, 5, 64,
     I8 | PC | RELU, 0, 0},
    {"int8 1x1 pointwise, 6x5x24 -> 40, tiles 2x16, per-tensor", 6, 5, 24, 40, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 16, I8,
     0, 0},
    {"int8 1x1 s2 shortcut, 8x8x16 -> 32, tiles 4x32", 8, 8, 16, 32, 1, 1, 2, 2, 1, 1, 0, 0, 0, 0, 4, 32, I8 | PC, 0, 0},
    {"int8 2x5 dilation 2x1 pad 1/2/1/2, 7x12x4 -> 6, tiles 4x6", 7, 12, 4, 6, 2, 5, 1, 1, 2, 1, 1, 2, 1, 2, 4, 6,
     I8 | PC, 0, 0},
    {"int8 3x3 s1 pad 1, 4x4x16 -> 16 one tile, caller's L1, residual shift 35", 4, 4, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 4, 16,
     I8 | PC | RELU, 1, 1},
    {"int8 3x3 dilation 1x2 pad 1/2/1/2, 6x9x4 -> 5, tiles 2x5 (workers gather)", 6, 9, 4, 5, 3, 3, 1, 1, 1, 2, 1, 2, 1,
     2, 2, 5, I8 | PC, 0, 0},
    {"int8 3x3 pad 1, 40x3x2 -> 5, tiles 40x5 (> 32 rows: workers gather)", 40, 3, 2, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1,
     40, 5, I8 | PC | RELU, 0, 0},
    {"int8 fully connected 200 -> 48 as a 1x1 conv of a 1x1 image", 1, 1, 200, 48, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 48,
     I8 | PC, 0, 0},
    {"f32 3x3 s1 pad 1, 7x6x3 -> 17, tiles 2x16, residual, relu", 7, 6, 3, 17, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, 16,
     F32 | RELU, 1, 0},
    {"f32 1x1 pointwise, 5x4x20 -> 9, tiles 2x9", 5, 4, 20, 9, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 9, F32, 0, 0},
    {"f32 3x3 s2 pad 0/0/1/1, 9x9x8 -> 12, tiles 3x5", 9, 9, 8, 12, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 3, 5, F32, 0, 0},
};
#endif

typedef struct {
    const char *name;
    uint32_t h, w, c, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, toh, flags;
} dw_case;

static const dw_case dw_cases[] = {
    {"dw int8 3x3 s1 pad 1, 25x5x64 (DS-CNN), tiles 5 rows", 25, 5, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 5, I8 | PC | RELU},
    {"dw int8 3x3 s2 pad 0/0/1/1, 12x12x16, tiles 3 rows", 12, 12, 16, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1, 3, I8 | PC},
    {"dw int8 3x1 dilation 2, 9x5x3, tiles 2 rows, per-tensor", 9, 5, 3, 3, 1, 1, 1, 2, 1, 2, 0, 2, 0, 2, I8},
    {"dw f32 3x3 s1 pad 1, 7x7x8, tiles 3 rows, relu", 7, 7, 8, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 3, F32 | RELU},
};

typedef struct {
    const char *name;
    uint32_t h, w, c, kh, kw, sh, sw, pt, pl, pb, pr, mode, toh, flags;
} pool_case;

static const pool_case pool_cases[] = {
    {"pool int8 max 2x2 s2, 8x8x5, tiles 2 rows", 8, 8, 5, 2, 2, 2, 2, 0, 0, 0, 0, NPURT_POOL_MAX, 2, I8},
    {"pool int8 avg 24x5 (DS-CNN), 25x5x64", 25, 5, 64, 24, 5, 1, 1, 0, 0, 0, 0, NPURT_POOL_AVG, 1, I8},
    {"pool int8 sum 3x3 s1 pad 1, 6x7x4, tiles 4 rows", 6, 7, 4, 3, 3, 1, 1, 1, 1, 1, 1, NPURT_POOL_SUM, 4, I8},
    {"pool f32 global avg 8x8x16", 8, 8, 16, 8, 8, 1, 1, 0, 0, 0, 0, NPURT_POOL_AVG, 1, F32},
    {"pool f32 max 3x3 s2 pad 1, 9x9x3, tiles 2 rows", 9, 9, 3, 3, 3, 2, 2, 1, 1, 1, 1, NPURT_POOL_MAX, 2, F32},
};

static uint32_t total, expected, bad;

static void report(const char *name, uint32_t compared, uint32_t n, uint32_t wrong, uint64_t cycles, uint32_t l1) {
    printf("%s: compared %lu of %lu elements, %lu mismatches, %lu cycles, L1 %lu B\n", name, (unsigned long)compared,
           (unsigned long)n, (unsigned long)wrong, (unsigned long)cycles, (unsigned long)l1);
    total += compared;
    expected += n;
    bad += wrong;
}

static size_t l1_free_before;

static void check_l1_freed(const char *name) {
    void *again = npu_l1_malloc(l1_free_before);
    if (!again) {
        printf("  %s: L1 not freed\n", name);
        ++bad;
    }
    npu_l1_free(again);
}

#ifdef NPURT_CONV_TEST_KERNELS
static char *caller_l1;

int main(void) {
    printf("npurt_conv test: SA %ux%u, %u workers, largest free L1 block %u bytes\n", npu_sa_rows(), npu_sa_cols(),
           npu_nb_workers(), (unsigned)npu_l1_free_bytes());
    l1_free_before = npu_l1_free_bytes();

    for (unsigned ci = 0; ci < sizeof conv_cases / sizeof conv_cases[0]; ++ci) {
        const conv_case *t = &conv_cases[ci];
        const int f32 = (t->flags & F32) != 0;
        const uint32_t e = f32 ? 4u : 1u;
        rng_seed(0xc0171u + ci * 7919u);
        const uint32_t oh = out_size(t->h, t->kh, t->sh, t->dh, t->pt, t->pb);
        const uint32_t ow = out_size(t->w, t->kw, t->sw, t->dw, t->pl, t->pr);
        const uint32_t n_out = oh * ow * t->cout;
        fill(in_buf, t->h * t->w * t->cin, f32);
        fill(w_buf, t->kh * t->kw * t->cin * t->cout, f32);
        fill(res_buf, n_out, f32);
        fill_params(t->cout, t->kh * t->kw * t->cin, f32);
        npurt_conv2d_args a = {in_buf, w_buf, bias_buf, mult_buf, shift_buf, t->residual ? res_buf : NULL, out_buf,
                               t->h, t->w, t->cin, t->cout, t->kh, t->kw, t->sh, t->sw, t->dh, t->dw, t->pt, t->pl,
                               t->pb, t->pr, -128, 127, 1 << 30, t->caller_l1 ? 35 : 31, t->toh, t->tn, t->flags, 0,
                               NULL};
        a.l1_bytes = npurt_conv2d_l1_bytes(&a);
        if (t->caller_l1) {
            caller_l1 = npu_l1_malloc(a.l1_bytes);
            if (!caller_l1) return fail("caller's L1 block");
            a.l1 = caller_l1;
        }
        set_guard(n_out * e);
        npurt_region_begin(f32 ? "conv2d f32 cases" : "conv2d int8 cases");
        const uint64_t t0 = npu_cycles();
        npurt_conv2d(&a);
        const uint64_t t1 = npu_cycles();
        npurt_region_end(f32 ? "conv2d f32 cases" : "conv2d int8 cases");
        if (t->caller_l1) npu_l1_free(caller_l1);
        ref_conv2d(&a, ref_buf);
        uint32_t compared = 0;
        uint32_t wrong = compare(t->name, out_buf, ref_buf, n_out, e, &compared) + check_guard(n_out * e);
        report(t->name, compared, n_out, wrong, t1 - t0, a.l1_bytes);
        check_l1_freed(t->name);
    }

    for (unsigned ci = 0; ci < sizeof dw_cases / sizeof dw_cases[0]; ++ci) {
        const dw_case *t = &dw_cases[ci];
        const int f32 = (t->flags & F32) != 0;
        const uint32_t e = f32 ? 4u : 1u;
        rng_seed(0xd3c0u + ci * 104729u);
        const uint32_t oh = out_size(t->h, t->kh, t->sh, t->dh, t->pt, t->pb);
        const uint32_t ow = out_size(t->w, t->kw, t->sw, t->dw, t->pl, t->pr);
        const uint32_t n_out = oh * ow * t->c;
        fill(in_buf, t->h * t->w * t->c, f32);
        fill(w_buf, t->kh * t->kw * t->c, f32);
        fill_params(t->c, t->kh * t->kw, f32);
        npurt_dwconv2d_args a = {in_buf, w_buf, bias_buf, mult_buf, shift_buf, out_buf, t->h, t->w, t->c, t->kh, t->kw,
                                 t->sh, t->sw, t->dh, t->dw, t->pt, t->pl, t->pb, t->pr, -128, 127, t->toh, t->flags, 0,
                                 NULL};
        a.l1_bytes = npurt_dwconv2d_l1_bytes(&a);
        set_guard(n_out * e);
        npurt_region_begin("dwconv2d cases");
        const uint64_t t0 = npu_cycles();
        npurt_dwconv2d(&a);
        const uint64_t t1 = npu_cycles();
        npurt_region_end("dwconv2d cases");
        ref_dwconv2d(&a, ref_buf);
        uint32_t compared = 0;
        uint32_t wrong = compare(t->name, out_buf, ref_buf, n_out, e, &compared) + check_guard(n_out * e);
        report(t->name, compared, n_out, wrong, t1 - t0, a.l1_bytes);
        check_l1_freed(t->name);
    }

    for (unsigned ci = 0; ci < sizeof pool_cases / sizeof pool_cases[0]; ++ci) {
        const pool_case *t = &pool_cases[ci];
        const int f32 = (t->flags & F32) != 0;
        const uint32_t eo = (f32 || t->mode == NPURT_POOL_SUM) ? 4u : 1u;
        rng_seed(0x9001u + ci * 15485863u);
        const uint32_t oh = out_size(t->h, t->kh, t->sh, 1, t->pt, t->pb);
        const uint32_t ow = out_size(t->w, t->kw, t->sw, 1, t->pl, t->pr);
        const uint32_t n_out = oh * ow * t->c;
        fill(in_buf, t->h * t->w * t->c, f32);
        /* int8 average: 1/(kh*kw) as multiplier 2^s/(kh*kw) and shift s = 30 */
        const int32_t avg_mult = (int32_t)((1u << 30) / (t->kh * t->kw));
        npurt_pool2d_args a = {in_buf, out_buf, t->h, t->w, t->c, t->kh, t->kw, t->sh, t->sw, t->pt, t->pl, t->pb,
                               t->pr, t->mode, avg_mult, 30, -128, 127, (float)(t->kh * t->kw), t->toh, t->flags, 0,
                               NULL};
        a.l1_bytes = npurt_pool2d_l1_bytes(&a);
        set_guard(n_out * eo);
        npurt_region_begin("pool2d cases");
        const uint64_t t0 = npu_cycles();
        npurt_pool2d(&a);
        const uint64_t t1 = npu_cycles();
        npurt_region_end("pool2d cases");
        ref_pool2d(&a, ref_buf);
        uint32_t compared = 0;
        uint32_t wrong = compare(t->name, out_buf, ref_buf, n_out, eo, &compared) + check_guard(n_out * eo);
        report(t->name, compared, n_out, wrong, t1 - t0, a.l1_bytes);
        check_l1_freed(t->name);
    }

    printf("npurt_conv: compared %lu of %lu elements, %lu mismatches\n", (unsigned long)total, (unsigned long)expected,
           (unsigned long)bad);
    if (total == 0 || total != expected) return fail("not every element was compared");
    if (bad) return fail("mismatches");
    printf("PASS\n");
    return 0;
}
#endif

#ifdef NPURT_CONV_TEST_CSPLIT
/* The depthwise and pooling cases again through npurt_dwconv2d_csplit /
 * npurt_pool2d_csplit, in slices of 1, 3 and half the channels (a last slice
 * that takes the rest; slices crossing an odd number of row tiles, so the
 * double buffers alternate across slices). */
static uint32_t slice_sizes(uint32_t c, uint32_t out[3]) {
    const uint32_t want[3] = {1u, 3u, (c + 1u) / 2u};
    uint32_t n = 0;
    for (int k = 0; k < 3; ++k) {
        int seen = want[k] >= c;
        for (uint32_t j = 0; j < n; ++j) seen |= out[j] == want[k];
        if (!seen) out[n++] = want[k];
    }
    return n;
}

int main(void) {
    printf("npurt_conv csplit test: %u workers, largest free L1 block %u bytes\n", npu_nb_workers(),
           (unsigned)npu_l1_free_bytes());
    l1_free_before = npu_l1_free_bytes();
    char name[128];
    for (unsigned ci = 0; ci < sizeof dw_cases / sizeof dw_cases[0]; ++ci) {
        const dw_case *t = &dw_cases[ci];
        const int f32 = (t->flags & F32) != 0;
        const uint32_t e = f32 ? 4u : 1u;
        rng_seed(0xd3c0u + ci * 104729u);
        const uint32_t oh = out_size(t->h, t->kh, t->sh, t->dh, t->pt, t->pb);
        const uint32_t ow = out_size(t->w, t->kw, t->sw, t->dw, t->pl, t->pr);
        const uint32_t n_out = oh * ow * t->c;
        fill(in_buf, t->h * t->w * t->c, f32);
        fill(w_buf, t->kh * t->kw * t->c, f32);
        fill_params(t->c, t->kh * t->kw, f32);
        uint32_t slices[3];
        const uint32_t ns = slice_sizes(t->c, slices);
        for (uint32_t k = 0; k < ns; ++k) {
            npurt_dwconv2d_csplit_args a = {{in_buf, w_buf, bias_buf, mult_buf, shift_buf, out_buf, t->h, t->w, t->c,
                                             t->kh, t->kw, t->sh, t->sw, t->dh, t->dw, t->pt, t->pl, t->pb, t->pr, -128,
                                             127, t->toh, t->flags, 0, NULL},
                                            slices[k]};
            a.dw.l1_bytes = npurt_dwconv2d_csplit_l1_bytes(&a);
            snprintf(name, sizeof name, "%s, slices of %lu", t->name, (unsigned long)slices[k]);
            set_guard(n_out * e);
            const uint64_t t0 = npu_cycles();
            npurt_dwconv2d_csplit(&a);
            const uint64_t t1 = npu_cycles();
            ref_dwconv2d(&a.dw, ref_buf);
            uint32_t compared = 0;
            uint32_t wrong = compare(name, out_buf, ref_buf, n_out, e, &compared) + check_guard(n_out * e);
            report(name, compared, n_out, wrong, t1 - t0, a.dw.l1_bytes);
            check_l1_freed(name);
        }
    }
    for (unsigned ci = 0; ci < sizeof pool_cases / sizeof pool_cases[0]; ++ci) {
        const pool_case *t = &pool_cases[ci];
        const int f32 = (t->flags & F32) != 0;
        const uint32_t eo = (f32 || t->mode == NPURT_POOL_SUM) ? 4u : 1u;
        rng_seed(0x9001u + ci * 15485863u);
        const uint32_t oh = out_size(t->h, t->kh, t->sh, 1, t->pt, t->pb);
        const uint32_t ow = out_size(t->w, t->kw, t->sw, 1, t->pl, t->pr);
        const uint32_t n_out = oh * ow * t->c;
        fill(in_buf, t->h * t->w * t->c, f32);
        const int32_t avg_mult = (int32_t)((1u << 30) / (t->kh * t->kw));
        uint32_t slices[3];
        const uint32_t ns = slice_sizes(t->c, slices);
        for (uint32_t k = 0; k < ns; ++k) {
            npurt_pool2d_csplit_args a = {{in_buf, out_buf, t->h, t->w, t->c, t->kh, t->kw, t->sh, t->sw, t->pt, t->pl,
                                           t->pb, t->pr, t->mode, avg_mult, 30, -128, 127, (float)(t->kh * t->kw), t->toh,
                                           t->flags, 0, NULL},
                                          slices[k]};
            a.pool.l1_bytes = npurt_pool2d_csplit_l1_bytes(&a);
            snprintf(name, sizeof name, "%s, slices of %lu", t->name, (unsigned long)slices[k]);
            set_guard(n_out * eo);
            const uint64_t t0 = npu_cycles();
            npurt_pool2d_csplit(&a);
            const uint64_t t1 = npu_cycles();
            ref_pool2d(&a.pool, ref_buf);
            uint32_t compared = 0;
            uint32_t wrong = compare(name, out_buf, ref_buf, n_out, eo, &compared) + check_guard(n_out * eo);
            report(name, compared, n_out, wrong, t1 - t0, a.pool.l1_bytes);
            check_l1_freed(name);
        }
    }
    printf("npurt_conv csplit: compared %lu of %lu elements, %lu mismatches\n", (unsigned long)total,
           (unsigned long)expected, (unsigned long)bad);
    if (total == 0 || total != expected) return fail("not every element was compared");
    if (bad) return fail("mismatches");
    printf("PASS\n");
    return 0;
}
#endif
#endif

#ifdef NPURT_CONV_TEST_CYCLES
/* ResNet-8 stack 1: 32x32x16 -> 16, 3x3 s1 pad 1; DS-CNN: 25x5x64 -> 64 1x1;
 * DS-CNN's depthwise 3x3 on 25x5x64 twice: npurt_dwconv2d on the workers, and
 * npurt_conv2d on the SA with the depthwise weights on the diagonal of a
 * 3x3x64x64 kernel (zeros elsewhere) -- the same numbers, so the two outputs
 * are compared with each other as well as with the reference. */
static int8_t rn_in[32 * 32 * 16], rn_w[3 * 3 * 16 * 16], rn_out[32 * 32 * 16], rn_ref[32 * 32 * 16];
static int8_t ds_in[25 * 5 * 64], ds_w[64 * 64], ds_out[25 * 5 * 64], ds_ref[25 * 5 * 64];
static int8_t dw_w[3 * 3 * 64], dw_diag[3 * 3 * 64 * 64], dw_out[25 * 5 * 64], dw_sa_out[25 * 5 * 64];

static void print_rate(const char *name, const char *tiles, uint32_t l1, uint64_t c, uint64_t macs) {
    printf("%s: %s, L1 %lu B: %lu cycles, %lu MACs, %lu.%02lu MAC/cycle\n", name, tiles, (unsigned long)l1,
           (unsigned long)c, (unsigned long)macs, (unsigned long)(macs / c), (unsigned long)((macs % c) * 100 / c));
}

static void run_layer(const char *name, npurt_conv2d_args *a, uint32_t n_out, const int8_t *out, int8_t *ref,
                      uint64_t macs, uint32_t *compared, uint32_t *wrong) {
    a->l1_bytes = npurt_conv2d_l1_bytes(a);
    npurt_region_begin(name);
    const uint64_t t0 = npu_cycles();
    npurt_conv2d(a);
    const uint64_t c = npu_cycles() - t0;
    npurt_region_end(name);
    ref_conv2d(a, ref);
    uint32_t n = 0;
    *wrong += compare(name, out, ref, n_out, 1, &n);
    *compared += n;
    char tiles[48];
    snprintf(tiles, sizeof tiles, "tiles %lu rows x %lu channels", (unsigned long)a->tile_oh,
             (unsigned long)a->tile_cout);
    print_rate(name, tiles, a->l1_bytes, c, macs);
}

int main(void) {
    rng_seed(8);
    fill(rn_in, sizeof rn_in, 0);
    fill(rn_w, sizeof rn_w, 0);
    fill_params(16, 144, 0);
    uint32_t compared = 0, wrong = 0, expected = 0;
    npurt_conv2d_args rn = {rn_in, rn_w, bias_buf, mult_buf, shift_buf, NULL, rn_out, 32, 32, 16, 16, 3, 3, 1, 1, 1, 1,
                            1, 1, 1, 1, -128, 127, 0, 0, 4, 16, PC | RELU, 0, NULL};
    run_layer("resnet8 conv 3x3 32x32x16->16", &rn, sizeof rn_out, rn_out, rn_ref, 32ull * 32 * 16 * 16 * 9, &compared,
              &wrong);
    expected += sizeof rn_out;
    fill(ds_in, sizeof ds_in, 0);
    fill(ds_w, sizeof ds_w, 0);
    fill_params(64, 64, 0);
    npurt_conv2d_args ds = {ds_in, ds_w, bias_buf, mult_buf, shift_buf, NULL, ds_out, 25, 5, 64, 64, 1, 1, 1, 1, 1, 1,
                            0, 0, 0, 0, -128, 127, 0, 0, 25, 64, PC | RELU, 0, NULL};
    run_layer("ds-cnn pointwise 25x5x64->64", &ds, sizeof ds_out, ds_out, ds_ref, 25ull * 5 * 64 * 64, &compared,
              &wrong);
    expected += sizeof ds_out;

    /* Depthwise: the worker kernel, then the same layer on the SA. */
    fill(dw_w, sizeof dw_w, 0);
    fill_params(64, 9, 0);
    for (uint32_t k = 0; k < 9; ++k)
        for (uint32_t c = 0; c < 64; ++c) dw_diag[(k * 64 + c) * 64 + c] = dw_w[k * 64 + c];
    npurt_dwconv2d_args dw = {ds_in, dw_w, bias_buf, mult_buf, shift_buf, dw_out, 25, 5, 64, 3, 3, 1, 1, 1, 1,
                              1, 1, 1, 1, -128, 127, 5, PC | RELU, 0, NULL};
    dw.l1_bytes = npurt_dwconv2d_l1_bytes(&dw);
    npurt_region_begin("ds-cnn depthwise 3x3 25x5x64 workers");
    uint64_t t0 = npu_cycles();
    npurt_dwconv2d(&dw);
    const uint64_t c_dw = npu_cycles() - t0;
    npurt_region_end("ds-cnn depthwise 3x3 25x5x64 workers");
    print_rate("ds-cnn depthwise 3x3 25x5x64 (npurt_dwconv2d)", "tiles 5 rows", dw.l1_bytes, c_dw, 25ull * 5 * 64 * 9);
    npurt_conv2d_args dsa = {ds_in, dw_diag, bias_buf, mult_buf, shift_buf, NULL, dw_sa_out, 25, 5, 64, 64, 3, 3, 1, 1,
                             1, 1, 1, 1, 1, 1, -128, 127, 0, 0, 5, 64, PC | RELU, 0, NULL};
    run_layer("ds-cnn depthwise 3x3 25x5x64 as a diagonal conv2d (npurt_conv2d)", &dsa, sizeof dw_sa_out, dw_sa_out,
              ds_ref, 25ull * 5 * 64 * 9, &compared, &wrong);
    expected += sizeof dw_sa_out;
    uint32_t n = 0;
    wrong += compare("npurt_dwconv2d vs the diagonal conv2d", dw_out, dw_sa_out, sizeof dw_out, 1, &n);
    compared += n;
    expected += sizeof dw_out;

    printf("npurt_conv cycles: compared %lu of %lu elements, %lu mismatches\n", (unsigned long)compared,
           (unsigned long)expected, (unsigned long)wrong);
    if (compared == 0 || compared != expected) return fail("not every element was compared");
    if (wrong) return fail("mismatches");
    printf("PASS\n");
    return 0;
}
#endif

#if defined(NPURT_CONV_TEST_L1_FAIL) || defined(NPURT_CONV_TEST_UNCHECKED_L1)
/* ResNet-8's 32x32x16 -> 16 3x3 layer with 8-row tiles: 127424 bytes of L1,
 * more than the free L1 of gap9 (112636 bytes). */
static int8_t f_in[32 * 32 * 16], f_w[3 * 3 * 16 * 16], f_out[32 * 32 * 16];
int main(void) {
    fill(f_in, sizeof f_in, 0);
    fill(f_w, sizeof f_w, 0);
    fill_params(16, 144, 0);
#ifdef NPURT_CONV_TEST_UNCHECKED_L1
    const uint32_t flags = PC | NPURT_CONV_UNCHECKED_L1;
#else
    const uint32_t flags = PC;
#endif
    npurt_conv2d_args a = {f_in, f_w, bias_buf, mult_buf, shift_buf, NULL, f_out, 32, 32, 16, 16, 3, 3, 1, 1, 1, 1,
                           1, 1, 1, 1, -128, 127, 0, 0, 8, 16, flags, 0, NULL};
    a.l1_bytes = npurt_conv2d_l1_bytes(&a);
    printf("npurt_conv2d with l1_bytes %lu, flags 0x%lx\n", (unsigned long)a.l1_bytes, (unsigned long)flags);
    npurt_conv2d(&a);
    printf("not reached\n");
    return 0;
}
#endif

#ifdef NPURT_CONV_TEST_L1_SMALL
static int8_t s_in[8 * 8 * 8], s_w[3 * 3 * 8 * 8], s_out[8 * 8 * 8];
int main(void) {
    fill(s_in, sizeof s_in, 0);
    fill(s_w, sizeof s_w, 0);
    fill_params(8, 72, 0);
    npurt_conv2d_args a = {s_in, s_w, bias_buf, mult_buf, shift_buf, NULL, s_out, 8, 8, 8, 8, 3, 3, 1, 1, 1, 1,
                           1, 1, 1, 1, -128, 127, 0, 0, 8, 8, PC, 0, NULL};
    a.l1_bytes = npurt_conv2d_l1_bytes(&a) - 4u;
    printf("npurt_conv2d with l1_bytes %lu\n", (unsigned long)a.l1_bytes);
    npurt_conv2d(&a);
    printf("not reached\n");
    return 0;
}
#endif
