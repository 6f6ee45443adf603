/* Tests of libnpurt.a (compiler/runtime/npurt.h) on npusim. One source, one
 * program per mode (CMake DEFINES):
 *
 *   NPURT_TEST_MATMUL      npurt_matmul on seeded pseudo-random matrices:
 *                          int8 and f32, B in L2 and in L3 (row-major, and
 *                          in column panels: npurt_matmul_panels),
 *                          accumulate on and
 *                          off, edge tiles, n < SA columns, k < SA rows,
 *                          tm = 1, a tiny L1 budget; EVERY element compared
 *                          with a plain C reference on the cluster controller
 *                          (int8 exact; f32 bit-exact with fmaf in k order, as
 *                          docs/sa.md specifies the array); guard words after
 *                          C checked untouched; npurt_copy L2 <-> L3 checked.
 *                          Then npurt_matmul_ep (the fused epilogue): f32
 *                          with and without bias and ReLU, int8 per-tensor
 *                          and per-channel requantisation with clamps, B in
 *                          L3, edge tiles, rows < workers and rows >=
 *                          workers; every output element compared with the
 *                          reference matmul + npurt_conv.h's epilogue.
 *   NPURT_TEST_CYCLES      64x256x784 int8 with B in L2 and in L3: cycles of
 *                          both calls (npu_cycles), both results compared.
 *   NPURT_TEST_PARALLEL    npurt_parallel: each worker writes its id into a
 *                          slot; every slot checked, twice.
 *   NPURT_TEST_DIRECT_L3   fault injection 'l3-as-l2' (NPURT_DIRECT_L3): the
 *                          DMA refuses the L3 -> L1 push (npusim exit 3).
 *   NPURT_TEST_UNCHECKED_L1  fault injection 'unchecked-l1-alloc': l1_bytes
 *                          larger than L1 and NPURT_UNCHECKED_L1: the DMA
 *                          writes to NULL + offset (npusim exit 3).
 *   NPURT_TEST_L1_FAIL     the same allocation checked: the kernel's message
 *                          and exit(99) (npusim exit 1).
 *   NPURT_TEST_BAD_SHIFT   npurt_matmul_ep with a per-channel shift of 63 (past
 *                          npurt_rq's 0..62) in channel 37: the kernel's
 *                          message naming it, exit 1.
 *   NPURT_TEST_PANELS_L2   npurt_matmul_panels with B in L2: the kernel's
 *                          message (column panels need NPURT_B_IN_L3), exit 1. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npu_l1_plan.h"
#include "npurt.h"
#include "npurt_conv.h"

static uint32_t rng_state;
static void rng_seed(uint32_t s) { rng_state = s ? s : 0x9e3779b9u; }
static uint32_t rng(void) {
    /* xorshift32 */
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x;
}
static int8_t rng_i8(void) { return (int8_t)(rng() >> 24); }
/* Uniform in (-4, 4) with a full 24-bit mantissa: products and sums round. */
static __attribute__((unused)) float rng_f32(void) { return (float)(int32_t)rng() * (4.0f / 2147483648.0f); }

static __attribute__((unused)) int fail(const char *what) {
    printf("FAIL: %s\n", what);
    return 1;
}

#if defined(NPURT_TEST_MATMUL) || defined(NPURT_TEST_CYCLES)

/* Reference: C (=|+=) A * B on the core, k ascending. */
static void ref_i8(const int8_t *a, const int8_t *b, int32_t *c, uint32_t m, uint32_t n, uint32_t k, int acc) {
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            uint32_t s = acc ? (uint32_t)c[i * n + j] : 0u; /* wraps like the SA */
            for (uint32_t kk = 0; kk < k; ++kk) s += (uint32_t)((int32_t)a[i * k + kk] * (int32_t)b[kk * n + j]);
            c[i * n + j] = (int32_t)s;
        }
}

static void ref_f32(const float *a, const float *b, float *c, uint32_t m, uint32_t n, uint32_t k, int acc) {
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            float s = acc ? c[i * n + j] : 0.0f;
            for (uint32_t kk = 0; kk < k; ++kk) s = __builtin_fmaf(a[i * k + kk], b[kk * n + j], s);
            c[i * n + j] = s;
        }
}

/* Bitwise comparison (f32 too: the SA is bit-exact with the fmaf order). */
static uint32_t compare_words(const char *label, const uint32_t *got, const uint32_t *want, uint32_t m, uint32_t n,
                              uint32_t *compared) {
    uint32_t bad = 0;
    for (uint32_t i = 0; i < m * n; ++i) {
        ++*compared;
        if (got[i] != want[i]) {
            if (bad < 4)
                printf("  %s: mismatch at [%lu][%lu]: got 0x%08lx expected 0x%08lx\n", label, (unsigned long)(i / n),
                       (unsigned long)(i % n), (unsigned long)got[i], (unsigned long)want[i]);
            ++bad;
        }
    }
    return bad;
}

static uint32_t planned_l1(uint32_t tm, uint32_t tn, uint32_t tk, int f32) {
    const uint32_t e = f32 ? 4u : 1u;
    return 2u * (tm * tk * e) + 2u * (tk * tn * e) + 2u * (tm * tn * 4u);
}
#endif

#ifdef NPURT_TEST_MATMUL

#define MAX_A (64 * 200 * 4)
#define MAX_B (200 * 200 * 4)
#define MAX_C (64 * 200)
#define GUARD 16
#define GUARD_WORD 0xdeadbeefu

static uint32_t a_l2[MAX_A / 4];
static uint32_t b_l2[MAX_B / 4];
static uint32_t b_l3[MAX_B / 4] NPU_L3_DATA;
static uint32_t b_back[MAX_B / 4];
static uint32_t b_pk[MAX_B / 4]; /* B in column panels (npurt_matmul_panels) */
static uint32_t c_l2[MAX_C + GUARD];
static uint32_t ref[MAX_C];

typedef struct {
    const char *name;
    uint32_t m, n, k, tm, tn, tk, flags;
    uint32_t l1_bytes; /* 0: the planned working set */
} mm_case;

#define I8 0u
#define F32 NPURT_F32
#define ACC NPURT_ACCUMULATE
#define L3 NPURT_B_IN_L3
/* Not an npurt flag: the case calls npurt_matmul_panels / npurt_matmul_ep_panels. */
#define PAN 0x80000000u

/* B (k x n, row-major, e-byte elements) in column panels of tn columns
 * (npurt_matmul_panels; tn larger than n shrinks to it, as in npurt_matmul):
 * what npuc does to constant weights in L3. */
static void pack_panels(uint32_t *dst, const uint32_t *src, uint32_t k, uint32_t n, uint32_t tn, uint32_t e) {
    if (tn > n) tn = n;
    char *out = (char *)dst;
    for (uint32_t j0 = 0; j0 < n; j0 += tn) {
        const uint32_t w = (n - j0 < tn ? n - j0 : tn) * e;
        for (uint32_t r = 0; r < k; ++r, out += w) memcpy(out, (const char *)src + ((size_t)r * n + j0) * e, w);
    }
}

static const mm_case cases[] = {
    /* int8 */
    {"int8 37x45x70 tiles 16x16x32 (edges in m, n, k)", 37, 45, 70, 16, 16, 32, I8, 0},
    {"int8 37x45x70 tiles 16x16x32, B in L3", 37, 45, 70, 16, 16, 32, I8 | L3, 0},
    {"int8 37x45x70 tiles 16x16x32, accumulate", 37, 45, 70, 16, 16, 32, I8 | ACC, 0},
    {"int8 5x200x33 tiles 4x64x16, B in L3, accumulate", 5, 200, 33, 4, 64, 16, I8 | L3 | ACC, 0},
    {"int8 20x7x50 tiles 8x7x16 (n < SA cols)", 20, 7, 50, 8, 7, 16, I8, 0},
    {"int8 20x7x50 tiles 8x7x16 (n < SA cols), B in L3", 20, 7, 50, 8, 7, 16, I8 | L3, 0},
    {"int8 24x40x9 tiles 8x32x9 (k < SA rows)", 24, 40, 9, 8, 32, 9, I8, 0},
    {"int8 13x48x40 tiles 1x16x16 (tm = 1), accumulate", 13, 48, 40, 1, 16, 16, I8 | ACC, 0},
    {"int8 1x33x17 tiles 1x32x16 (m = 1), B in L3", 1, 33, 17, 1, 32, 16, I8 | L3, 0},
    {"int8 64x64x64 tiles 4x16x16, 1152 B of L1", 64, 64, 64, 4, 16, 16, I8 | L3, 1152},
    {"int8 8x96x40 tiles 8x32x40 (A loaded once), B in L3", 8, 96, 40, 8, 32, 40, I8 | L3, 0},
    {"int8 32x64x24 tiles 16x16x24 (k in one tile)", 32, 64, 24, 16, 16, 24, I8, 0},
    {"int8 16x16x16 one tile, accumulate", 16, 16, 16, 16, 16, 16, I8 | ACC, 0},
    {"int8 20x30x40 tiles larger than the matrix", 20, 30, 40, 64, 64, 64, I8, 0},
    /* f32 */
    {"f32 19x23x29 tiles 8x16x16 (edges in m, n, k)", 19, 23, 29, 8, 16, 16, F32, 0},
    {"f32 19x23x29 tiles 8x16x16, B in L3", 19, 23, 29, 8, 16, 16, F32 | L3, 0},
    {"f32 19x23x29 tiles 8x16x16, B in L3, accumulate", 19, 23, 29, 8, 16, 16, F32 | L3 | ACC, 0},
    {"f32 30x5x70 tiles 16x5x32 (n < SA cols), accumulate", 30, 5, 70, 16, 5, 32, F32 | ACC, 0},
    {"f32 17x40x11 tiles 8x32x11 (k < SA rows), B in L3", 17, 40, 11, 8, 32, 11, F32 | L3, 0},
    {"f32 9x50x48 tiles 1x16x16 (tm = 1)", 9, 50, 48, 1, 16, 16, F32, 0},
    {"f32 48x48x96 tiles 4x16x16, 3072 B of L1, B in L3", 48, 48, 96, 4, 16, 16, F32 | L3, 3072},
    {"f32 64x200x100 tiles 32x64x48, B in L3, accumulate", 64, 200, 100, 32, 64, 48, F32 | L3 | ACC, 0},
    /* B in L3 in column panels (npurt_matmul_panels): the last panel narrower, the last k tile shorter, one
     * panel. */
    {"int8 37x45x70 tiles 16x16x32, B in panels in L3", 37, 45, 70, 16, 16, 32, I8 | L3 | PAN, 0},
    {"int8 5x200x33 tiles 4x64x16, B in panels in L3, accumulate", 5, 200, 33, 4, 64, 16, I8 | L3 | ACC | PAN, 0},
    {"int8 20x30x40 tiles larger than the matrix, B in panels in L3", 20, 30, 40, 64, 64, 64, I8 | L3 | PAN, 0},
    {"f32 19x23x29 tiles 8x16x16, B in panels in L3", 19, 23, 29, 8, 16, 16, F32 | L3 | PAN, 0},
    {"f32 64x200x100 tiles 32x64x48, B in panels in L3, accumulate", 64, 200, 100, 32, 64, 48,
     F32 | L3 | ACC | PAN, 0},
};

static void fill(uint32_t *dst, uint32_t count_bytes, int f32);

/* npurt_matmul_ep cases: flags as above plus RELU / PER_CHANNEL; bias on or off. */
typedef struct {
    const char *name;
    uint32_t m, n, k, tm, tn, tk, flags;
    int bias;
    int32_t act_min, act_max;
} ep_case;

#define RELU NPURT_RELU
#define PC NPURT_PER_CHANNEL

static const ep_case ep_cases[] = {
    {"ep f32 4x70x50 tiles 4x32x16, bias, relu (rows < workers)", 4, 70, 50, 4, 32, 16, F32 | RELU, 1, 0, 0},
    {"ep f32 19x23x29 tiles 8x16x16, bias, B in L3", 19, 23, 29, 8, 16, 16, F32 | L3, 1, 0, 0},
    {"ep f32 12x40x20 tiles 12x40x20, no bias, relu (rows >= workers)", 12, 40, 20, 12, 40, 20, F32 | RELU, 0, 0, 0},
    {"ep int8 4x70x50 tiles 4x32x16, per tensor, relu", 4, 70, 50, 4, 32, 16, I8 | RELU, 1, -128, 127},
    {"ep int8 37x45x70 tiles 16x16x32, per channel, clamp -20..90", 37, 45, 70, 16, 16, 32, I8 | PC, 1, -20, 90},
    {"ep int8 5x200x33 tiles 4x64x16, per channel, relu, B in L3", 5, 200, 33, 4, 64, 16, I8 | PC | RELU | L3, 1, -128,
     127},
    {"ep int8 1x33x17 tiles 1x32x16, no bias, per tensor", 1, 33, 17, 1, 32, 16, I8, 0, -128, 127},
    {"ep int8 9x40x24 tiles 9x16x24, per channel, relu, parameters in L2", 9, 40, 24, 9, 16, 24,
     I8 | PC | RELU | NPURT_PARAMS_IN_L2, 1, -128, 127},
    {"ep f32 9x40x24 tiles 4x16x24, bias, parameters in L2", 9, 40, 24, 4, 16, 24, F32 | NPURT_PARAMS_IN_L2, 1, 0, 0},
    {"ep f32 4x70x50 tiles 4x32x16, bias, relu, B in panels in L3", 4, 70, 50, 4, 32, 16, F32 | RELU | L3 | PAN, 1,
     0, 0},
    {"ep int8 5x200x33 tiles 4x64x16, per channel, relu, B in panels in L3", 5, 200, 33, 4, 64, 16,
     I8 | PC | RELU | L3 | PAN, 1, -128, 127},
};

static uint32_t ep_bias[200], ep_mult[200], ep_shift[200];
static uint32_t ep_out[MAX_C + GUARD];

static int run_ep_cases(uint32_t *total, uint32_t *expected) {
    uint32_t bad = 0;
    for (unsigned ci = 0; ci < sizeof ep_cases / sizeof ep_cases[0]; ++ci) {
        const ep_case *t = &ep_cases[ci];
        const int f32 = (t->flags & NPURT_F32) != 0, pc = (t->flags & PC) != 0, relu = (t->flags & RELU) != 0;
        const uint32_t e = f32 ? 4u : 1u;
        rng_seed(0x7654321u + ci * 104729u);
        fill(a_l2, t->m * t->k * e, f32);
        fill(b_l2, t->k * t->n * e, f32);
        for (uint32_t j = 0; j < t->n; ++j) {
            if (f32)
                ((float *)ep_bias)[j] = rng_f32() * 64.0f;
            else
                ep_bias[j] = (uint32_t)((int32_t)(rng() >> 16) - 32768);
            /* The shifts of real layers (~2^30 / 2^38) and small ones (the rq's other branch). */
            ep_mult[j] = 0x40000000u + (rng() >> 3);
            ep_shift[j] = (j & 3u) ? 38u + (rng() & 3u) : 10u + (rng() & 7u);
            if (!pc && j == 0) ep_mult[0] >>= 12;
        }
        const uint32_t bytes = t->m * t->n * e;
        memset(ep_out, 0x5a, sizeof ep_out);
        const uint32_t *b_src = b_l2;
        if (t->flags & PAN) {
            b_src = b_pk;
            pack_panels(b_pk, b_l2, t->k, t->n, t->tn, e);
        }
        const void *b = b_src;
        if (t->flags & NPURT_B_IN_L3) {
            npurt_copy(b_l3, b_src, t->k * t->n * e);
            b = b_l3;
        }
        const uint32_t tm = t->tm < t->m ? t->tm : t->m, tn = t->tn < t->n ? t->tn : t->n,
                       tk = t->tk < t->k ? t->tk : t->k;
        npurt_matmul_ep_args args = {a_l2, b, ep_out, t->bias ? ep_bias : NULL, (const int32_t *)ep_mult,
                                     (const int32_t *)ep_shift, t->m, t->n, t->k, t->tm, t->tn, t->tk,
                                     t->act_min, t->act_max, t->flags & ~PAN, 0, NULL};
        const int in_l1 = !(t->flags & NPURT_PARAMS_IN_L2);
        args.l1_bytes = NPU_L1_WORKING_SET(tm, tn, tk, e, e, 4u) +
                        NPU_L1_EPILOGUE_BYTES(tm, tn, e, t->n, in_l1 && t->bias != 0, in_l1 && !f32 && pc);
        npurt_region_begin("npurt_matmul_ep cases");
        if (t->flags & PAN)
            npurt_matmul_ep_panels(&args);
        else
            npurt_matmul_ep(&args);
        npurt_region_end("npurt_matmul_ep cases");

        /* The reference: the plain matmul, then the epilogue of npurt_conv.h. */
        if (f32)
            ref_f32((const float *)a_l2, (const float *)b_l2, (float *)ref, t->m, t->n, t->k, 0);
        else
            ref_i8((const int8_t *)a_l2, (const int8_t *)b_l2, (int32_t *)ref, t->m, t->n, t->k, 0);
        uint32_t wrong = 0, compared = 0;
        for (uint32_t i = 0; i < t->m * t->n; ++i) {
            const uint32_t j = i % t->n;
            uint32_t want, got;
            if (f32) {
                float v = ((float *)ref)[i];
                if (t->bias) v = v + ((float *)ep_bias)[j];
                if (relu && !(v > 0.0f) && v == v) v = 0.0f;
                memcpy(&want, &v, 4);
                got = ep_out[i];
            } else {
                const uint32_t q = pc ? j : 0u;
                int32_t a = (int32_t)(ref[i] + (t->bias ? ep_bias[j] : 0u));
                int64_t v = npurt_rq(a, (int32_t)ep_mult[q], (int32_t)ep_shift[q]);
                const int32_t lo = relu && t->act_min < 0 ? 0 : t->act_min;
                v = (int32_t)v < lo ? lo : (int32_t)v > t->act_max ? t->act_max : (int32_t)v;
                want = (uint8_t)(int8_t)v;
                got = ((uint8_t *)ep_out)[i];
            }
            ++compared;
            if (got != want) {
                if (wrong < 4)
                    printf("  %s: mismatch at [%lu][%lu]: got 0x%08lx expected 0x%08lx\n", t->name,
                           (unsigned long)(i / t->n), (unsigned long)j, (unsigned long)got, (unsigned long)want);
                ++wrong;
            }
        }
        for (uint32_t g = bytes; g < bytes + 16u; ++g)
            if (((uint8_t *)ep_out)[g] != 0x5a) {
                printf("  %s: byte %lu after the output overwritten\n", t->name, (unsigned long)g);
                ++wrong;
                break;
            }
        printf("%s: compared %lu of %lu elements, %lu mismatches\n", t->name, (unsigned long)compared,
               (unsigned long)(t->m * t->n), (unsigned long)wrong);
        *total += compared;
        *expected += t->m * t->n;
        bad += wrong;
    }
    return (int)bad;
}

static void fill(uint32_t *dst, uint32_t count_bytes, int f32) {
    if (f32) {
        float *f = (float *)dst;
        for (uint32_t i = 0; i < count_bytes / 4; ++i) f[i] = rng_f32();
    } else {
        int8_t *b = (int8_t *)dst;
        for (uint32_t i = 0; i < count_bytes; ++i) b[i] = rng_i8();
    }
}

int main(void) {
    const unsigned rows = npu_sa_rows(), cols = npu_sa_cols();
    printf("npurt test: SA %ux%u, %u workers, largest free L1 block %u bytes\n", rows, cols, npu_nb_workers(),
           (unsigned)npu_l1_free_bytes());
    const size_t l1_free_before = npu_l1_free_bytes();
    uint32_t total = 0, expected = 0, bad = 0;

    for (unsigned ci = 0; ci < sizeof cases / sizeof cases[0]; ++ci) {
        const mm_case *t = &cases[ci];
        const int f32 = (t->flags & NPURT_F32) != 0;
        const uint32_t e = f32 ? 4u : 1u;
        rng_seed(0x1234567u + ci * 7919u);
        fill(a_l2, t->m * t->k * e, f32);
        fill(b_l2, t->k * t->n * e, f32);
        for (uint32_t i = 0; i < t->m * t->n; ++i) {
            if (f32)
                ((float *)c_l2)[i] = rng_f32();
            else
                c_l2[i] = rng();
        }
        for (uint32_t g = 0; g < GUARD; ++g) c_l2[t->m * t->n + g] = GUARD_WORD;
        memcpy(ref, c_l2, t->m * t->n * 4);
        /* The reference reads b_l2 (row-major) whatever the kernel is given. */
        const uint32_t *b_src = b_l2;
        if (t->flags & PAN) {
            b_src = b_pk;
            pack_panels(b_pk, b_l2, t->k, t->n, t->tn, e);
        }
        const void *b = b_src;
        if (t->flags & NPURT_B_IN_L3) {
            /* Cores cannot write L3: a DMA puts B there, and another brings it back to check the copy. */
            npurt_copy(b_l3, b_src, t->k * t->n * e);
            npurt_copy(b_back, b_l3, t->k * t->n * e);
            if (memcmp(b_back, b_src, t->k * t->n * e)) return fail("npurt_copy L2 -> L3 -> L2 changed the data");
            b = b_l3;
        }
        const uint32_t l1 = t->l1_bytes ? t->l1_bytes : planned_l1(t->tm < t->m ? t->tm : t->m,
                                                                      t->tn < t->n ? t->tn : t->n,
                                                                      t->tk < t->k ? t->tk : t->k, f32);
        npurt_region_begin(f32 ? "npurt f32 cases" : "npurt int8 cases");
        const uint64_t t0 = npu_cycles();
        if (t->flags & PAN)
            npurt_matmul_panels(a_l2, b, c_l2, t->m, t->n, t->k, t->tm, t->tn, t->tk, t->flags & ~PAN, l1, NULL);
        else
            npurt_matmul(a_l2, b, c_l2, t->m, t->n, t->k, t->tm, t->tn, t->tk, t->flags, l1, NULL);
        const uint64_t t1 = npu_cycles();
        npurt_region_end(f32 ? "npurt f32 cases" : "npurt int8 cases");

        if (f32)
            ref_f32((const float *)a_l2, (const float *)b_l2, (float *)ref, t->m, t->n, t->k, (t->flags & ACC) != 0);
        else
            ref_i8((const int8_t *)a_l2, (const int8_t *)b_l2, (int32_t *)ref, t->m, t->n, t->k, (t->flags & ACC) != 0);
        uint32_t compared = 0;
        uint32_t wrong = compare_words(t->name, c_l2, ref, t->m, t->n, &compared);
        for (uint32_t g = 0; g < GUARD; ++g)
            if (c_l2[t->m * t->n + g] != GUARD_WORD) {
                printf("  %s: guard word %lu after C overwritten\n", t->name, (unsigned long)g);
                ++wrong;
            }
        printf("%s: compared %lu of %lu elements, %lu mismatches, %lu cycles, L1 %lu B\n", t->name,
               (unsigned long)compared, (unsigned long)(t->m * t->n), (unsigned long)wrong, (unsigned long)(t1 - t0),
               (unsigned long)l1);
        total += compared;
        expected += t->m * t->n;
        bad += wrong;
        /* The kernel freed its L1 block: the largest block before the call
         * can be had again (the allocator merges free blocks on malloc). */
        void *again = npu_l1_malloc(l1_free_before);
        if (!again) {
            printf("  %s: L1 not freed (%u bytes could not be allocated again)\n", t->name, (unsigned)l1_free_before);
            ++bad;
        }
        npu_l1_free(again);
    }
    bad += (uint32_t)run_ep_cases(&total, &expected);
    printf("npurt_matmul: compared %lu of %lu elements, %lu mismatches\n", (unsigned long)total,
           (unsigned long)expected, (unsigned long)bad);
    if (total == 0 || total != expected) return fail("not every element was compared");
    if (bad) return fail("mismatches");
    printf("PASS\n");
    return 0;
}
#endif

#ifdef NPURT_TEST_CYCLES
/* The shape of a fully connected layer: 64 x 784 activations, 784 x 256 weights. */
#define M 64
#define N 256
#define K 784
#define TM 64
#define TN 64
#define TK 256

static int8_t a_l2[M * K];
static int8_t b_l2[K * N];
static int8_t b_l3[K * N] NPU_L3_DATA;
static int32_t c_l2[M * N], c_l3b[M * N], c_l3p[M * N], ref[M * N];
/* The two panel buffers as npuc plans them (no allocation at run time). */
static int8_t planned_stage[2 * K * TN];

/* The reference on the 8 workers (rows m = id, id + team, ...). */
static void ref_rows(void) {
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    for (uint32_t i = id; i < M; i += nw)
        for (uint32_t j = 0; j < N; ++j) {
            int32_t s = 0;
            for (uint32_t k = 0; k < K; ++k) s += (int32_t)a_l2[i * K + k] * b_l2[k * N + j];
            ref[i * N + j] = s;
        }
}

int main(void) {
    rng_seed(784);
    for (uint32_t i = 0; i < M * K; ++i) a_l2[i] = rng_i8();
    for (uint32_t i = 0; i < K * N; ++i) b_l2[i] = rng_i8();
    npurt_copy(b_l3, b_l2, sizeof b_l2);
    const uint32_t l1 = planned_l1(TM, TN, TK, 0);

    npurt_region_begin("npurt 64x256x784 B in L2");
    const uint64_t t0 = npu_cycles();
    npurt_matmul(a_l2, b_l2, c_l2, M, N, K, TM, TN, TK, 0, l1, NULL);
    const uint64_t t1 = npu_cycles();
    npurt_region_end("npurt 64x256x784 B in L2");

    npurt_region_begin("npurt 64x256x784 B in L3");
    const uint64_t t2 = npu_cycles();
    npurt_matmul(a_l2, b_l3, c_l3b, M, N, K, TM, TN, TK, NPURT_B_IN_L3, l1, NULL);
    const uint64_t t3 = npu_cycles();
    npurt_region_end("npurt 64x256x784 B in L3");

    npurt_region_begin("npurt 64x256x784 B in L3, planned stage");
    const uint64_t t6 = npu_cycles();
    npurt_matmul(a_l2, b_l3, c_l3p, M, N, K, TM, TN, TK, NPURT_B_IN_L3, l1, planned_stage);
    const uint64_t t7 = npu_cycles();
    npurt_region_end("npurt 64x256x784 B in L3, planned stage");

    /* What the two panel buffers' npu_l2_malloc calls cost by themselves
     * (picolibc's malloc clears every block it returns). */
    const uint64_t t4 = npu_cycles();
    void *p0 = npu_l2_malloc(K * TN), *p1 = npu_l2_malloc(K * TN);
    npu_l2_free(p0);
    npu_l2_free(p1);
    const unsigned long alloc = (unsigned long)(npu_cycles() - t4);

    npurt_parallel(ref_rows);
    uint32_t compared = 0, bad = 0;
    for (uint32_t i = 0; i < M * N; ++i) {
        compared += 3;
        bad += (c_l2[i] != ref[i]) + (c_l3b[i] != ref[i]) + (c_l3p[i] != ref[i]);
    }
    const unsigned long l2c = (unsigned long)(t1 - t0), l3c = (unsigned long)(t3 - t2);
    printf("npurt_matmul int8 %ux%ux%u tiles %ux%ux%u, L1 %lu B: B in L2 %lu cycles, B in L3 %lu cycles (%lu.%02lu x)\n",
           M, N, K, TM, TN, TK, (unsigned long)l1, l2c, l3c, l3c / l2c, (l3c % l2c) * 100 / l2c);
    printf("of the B in L3 call: %lu cycles are the two npu_l2_malloc(%u) of the panels, %lu the rest\n", alloc,
           K * TN, l3c > alloc ? l3c - alloc : 0ul);
    const unsigned long l3p = (unsigned long)(t7 - t6);
    printf("B in L3 with a planned L2 stage buffer (as npuc does): %lu cycles (%lu.%02lu x B in L2)\n", l3p,
           l3p / l2c, (l3p % l2c) * 100 / l2c);
    printf("MACs %lu: %lu.%02lu MAC/cycle with B in L2\n", (unsigned long)M * N * K,
           (unsigned long)M * N * K / l2c, ((unsigned long)M * N * K % l2c) * 100 / l2c);
    printf("npurt_matmul: compared %lu of %lu elements, %lu mismatches\n", (unsigned long)compared,
           (unsigned long)(3 * M * N), (unsigned long)bad);
    if (compared != 3 * M * N) return fail("not every element was compared");
    if (bad) return fail("mismatches");
    if (l3c <= l2c || l3p <= l2c) return fail("B in L3 was not slower than B in L2");
    printf("PASS\n");
    return 0;
}
#endif

#ifdef NPURT_TEST_PARALLEL
static volatile uint32_t slot[NPU_MAX_HARTS];
static volatile uint32_t team[NPU_MAX_HARTS];
static volatile uint32_t hart[NPU_MAX_HARTS];
static uint32_t round_tag;

static void write_slot(void) {
    const uint32_t id = npurt_worker_id();
    if (id < NPU_MAX_HARTS) {
        slot[id] = round_tag + id;
        team[id] = npurt_num_workers();
        hart[id] = npu_core_id();
    }
}

int main(void) {
    const uint32_t nw = npu_nb_workers();
    uint32_t checked = 0, bad = 0;
    if (npurt_worker_id() != 0 || npurt_num_workers() != 1) return fail("the controller is not worker 0 of 1");
    for (uint32_t r = 1; r <= 2; ++r) {
        round_tag = r * 1000u;
        for (uint32_t i = 0; i < NPU_MAX_HARTS; ++i) slot[i] = team[i] = hart[i] = 0xffffffffu;
        npurt_region_begin("npurt_parallel");
        npurt_parallel(write_slot);
        npurt_region_end("npurt_parallel");
        for (uint32_t i = 0; i < NPU_MAX_HARTS; ++i) {
            const int used = i < (nw ? nw : 1u);
            const uint32_t want = used ? round_tag + i : 0xffffffffu;
            ++checked;
            if (slot[i] != want || (used && (team[i] != (nw ? nw : 1u) || hart[i] != (nw ? i : npu_core_id())))) {
                printf("slot %lu: value %lu team %lu hart %lu\n", (unsigned long)i, (unsigned long)slot[i],
                       (unsigned long)team[i], (unsigned long)hart[i]);
                ++bad;
            }
        }
    }
    printf("npurt_parallel on %lu workers, 2 rounds: checked %lu slots, %lu wrong\n", (unsigned long)nw,
           (unsigned long)checked, (unsigned long)bad);
    if (checked == 0 || bad) return fail("npurt_parallel");
    printf("PASS\n");
    return 0;
}
#endif

#if defined(NPURT_TEST_DIRECT_L3) || defined(NPURT_TEST_UNCHECKED_L1) || defined(NPURT_TEST_L1_FAIL) || \
    defined(NPURT_TEST_BAD_SHIFT) || defined(NPURT_TEST_PANELS_L2)
static int8_t a_l2[64 * 64];
static int8_t b_l2[64 * 64];
static int8_t b_l3[64 * 64] NPU_L3_DATA;
static int32_t c_l2[64 * 64];

int main(void) {
    rng_seed(42);
    for (unsigned i = 0; i < sizeof a_l2; ++i) a_l2[i] = rng_i8();
    for (unsigned i = 0; i < sizeof b_l2; ++i) b_l2[i] = rng_i8();
#if defined(NPURT_TEST_BAD_SHIFT)
    (void)b_l3;
    static int32_t bias[64], mult[64], shift[64];
    static int8_t out[64 * 64];
    for (unsigned j = 0; j < 64; ++j) bias[j] = (int32_t)j, mult[j] = 1 << 30, shift[j] = j == 37 ? 63 : 38;
    npurt_matmul_ep_args args = {a_l2, b_l2, out, bias, mult, shift, 64, 64, 64, 16, 64, 64, -128, 127,
                                 NPURT_PER_CHANNEL, 0, NULL};
    args.l1_bytes = NPU_L1_WORKING_SET(16u, 64u, 64u, 1u, 1u, 4u) + NPU_L1_EPILOGUE_BYTES(16u, 64u, 1u, 64u, 1, 1);
    printf("npurt_matmul_ep with rq_shift[37] = 63\n");
    npurt_matmul_ep(&args);
#elif defined(NPURT_TEST_PANELS_L2)
    (void)b_l3;
    /* Column panels are read only by the staging: B in L2 is refused. */
    printf("npurt_matmul_panels with B in L2\n");
    npurt_matmul_panels(a_l2, b_l2, c_l2, 64, 64, 64, 32, 32, 32, 0, 2u * (1024 + 1024 + 4096), NULL);
#elif defined(NPURT_TEST_DIRECT_L3)
    npurt_copy(b_l3, b_l2, sizeof b_l2);
    printf("npurt_matmul with B in L3 at %p, flags B_IN_L3 | DIRECT_L3\n", (void *)b_l3);
    npurt_matmul(a_l2, b_l3, c_l2, 64, 64, 64, 32, 32, 32, NPURT_B_IN_L3 | NPURT_DIRECT_L3, 2u * (1024 + 1024 + 4096), NULL);
#else
    (void)b_l3;
    /* Twice the whole L1: the allocation must fail. */
    const uint32_t l1 = 256u * 1024u;
#ifdef NPURT_TEST_UNCHECKED_L1
    printf("npurt_matmul with l1_bytes %lu, flags UNCHECKED_L1\n", (unsigned long)l1);
    npurt_matmul(a_l2, b_l2, c_l2, 64, 64, 64, 64, 64, 64, NPURT_UNCHECKED_L1, l1, NULL);
#else
    printf("npurt_matmul with l1_bytes %lu\n", (unsigned long)l1);
    npurt_matmul(a_l2, b_l2, c_l2, 64, 64, 64, 64, 64, 64, 0, l1, NULL);
#endif
#endif
    printf("not reached\n");
    return 0;
}
#endif
