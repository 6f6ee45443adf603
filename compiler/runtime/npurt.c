/* npurt: runtime kernels called by npuc-generated firmware. The ABI and the
 * reasons behind the matmul schedule are in npurt.h. */
#include "npurt.h"
#include <malloc.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "npu.h"
#include "npu_l1_plan.h"
#include "npu_dma.h"
#include "npu_sa.h"
#include "npurt_internal.h"

/* Free bytes of the L2 heap: never handed out by sbrk + free chunks. */
extern char __heap_end[];
static uint32_t l2_free_bytes(void) {
    const char *brk = sbrk(0);
    uint32_t top = (brk != (void *)-1 && brk <= __heap_end) ? (uint32_t)(__heap_end - brk) : 0u;
    return top + (uint32_t)mallinfo().fordblks;
}

/* --- DMA helpers ----------------------------------------------------------------
 * always_inline: the PUSH load, whose PC npusim's DMA reports name, stays in
 * the function that moves the tile (npurt_load_tiles, npurt_stage_panel,
 * npurt_matmul, npurt_copy; kept out of line for that reason) rather than in
 * a helper shared by all. A transfer id is -1 when nothing is pending. */

static inline __attribute__((always_inline)) int dma_2d(const char *what, void *dst, const void *src,
                                                        uint32_t row_bytes, uint32_t rows, uint32_t src_stride,
                                                        uint32_t dst_stride) {
    int id;
    if (rows == 1 || (src_stride == row_bytes && dst_stride == row_bytes))
        id = npu_dma_copy_1d(dst, src, row_bytes * rows);
    else
        id = npu_dma_copy_2d(dst, src, row_bytes, rows, src_stride, dst_stride);
    if (id < 0)
        npurt_die(1, "npurt_matmul: DMA refused the %s transfer 0x%08lx -> 0x%08lx (%lu rows of %lu B): error info 0x%lx",
                  what, (unsigned long)(uintptr_t)src, (unsigned long)(uintptr_t)dst, (unsigned long)rows,
                  (unsigned long)row_bytes, (unsigned long)npu_dma_error_info());
    return id;
}

/* --- matmul ---------------------------------------------------------------------- */

/* A panel is staged as up to this many row ranges on separate DMA channels:
 * an L3 burst pays the memory's latency (100 cycles on gap9) and a channel
 * has one read outstanding, so a single transfer of narrow rows is latency
 * bound; a few in parallel share the L3 port instead. */
#define NPURT_STAGE_CHUNKS_MAX 4u

/* npurt_matmul_ep's epilogue: its parameters (L1 copies, or where they are
 * with NPURT_PARAMS_IN_L2) and the workers' task, one C tile at a time. */
typedef struct {
    int f32, relu, per_channel;
    int32_t act_min, act_max; /* int8; NPURT_RELU already folded into act_min */
    const int32_t *bias, *mult, *shift;
    int prm_id[3];            /* the parameters' transfers, waited during the first SA job */
    uint32_t bad_shift;       /* a worker met rq_shift[bad_shift - 1] outside 0..62 (0: none) */
    char *obuf[2];
    char *out;
    uint32_t eo;
    /* the current task: C tile c (mr x nr, dense) -> output tile o, columns from j0 */
    const char *c;
    char *o;
    uint32_t j0, mr, nr;
} mm_ep;

/* The npurt_parallel job reads its task from here (one matmul at a time runs
 * on the cluster). In a section of its own: a firmware that never calls
 * npurt_matmul_ep does not keep it. */
static const mm_ep *mm_ep_cur __attribute__((section(".bss.npurt_mm_ep_cur")));

/* The workers' part of the epilogue (npurt.h): rows p = id, id + nw, ... of
 * the tile, or, for a tile of fewer rows than workers (a batch of a few
 * vectors), its columns n = id, id + nw, ..., so that every worker has work
 * and the workers' words fall in different banks. Channel outer: the
 * channel's parameters stay in registers. */
static void mm_ep_worker(void) {
    const mm_ep *e = mm_ep_cur;
    const uint32_t id = npurt_worker_id(), nw = npurt_num_workers();
    const uint32_t mr = e->mr, nr = e->nr;
    const int by_rows = mr >= nw;
    const uint32_t n0 = by_rows ? 0u : id, nstep = by_rows ? 1u : nw, r0 = by_rows ? id : 0u, rstep = by_rows ? nw : 1u;
    const uint32_t step = rstep * nr;
    if (e->f32) {
        /* One loop per form, so that the element loop tests nothing but the
         * value (the workers' instructions are the epilogue's cycles). */
        const float *bias = (const float *)e->bias;
        const int relu = e->relu;
        for (uint32_t n = n0; n < nr; n += nstep) {
            const float *c = (const float *)e->c + r0 * nr + n;
            float *o = (float *)e->o + r0 * nr + n;
            const float b = bias ? bias[e->j0 + n] : 0.0f;
            /* arith.maximumf(v, +0.0): NaN stays NaN, -0.0 becomes +0.0. */
            if (bias && relu)
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) {
                    const float v = *c + b;
                    *o = (v > 0.0f || v != v) ? v : 0.0f;
                }
            else if (bias)
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) *o = *c + b;
            else if (relu)
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) {
                    const float v = *c;
                    *o = (v > 0.0f || v != v) ? v : 0.0f;
                }
            else
                for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) *o = *c;
        }
        return;
    }
    const int32_t lo = e->act_min, hi = e->act_max;
    for (uint32_t n = n0; n < nr; n += nstep) {
        const uint32_t ch = e->j0 + n, pc = e->per_channel ? ch : 0u;
        const int32_t b = e->bias ? e->bias[ch] : 0, m = e->mult[pc], sh = e->shift[pc];
        /* npurt_rq's range; the controller reports it after the join (a
         * check here costs nothing: the shift is in a register anyway). */
        if ((uint32_t)sh > 62u) {
            ((mm_ep *)e)->bad_shift = pc + 1u;
            continue;
        }
        const int32_t *c = (const int32_t *)e->c + r0 * nr + n;
        int8_t *o = (int8_t *)e->o + r0 * nr + n;
        for (uint32_t r = r0; r < mr; r += rstep, c += step, o += step) *o = epilogue_i8(*c, b, m, sh, lo, hi);
    }
}

/* One L1 tile buffer pair: which tile each buffer holds. */
typedef struct {
    char *buf[2];
    uint32_t holds[2]; /* tile id + 1; 0 = nothing */
    int cur;           /* buffer of the step being computed */
} tile_pair;

/* The state of one npurt_matmul call. A transfer id is -1 when nothing is
 * pending on it. */
typedef struct {
    const char *a, *b;
    char *c;
    uint32_t m, n, k, tm, tn, tk, mt, kt;
    uint32_t ea, eb, ec;
    int accumulate, staged, direct_l3;
    char *cbuf[2];
    tile_pair A, B;
    char *panel[2];
    int a_id, b_id, cin_id, wb_id[2];
    int stage_id[2][NPURT_STAGE_CHUNKS_MAX]; /* per panel buffer: its chunks' transfers */
    uint32_t stage_chunks;
    int a_use, b_use; /* buffers of the step whose loads were issued last */
    mm_ep *ep;        /* npurt_matmul_ep's epilogue; NULL: C goes to L2 as it is */
} mm_ctx;

/* 5. Stages column panel p of B (K rows x its width) L3 -> L2 into panel[p & 1],
 * in stage_chunks row ranges on parallel channels. */
static __attribute__((noinline)) void npurt_stage_panel(mm_ctx *x, uint32_t p) {
    const uint32_t j0 = p * x->tn, w = min_u32(x->tn, x->n - j0);
    const uint32_t per = ceil_div(x->k, x->stage_chunks);
    for (uint32_t ch = 0, r0 = 0; ch < x->stage_chunks && r0 < x->k; ++ch, r0 += per) {
        const uint32_t rows = min_u32(per, x->k - r0);
        x->stage_id[p & 1][ch] = dma_2d("B L3 -> L2 panel", x->panel[p & 1] + (size_t)r0 * w * x->eb,
                                        x->b + ((size_t)r0 * x->n + j0) * x->eb, w * x->eb, rows, x->n * x->eb,
                                        w * x->eb);
    }
}

/* npurt_stage_panel for B stored in column panels (npurt_matmul_panels):
 * panel p starts after the j0 columns of the panels before it, K rows
 * each, and its rows are w elements apart, so every chunk of rows is one
 * contiguous block (a 1-D transfer of full bursts). */
static __attribute__((noinline)) void npurt_stage_packed_panel(mm_ctx *x, uint32_t p) {
    const uint32_t j0 = p * x->tn, w = min_u32(x->tn, x->n - j0);
    const uint32_t per = ceil_div(x->k, x->stage_chunks);
    for (uint32_t ch = 0, r0 = 0; ch < x->stage_chunks && r0 < x->k; ++ch, r0 += per) {
        const uint32_t rows = min_u32(per, x->k - r0);
        x->stage_id[p & 1][ch] =
            dma_2d("B L3 -> L2 panel", x->panel[p & 1] + (size_t)r0 * w * x->eb,
                   x->b + ((size_t)j0 * x->k + (size_t)r0 * w) * x->eb, w * x->eb, rows, w * x->eb, w * x->eb);
    }
}

static void panel_staged(mm_ctx *x, uint32_t buf) {
    for (uint32_t ch = 0; ch < NPURT_STAGE_CHUNKS_MAX; ++ch)
        dma_done("npurt_matmul", "B L3 -> L2 panel", &x->stage_id[buf][ch]);
}

/* 3./4. Issues the loads of step s into L1: the A and B tiles it does not share
 * with a buffer's current contents, and with ACCUMULATE at a C tile's first
 * k-step the C tile (once that buffer's previous write-back has finished). */
static __attribute__((noinline)) void npurt_load_tiles(mm_ctx *x, uint32_t s) {
    const uint32_t kk = s % x->kt, im = (s / x->kt) % x->mt, jn = s / (x->kt * x->mt);
    const uint32_t i0 = im * x->tm, j0 = jn * x->tn, k0 = kk * x->tk;
    const uint32_t mr = min_u32(x->tm, x->m - i0), nr = min_u32(x->tn, x->n - j0), kr = min_u32(x->tk, x->k - k0);
    const uint32_t aid = im * x->kt + kk + 1u, bid = jn * x->kt + kk + 1u;
    tile_pair *A = &x->A, *B = &x->B;

    if (A->holds[A->cur] == aid) {
        x->a_use = A->cur;
    } else if (A->holds[A->cur ^ 1] == aid) {
        x->a_use = A->cur ^ 1;
    } else {
        /* The other buffer: the step before the current one, its last user, has finished. */
        x->a_use = A->cur ^ 1;
        A->holds[x->a_use] = aid;
        x->a_id = dma_2d("A L2 -> L1", A->buf[x->a_use], x->a + ((size_t)i0 * x->k + k0) * x->ea, kr * x->ea, mr,
                         x->k * x->ea, kr * x->ea);
    }

    if (B->holds[B->cur] == bid) {
        x->b_use = B->cur;
    } else if (B->holds[B->cur ^ 1] == bid) {
        x->b_use = B->cur ^ 1;
    } else {
        x->b_use = B->cur ^ 1;
        B->holds[x->b_use] = bid;
        if (x->staged) {
            /* The panel's rows are nr * eb bytes apart. */
            panel_staged(x, jn & 1);
            x->b_id = dma_2d("B L2 panel -> L1", B->buf[x->b_use], x->panel[jn & 1] + (size_t)k0 * nr * x->eb,
                             nr * x->eb, kr, nr * x->eb, nr * x->eb);
        } else {
            /* B in L2 — or, with NPURT_DIRECT_L3, in L3 and (wrongly) read as if in L2. */
            x->b_id = dma_2d(x->direct_l3 ? "B L3 -> L1 (as if L2)" : "B L2 -> L1", B->buf[x->b_use],
                             x->b + ((size_t)k0 * x->n + j0) * x->eb, nr * x->eb, kr, x->n * x->eb, nr * x->eb);
        }
    }

    if (x->accumulate && kk == 0) {
        const int cb = (int)((s / x->kt) & 1u);
        dma_done("npurt_matmul", "C L1 -> L2 write-back", &x->wb_id[cb]);
        x->cin_id = dma_2d("C L2 -> L1", x->cbuf[cb], x->c + ((size_t)i0 * x->n + j0) * x->ec, nr * x->ec, mr,
                           x->n * x->ec, nr * x->ec);
    }
}

/* npurt_matmul_ep's parameters are in L1: waited for while the first SA job
 * runs. */
static void npurt_matmul_params(mm_ep *e) {
    for (int p = 0; p < 3; ++p) dma_done("npurt_matmul", "parameters L2 -> L1", &e->prm_id[p]);
}

/* The epilogue of the C tile in C buffer `buf` (rows i0.., columns j0..) on
 * the workers, into output buffer `buf`, then that tile's DMA to the output. */
static void npurt_matmul_epilogue(mm_ctx *x, int buf, uint32_t i0, uint32_t j0, uint32_t mr, uint32_t nr) {
    mm_ep *e = x->ep;
    /* The output buffer's previous tile has left L1. */
    dma_done("npurt_matmul", "output L1 -> L2", &x->wb_id[buf]);
    e->c = x->cbuf[buf];
    e->o = e->obuf[buf];
    e->j0 = j0, e->mr = mr, e->nr = nr;
    mm_ep_cur = e;
    npurt_parallel(mm_ep_worker);
    if (e->bad_shift)
        npurt_die(1, "npurt_matmul_ep: rq_shift[%lu] = %ld is outside 0..62", (unsigned long)(e->bad_shift - 1u),
                  (long)e->shift[e->per_channel ? e->bad_shift - 1u : 0u]);
    x->wb_id[buf] = dma_2d("output L1 -> L2", e->out + ((size_t)i0 * x->n + j0) * e->eo, e->obuf[buf], nr * e->eo, mr,
                           nr * e->eo, x->n * e->eo);
}

/* npurt_matmul, and with `epa` npurt_matmul_ep: C tiles through the epilogue
 * into epa->out instead of to c. Inlined into both: each is its own function
 * (the name a bus-error report's call chain gives), and npurt_matmul's code
 * keeps no trace of the epilogue. */
static inline __attribute__((always_inline, no_builtin("memset"))) void
matmul_impl(const void *a, const void *b, void *c, uint32_t m, uint32_t n, uint32_t k, uint32_t tm, uint32_t tn,
            uint32_t tk, uint32_t flags, uint32_t l1_bytes, void *l2_stage, const npurt_matmul_ep_args *epa,
            const int b_panels) {
    const int f32 = (flags & NPURT_F32) != 0;
    const uint32_t ea = f32 ? 4u : 1u, eb = ea, ec = 4u;

    if (m == 0 || n == 0) return;
    if (k == 0 || tm == 0 || tn == 0 || tk == 0)
        npurt_die(1, "npurt_matmul: bad arguments m=%lu n=%lu k=%lu tiles %lux%lux%lu (k and the tiles must be >= 1)",
                  (unsigned long)m, (unsigned long)n, (unsigned long)k, (unsigned long)tm, (unsigned long)tn,
                  (unsigned long)tk);
    /* Tiles larger than the matrix shrink to it (the buffers stay as planned). */
    tm = min_u32(tm, m);
    tn = min_u32(tn, n);
    tk = min_u32(tk, k);
    const uint32_t a_bytes = tm * tk * ea, b_bytes = tk * tn * eb, c_bytes = tm * tn * ec;
    /* Not zero-initialised (a memset of the struct is ~300 cycles on the
     * controller): every field is set below when there is an epilogue. */
    mm_ep ep;
    const int per_channel = epa && !f32 && (flags & NPURT_PER_CHANNEL);
    /* The parameters' L1 copy (none with NPURT_PARAMS_IN_L2). */
    const int prm_l1 = epa && !(flags & NPURT_PARAMS_IN_L2);
    uint32_t prm_bytes = 0;
    if (epa) {
        if (flags & NPURT_ACCUMULATE) npurt_die(1, "npurt_matmul_ep: NPURT_ACCUMULATE has no epilogue (C = A*B only)");
        if (!f32 && (!epa->rq_mult || !epa->rq_shift)) npurt_die(1, "npurt_matmul_ep: int8 needs rq_mult and rq_shift");
        ep.f32 = f32;
        ep.relu = (flags & NPURT_RELU) != 0;
        ep.per_channel = per_channel;
        ep.act_min = ep.relu && epa->act_min < 0 ? 0 : epa->act_min;
        ep.act_max = epa->act_max;
        ep.out = (char *)epa->out;
        ep.eo = f32 ? 4u : 1u;
        ep.prm_id[0] = ep.prm_id[1] = ep.prm_id[2] = -1;
        ep.bias = NULL;
        ep.c = ep.o = NULL;
        ep.j0 = ep.mr = ep.nr = 0;
        ep.bad_shift = 0;
        prm_bytes = prm_l1 ? NPU_L1_EPILOGUE_BYTES(0u, 0u, 0u, n, epa->bias != NULL, per_channel) : 0u;
    }
    /* An f32 output overwrites its C tile (npu_l1_plan.h). */
    const uint32_t o_bytes = epa && !f32 ? (tm * tn * ep.eo + 3u) / 4u * 4u : 0u;
    const uint32_t need = NPU_L1_WORKING_SET(tm, tn, tk, ea, eb, ec) +
                          (epa ? NPU_L1_EPILOGUE_BYTES(tm, tn, ep.eo, n, prm_l1 && epa->bias != NULL,
                                                       prm_l1 && per_channel)
                               : 0u);
    if (l1_bytes < need)
        npurt_die(1, "npurt_matmul: l1_bytes %lu is less than the %lu bytes the tiles %lux%lux%lu need",
                  (unsigned long)l1_bytes, (unsigned long)need, (unsigned long)tm, (unsigned long)tn, (unsigned long)tk);

    /* 1. The L1 working set, once per call. (npu_l1_malloc) is the function,
     * never the aborting macro of NPU_ALLOC_ABORT_ON_FAIL. */
    char *l1 = (npu_l1_malloc)(l1_bytes);
    if (!l1 && !(flags & NPURT_UNCHECKED_L1))
        npurt_die(NPU_ALLOC_FAILED_EXIT,
                  "npurt_matmul: npu_l1_malloc(%lu) failed for the %lux%lux%lu tile buffers of a %lux%lux%lu %s matmul: "
                  "largest free L1 block %lu bytes",
                  (unsigned long)l1_bytes, (unsigned long)tm, (unsigned long)tn, (unsigned long)tk, (unsigned long)m,
                  (unsigned long)n, (unsigned long)k, f32 ? "f32" : "int8", (unsigned long)npu_l1_free_bytes());

    /* Field by field, not "= {0}" (a call of picolibc's memset, ~330
     * instructions on the controller before the first transfer), nor the
     * stage_id loop below turned into one (no_builtin("memset") on this
     * function and its two callers). */
    mm_ctx x;
    x.A.holds[0] = x.A.holds[1] = x.B.holds[0] = x.B.holds[1] = 0;
    x.panel[0] = x.panel[1] = NULL;
    x.stage_chunks = 0;
    x.a_use = x.b_use = 0;
    x.ep = NULL;
    x.a = a;
    x.b = b;
    x.c = c;
    x.m = m, x.n = n, x.k = k, x.tm = tm, x.tn = tn, x.tk = tk;
    x.mt = ceil_div(m, tm), x.kt = ceil_div(k, tk);
    x.ea = ea, x.eb = eb, x.ec = ec;
    x.accumulate = (flags & NPURT_ACCUMULATE) != 0;
    x.direct_l3 = (flags & NPURT_DIRECT_L3) != 0;
    x.staged = (flags & NPURT_B_IN_L3) != 0 && !x.direct_l3;
    /* C first: every buffer stays 4-byte aligned (with NPURT_UNCHECKED_L1 and
     * a failed allocation these are NULL + offset). */
    x.cbuf[0] = l1;
    x.cbuf[1] = l1 + c_bytes;
    /* npurt_matmul_ep: the parameters after C1, the output tiles after B1
     * (npu_l1_plan.h). */
    char *prm = l1 + 2u * c_bytes;
    x.A.buf[0] = prm + prm_bytes;
    x.A.buf[1] = x.A.buf[0] + a_bytes;
    x.B.buf[0] = x.A.buf[1] + a_bytes;
    x.B.buf[1] = x.B.buf[0] + b_bytes;
    x.A.cur = x.B.cur = 1;
    if (epa) {
        ep.obuf[0] = f32 ? x.cbuf[0] : x.B.buf[1] + b_bytes;
        ep.obuf[1] = f32 ? x.cbuf[1] : ep.obuf[0] + o_bytes;
        /* All channels' parameters, once: they move while the first tiles
         * load and are waited for during the first SA job. */
        char *q = prm;
        ep.bias = (const int32_t *)epa->bias;
        ep.mult = epa->rq_mult, ep.shift = epa->rq_shift;
        if (prm_l1 && epa->bias) {
            ep.prm_id[0] = dma_2d("bias L2 -> L1", q, epa->bias, n * 4u, 1, 0, 0);
            ep.bias = (const int32_t *)q;
            q += n * 4u;
        }
        if (prm_l1 && per_channel) {
            ep.prm_id[1] = dma_2d("multipliers L2 -> L1", q, epa->rq_mult, n * 4u, 1, 0, 0);
            ep.mult = (const int32_t *)q;
            ep.prm_id[2] = dma_2d("shifts L2 -> L1", q + n * 4u, epa->rq_shift, n * 4u, 1, 0, 0);
            ep.shift = (const int32_t *)(q + n * 4u);
        }
        x.ep = &ep;
        /* A channel's id is free again once its transfer ends, waited for or
         * not: with B in L3 a parameter's id would be taken by a panel's
         * staging chunk, and waiting for it would wait for the chunk. */
        if (x.staged) npurt_matmul_params(&ep);
    }
    x.a_id = x.b_id = x.cin_id = x.wb_id[0] = x.wb_id[1] = -1;
    for (uint32_t ch = 0; ch < NPURT_STAGE_CHUNKS_MAX; ++ch) x.stage_id[0][ch] = x.stage_id[1][ch] = -1;

    const uint32_t nt = ceil_div(n, tn), kt = x.kt, mt = x.mt;
    const uint32_t steps = nt * mt * kt;

    /* 5. The L3 -> L2 panel staging buffers. */
    if (x.staged) {
        const uint32_t panel_bytes = k * tn * eb;
        for (int p = 0; p < 2 && l2_stage; ++p) x.panel[p] = (char *)l2_stage + (size_t)p * panel_bytes;
        for (int p = 0; p < 2 && !l2_stage; ++p) {
            x.panel[p] = npu_l2_malloc(panel_bytes);
            if (!x.panel[p])
                npurt_die(NPU_ALLOC_FAILED_EXIT,
                          "npurt_matmul: npu_l2_malloc(%lu) failed for B panel buffer %d (%lu rows x %lu B, B in L3): "
                          "%lu bytes of L2 heap free",
                          (unsigned long)panel_bytes, p, (unsigned long)k, (unsigned long)(tn * eb),
                          (unsigned long)l2_free_bytes());
        }
        /* In flight at most: the staging chunks of one panel, A, B, C in
         * and two write-backs; more would only queue behind busy channels. */
        const uint32_t channels = npu_dma_channels();
        x.stage_chunks = channels > 5u ? min_u32(NPURT_STAGE_CHUNKS_MAX, channels - 5u) : 1u;
        if (b_panels)
            npurt_stage_packed_panel(&x, 0);
        else
            npurt_stage_panel(&x, 0);
    }
    npurt_load_tiles(&x, 0);

    /* npurt_matmul_ep: the C buffer whose complete tile awaits its epilogue
     * (-1: none), which runs on the workers while the SA computes the next
     * step. */
    int pend = -1;
    uint32_t pend_i0 = 0, pend_j0 = 0, pend_mr = 0, pend_nr = 0;
    for (uint32_t s = 0; s < steps; ++s) {
        const uint32_t kk = s % kt, im = (s / kt) % mt, jn = s / (kt * mt);
        const uint32_t i0 = im * tm, j0 = jn * tn;
        const uint32_t mr = min_u32(tm, m - i0), nr = min_u32(tn, n - j0), kr = min_u32(tk, k - kk * tk);
        const int cb = (int)((s / kt) & 1u);

        /* This step's operands are in L1 and its C buffer is free. */
        dma_done("npurt_matmul", "A L2 -> L1", &x.a_id);
        dma_done("npurt_matmul", x.staged ? "B L2 panel -> L1" : "B -> L1", &x.b_id);
        dma_done("npurt_matmul", "C L2 -> L1", &x.cin_id);
        if (kk == 0) dma_done("npurt_matmul", "C L1 -> L2 write-back", &x.wb_id[cb]);
        x.A.cur = x.a_use;
        x.B.cur = x.b_use;

        const npu_sa_job_t job = {x.A.buf[x.a_use],
                                  x.B.buf[x.b_use],
                                  x.cbuf[cb],
                                  mr,
                                  nr,
                                  kr,
                                  kr * ea,
                                  nr * eb,
                                  nr * ec,
                                  (f32 ? NPU_SA_CTRL_DTYPE_FP32 : 0u) |
                                      ((kk > 0 || x.accumulate) ? NPU_SA_CTRL_ACCUMULATE : 0u)};
        npu_sa_start(&job);

        /* While the SA works: stage the next B panel (at a panel's first step:
         * the other panel buffer's last reader has been waited for), then load
         * the next step's tiles. */
        if (x.staged && im == 0 && kk == 0 && jn + 1 < nt) {
            if (b_panels)
                npurt_stage_packed_panel(&x, jn + 1);
            else
                npurt_stage_panel(&x, jn + 1);
        }
        if (s + 1 < steps) npurt_load_tiles(&x, s + 1);
        if (s == 0 && epa && !x.staged) npurt_matmul_params(&ep);
        if (pend >= 0) {
            npurt_matmul_epilogue(&x, pend, pend_i0, pend_j0, pend_mr, pend_nr);
            pend = -1;
        }

        if (npu_sa_wait())
            npurt_die(1,
                      "npurt_matmul: SA job C[%lux%lu] (+)= A[%lux%lu] * B of tile (m %lu, n %lu, k %lu) aborted at "
                      "0x%08lx (error info 0x%lx)",
                      (unsigned long)mr, (unsigned long)nr, (unsigned long)mr, (unsigned long)kr, (unsigned long)im,
                      (unsigned long)jn, (unsigned long)kk, (unsigned long)npu_sa_error_address(),
                      (unsigned long)npu_sa_error_info());
        /* The C tile is complete: back to L2 while the next tile computes in
         * the other buffer (npurt_matmul_ep: through the epilogue, during the
         * next step). */
        if (kk + 1 == kt && epa) {
            pend = cb, pend_i0 = i0, pend_j0 = j0, pend_mr = mr, pend_nr = nr;
        } else if (kk + 1 == kt)
            x.wb_id[cb] = dma_2d("C L1 -> L2 write-back", x.c + ((size_t)i0 * n + j0) * ec, x.cbuf[cb], nr * ec, mr,
                                 nr * ec, n * ec);
    }

    if (pend >= 0) npurt_matmul_epilogue(&x, pend, pend_i0, pend_j0, pend_mr, pend_nr);
    dma_done("npurt_matmul", "C L1 -> L2 write-back", &x.wb_id[0]);
    dma_done("npurt_matmul", "C L1 -> L2 write-back", &x.wb_id[1]);
    panel_staged(&x, 0);
    panel_staged(&x, 1);
    if (x.staged && !l2_stage) {
        npu_l2_free(x.panel[0]);
        npu_l2_free(x.panel[1]);
    }
    npu_l1_free(l1);
}

__attribute__((no_builtin("memset"))) void npurt_matmul(const void *a, const void *b, void *c, uint32_t m, uint32_t n,
                                                        uint32_t k, uint32_t tm, uint32_t tn, uint32_t tk,
                                                        uint32_t flags, uint32_t l1_bytes, void *l2_stage) {
    matmul_impl(a, b, c, m, n, k, tm, tn, tk, flags, l1_bytes, l2_stage, NULL, 0);
}

__attribute__((no_builtin("memset"))) void npurt_matmul_ep(const npurt_matmul_ep_args *args) {
    matmul_impl(args->a, args->b, NULL, args->m, args->n, args->k, args->tm, args->tn, args->tk, args->flags,
                args->l1_bytes, args->l2_stage, args, 0);
}

/* B in column panels is only read by the staging (npurt.h): B must be in
 * L3 and staged. Separate entries, so that the plain ones run the same
 * instructions as before these existed. */
static void panels_need_staging(const char *fn, uint32_t flags) {
    if ((flags & (NPURT_B_IN_L3 | NPURT_DIRECT_L3)) != NPURT_B_IN_L3)
        npurt_die(1, "%s: B in column panels needs NPURT_B_IN_L3 without NPURT_DIRECT_L3 (flags 0x%lx)", fn,
                  (unsigned long)flags);
}

__attribute__((no_builtin("memset"))) void npurt_matmul_panels(const void *a, const void *b, void *c, uint32_t m,
                                                               uint32_t n, uint32_t k, uint32_t tm, uint32_t tn,
                                                               uint32_t tk, uint32_t flags, uint32_t l1_bytes,
                                                               void *l2_stage) {
    panels_need_staging("npurt_matmul_panels", flags);
    matmul_impl(a, b, c, m, n, k, tm, tn, tk, flags, l1_bytes, l2_stage, NULL, 1);
}

__attribute__((no_builtin("memset"))) void npurt_matmul_ep_panels(const npurt_matmul_ep_args *args) {
    panels_need_staging("npurt_matmul_ep_panels", args->flags);
    matmul_impl(args->a, args->b, NULL, args->m, args->n, args->k, args->tm, args->tn, args->tk, args->flags,
                args->l1_bytes, args->l2_stage, args, 1);
}

/* --- parallel ---------------------------------------------------------------------- */

static void parallel_trampoline(void *arg) { ((void (*)(void))(uintptr_t)arg)(); }

void npurt_parallel(void (*fn)(void)) {
    if (npu_nb_workers() == 0) {
        fn();
        return;
    }
    npu_cluster_run(0, parallel_trampoline, (void *)(uintptr_t)fn);
}

uint32_t npurt_worker_id(void) { return npu_is_cluster_controller() ? 0u : npu_core_id(); }

uint32_t npurt_num_workers(void) { return npu_is_cluster_controller() ? 1u : npu_team_size(); }

/* --- regions and copies --------------------------------------------------------------- */

void npurt_region_begin(const char *name) { npu_trace_begin(name); }

void npurt_region_end(const char *name) { npu_trace_end(name); }

void npurt_copy(void *dst, const void *src, uint32_t bytes) {
    if (bytes == 0) return;
    int id = npu_dma_copy_1d(dst, src, bytes);
    if (id < 0)
        npurt_die(1, "npurt_copy: DMA refused the copy of %lu B 0x%08lx -> 0x%08lx (error info 0x%lx)", (unsigned long)bytes,
                  (unsigned long)(uintptr_t)src, (unsigned long)(uintptr_t)dst, (unsigned long)npu_dma_error_info());
    dma_done("npurt_copy", "copy", &id);
}

/* A prefetch is cut into up to NPURT_STAGE_CHUNKS_MAX pieces on separate
 * channels (whole 256 B bursts each, at least NPURT_PREFETCH_CHUNK_MIN
 * bytes), for the reason npurt_stage_panel does: one channel reading L3 is
 * bound by the latency of its one outstanding burst. */
#define NPURT_PREFETCH_CHUNK_MIN 1024u

uint32_t npurt_copy_start(void *dst, const void *src, uint32_t bytes) {
    uint32_t ids = 0, n = ceil_div(bytes, NPURT_PREFETCH_CHUNK_MIN);
    if (n > NPURT_STAGE_CHUNKS_MAX) n = NPURT_STAGE_CHUNKS_MAX;
    const uint32_t chunk = n ? (ceil_div(bytes, n) + 255u) & ~255u : 0;
    for (uint32_t at = 0; at < bytes; at += chunk) {
        const uint32_t len = min_u32(chunk, bytes - at);
        const int id = npu_dma_copy_1d((char *)dst + at, (const char *)src + at, len);
        if (id < 0)
            npurt_die(1, "npurt_copy_start: DMA refused the copy of %lu B 0x%08lx -> 0x%08lx (error info 0x%lx)",
                      (unsigned long)len, (unsigned long)((uintptr_t)src + at), (unsigned long)((uintptr_t)dst + at),
                      (unsigned long)npu_dma_error_info());
        ids |= 1u << id;
    }
    return ids;
}

void npurt_copy_wait(uint32_t ids) {
    for (int id = 0; ids; ++id, ids >>= 1) {
        int pending = (ids & 1u) ? id : -1;
        dma_done("npurt_copy_start", "copy", &pending);
    }
}
