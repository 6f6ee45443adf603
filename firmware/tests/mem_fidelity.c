/* Memory-system micro-benchmarks (docs/memory-map.md, fidelity table):
 *  1. L1 bank arbitration: 1, 2, 4 and 8 workers each load 2048 words in an
 *     unrolled loop, all from one bank or each from its own bank; the cycles
 *     per load (per worker, from its mcycle) are printed, and the slowdown of
 *     one bank against separate banks.
 *  1b. The cluster's shared path to L2: 1, 2, 4 and 8 workers each load 2048
 *     words from L2 (each its own word).
 *  2. DMA bandwidth per route, one channel and several: bytes per cycle from
 *     the push to the end of the wait.
 *  3. Cores and the DMA in the same banks, and in other banks: worker 0
 *     moves 16 KiB L2 -> L1 as 512 rows of 32 B, 64 B apart, into banks
 *     0..7 or into banks 8..15, while workers 1..7 load from banks 1..7;
 *     each is timed alone and together. Cycles per load are the team's (its
 *     slowest worker's), the DMA's bytes per cycle from its push to the end
 *     of its wait. Sharing banks must slow both; other banks neither.
 *  4. The systolic array and the DMA in the same banks, and in other banks:
 *     worker 1 runs an fp32 SA job whose operand rows (32 B, 64 B apart) lie
 *     in banks 0..7, while worker 0 moves section 3's 16 KiB into banks 0..7
 *     or 8..15; each timed alone and together (the SA job by its CYCLES
 *     register). Sharing banks must slow the DMA and not speed the SA up;
 *     other banks must slow neither.
 *  5. The DMA on the cluster's path to L2: worker 0 moves 8 KiB L2 -> L1
 *     while workers 1..7 load from L2, each timed alone and together. The
 *     DMA's L2 side and the workers' loads share the path: the DMA must be
 *     slower and the workers not faster.
 * Figures with two decimals are printed as integers x 100. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define UNROLL 32
#define ITERS 64 /* 2048 loads per worker */
#define DMA_BYTES 32768u
#define MIX_ROW 32u   /* bytes: 8 banks */
#define MIX_ROWS 512u /* 16 KiB, one row per 64-byte line of l1_buf */

/* 16 banks x 4 B: word i of a 64-byte row is in bank i. */
static NPU_L1_DATA __attribute__((aligned(64))) uint32_t bank_rows[NB_WORKERS][16] = {{1}};
static NPU_L1_BSS uint64_t worker_cycles[NB_WORKERS];
static uint32_t l2_words[NB_WORKERS * 16] = {1}; /* L2: one 64-byte row per worker */
static NPU_L1_BSS uint32_t dma_cycles;
static uint8_t l2_buf[DMA_BYTES] = {1};       /* L2, written before every read by the DMA */
static NPU_NOINIT uint8_t l2_back[DMA_BYTES];   /* L2 destination */
NPU_L3_DATA static uint8_t l3_buf[DMA_BYTES];   /* L3 */
static NPU_L1_NOINIT __attribute__((aligned(64))) uint8_t l1_buf[DMA_BYTES];

/* Section 4's SA job: C[SA_M x 8] = A[SA_M x 8] * B[8 x 8], fp32, every row
 * 32 B at the start of a 64-byte line: banks 0..7 only. */
#define SA_M 256u
#define SA_LD 64u /* bytes between rows */
static NPU_L1_BSS __attribute__((aligned(64))) float sa_a[SA_M][SA_LD / 4];
static NPU_L1_BSS __attribute__((aligned(64))) float sa_b[8][SA_LD / 4];
static NPU_L1_BSS __attribute__((aligned(64))) float sa_c[SA_M][SA_LD / 4];
static NPU_L1_BSS uint32_t sa_cycles;
/* In L1: the worker that starts the job touches no L2 data (its L2 loads
 * would share the path to L2 with the DMA's reads). */
static NPU_L1_DATA npu_sa_job_t sa_job = {sa_a, sa_b, sa_c, SA_M, 8, 8, SA_LD, SA_LD, SA_LD,
                                                NPU_SA_CTRL_DTYPE_FP32};
#define PATH_BYTES 8192u /* section 5's DMA */

static void load_loop(const volatile uint32_t *p) {
    for (unsigned i = 0; i < ITERS; ++i)
        __asm__ volatile(".rept 32\n\tlw t0, 0(%0)\n\t.endr" : : "r"(p) : "t0", "memory");
}

/* arg bit 0: one bank (worker w reads word 0 of row w: bank 0) or its own
 * (word w of row 0: bank w). */
static void bank_job(void *arg) {
    const unsigned id = npu_core_id();
    const int same = (int)(uintptr_t)arg;
    const volatile uint32_t *p = same ? &bank_rows[id][0] : &bank_rows[0][id];
    const uint64_t t0 = npu_hart_cycles();
    load_loop(p);
    worker_cycles[id] = npu_hart_cycles() - t0;
}

static void l2_job(void *arg) {
    (void)arg;
    const unsigned id = npu_core_id();
    const uint64_t t0 = npu_hart_cycles();
    load_loop(&l2_words[id * 16]);
    worker_cycles[id] = npu_hart_cycles() - t0;
}

/* x100 cycles per load of the team: its slowest worker of first..n-1 (the
 * join waits for it). */
static uint32_t per_load_x100(unsigned first, unsigned n) {
    uint64_t most = 0;
    for (unsigned w = first; w < n; ++w) most = worker_cycles[w] > most ? worker_cycles[w] : most;
    return (uint32_t)(most * 100 / ((uint64_t)ITERS * UNROLL));
}

static uint32_t dma_x100(void *dst, const void *src, uint32_t bytes, unsigned channels) {
    int ids[8];
    const uint32_t part = bytes / channels;
    const uint64_t t0 = npu_cycles();
    for (unsigned c = 0; c < channels; ++c)
        ids[c] = npu_dma_copy_1d((uint8_t *)dst + c * part, (const uint8_t *)src + c * part, part);
    for (unsigned c = 0; c < channels; ++c)
        if (ids[c] < 0 || npu_dma_wait(ids[c])) {
            printf("dma transfer refused or failed\n");
            return 0;
        }
    const uint64_t t = npu_cycles() - t0;
    return (uint32_t)((uint64_t)bytes * 100 / t);
}

/* arg: bit 0 run the DMA (worker 0), bit 1 run the loads (workers 1..7),
 * bit 2 the DMA writes banks 8..15 instead of 0..7. */
static void mix_job(void *arg) {
    const unsigned id = npu_core_id(), what = (unsigned)(uintptr_t)arg;
    if (id == 0) {
        if (what & 1) {
            const uint64_t t0 = npu_cycles();
            const int dma = npu_dma_copy_2d(l1_buf + (what & 4 ? MIX_ROW : 0), l2_buf, MIX_ROW, MIX_ROWS, MIX_ROW, 64);
            dma_cycles = 0;
            if (dma < 0 || npu_dma_wait(dma)) return;
            dma_cycles = (uint32_t)(npu_cycles() - t0);
        }
        return;
    }
    if (what & 2) {
        const uint64_t t0 = npu_hart_cycles();
        load_loop(&bank_rows[0][id]);
        worker_cycles[id] = npu_hart_cycles() - t0;
    }
}

/* arg: bit 0 run the DMA (worker 0, as mix_job), bit 1 the SA job (worker
 * 1), bit 2 the DMA writes banks 8..15 instead of 0..7. */
static void sa_mix_job(void *arg) {
    const unsigned id = npu_core_id(), what = (unsigned)(uintptr_t)arg;
    if (id == 0 && (what & 1)) {
        mix_job((void *)(uintptr_t)(1 | (what & 4)));
    } else if (id == 1 && (what & 2)) {
        sa_cycles = 0;
        if (npu_sa_run(&sa_job) == 0) sa_cycles = npu_sa_last_cycles();
    }
}

/* arg: bit 0 run the DMA (worker 0: PATH_BYTES L2 -> L1), bit 1 the loads
 * from L2 (workers 1..7). */
static void path_job(void *arg) {
    const unsigned id = npu_core_id(), what = (unsigned)(uintptr_t)arg;
    if (id == 0) {
        if (what & 1) {
            const uint64_t t0 = npu_cycles();
            const int dma = npu_dma_copy_1d(l1_buf, l2_buf, PATH_BYTES);
            dma_cycles = 0;
            if (dma < 0 || npu_dma_wait(dma)) return;
            dma_cycles = (uint32_t)(npu_cycles() - t0);
        }
        return;
    }
    if (what & 2) {
        const uint64_t t0 = npu_hart_cycles();
        load_loop(&l2_words[id * 16]);
        worker_cycles[id] = npu_hart_cycles() - t0;
    }
}

static void print_x100(const char *what, uint32_t v, const char *unit) {
    printf("%s %lu.%02lu %s\n", what, (unsigned long)(v / 100), (unsigned long)(v % 100), unit);
}

int main(void) {
    for (unsigned w = 0; w < NB_WORKERS; ++w)
        for (unsigned b = 0; b < 16; ++b) bank_rows[w][b] = w * 16 + b;
    for (uint32_t i = 0; i < DMA_BYTES; ++i) l2_buf[i] = (uint8_t)(i * 7);

    /* 1. Bank arbitration. */
    uint32_t one_bank[NB_WORKERS + 1] = {0}, own_bank[NB_WORKERS + 1] = {0};
    for (unsigned n = 1; n <= NB_WORKERS; n *= 2) {
        npu_cluster_run(n, bank_job, (void *)1);
        one_bank[n] = per_load_x100(0, n);
        npu_cluster_run(n, bank_job, (void *)0);
        own_bank[n] = per_load_x100(0, n);
        printf("bank: %u workers, cycles per load: one bank %lu.%02lu, own banks %lu.%02lu, slowdown %lu.%02lux\n", n,
               (unsigned long)(one_bank[n] / 100), (unsigned long)(one_bank[n] % 100),
               (unsigned long)(own_bank[n] / 100), (unsigned long)(own_bank[n] % 100),
               (unsigned long)(one_bank[n] / own_bank[n]), (unsigned long)(one_bank[n] * 100 / own_bank[n] % 100));
    }

    /* 1b. The path to L2. */
    uint32_t l2_alone = 0;
    for (unsigned n = 1; n <= NB_WORKERS; n *= 2) {
        npu_cluster_run(n, l2_job, 0);
        const uint32_t v = per_load_x100(0, n);
        if (n == 1) l2_alone = v;
        printf("l2: %u workers, cycles per load %lu.%02lu, slowdown %lu.%02lux\n", n, (unsigned long)(v / 100),
               (unsigned long)(v % 100), (unsigned long)(v / l2_alone), (unsigned long)(v * 100 / l2_alone % 100));
    }

    /* 2. DMA routes. */
    print_x100("dma: l2->l1 1 channel", dma_x100(l1_buf, l2_buf, DMA_BYTES, 1), "B/cycle");
    print_x100("dma: l1->l2 1 channel", dma_x100(l2_back, l1_buf, DMA_BYTES, 1), "B/cycle");
    print_x100("dma: l2->l1 2 channels", dma_x100(l1_buf, l2_buf, DMA_BYTES, 2), "B/cycle");
    print_x100("dma: l2->l3 1 channel", dma_x100(l3_buf, l2_buf, DMA_BYTES, 1), "B/cycle");
    print_x100("dma: l3->l2 1 channel", dma_x100(l2_back, l3_buf, DMA_BYTES, 1), "B/cycle");
    print_x100("dma: l3->l2 4 channels", dma_x100(l2_back, l3_buf, DMA_BYTES, 4), "B/cycle");
    print_x100("dma: l3->l2 8 channels", dma_x100(l2_back, l3_buf, DMA_BYTES, 8), "B/cycle");
    uint32_t checked = 0, bad = 0;
    for (uint32_t i = 0; i < DMA_BYTES; ++i, ++checked) bad += l2_back[i] != (uint8_t)(i * 7);
    printf("dma: compared %lu bytes, %lu mismatches\n", (unsigned long)checked, (unsigned long)bad);

    /* 3. Cores and the DMA in the same banks, then in other banks. */
    int both_slowed = 0, none_slowed = 0;
    for (unsigned other = 0; other <= 4; other += 4) {
        npu_cluster_run(0, mix_job, (void *)(uintptr_t)(1 | other));
        const uint32_t dma_alone = dma_cycles;
        npu_cluster_run(0, mix_job, (void *)(uintptr_t)(2 | other));
        const uint32_t loads_alone = per_load_x100(1, NB_WORKERS);
        npu_cluster_run(0, mix_job, (void *)(uintptr_t)(3 | other));
        const uint32_t dma_mixed = dma_cycles, loads_mixed = per_load_x100(1, NB_WORKERS);
        if (!dma_alone || !dma_mixed) {
            printf("mix: dma transfer refused or failed\n");
            return 1;
        }
        const uint32_t bytes = MIX_ROW * MIX_ROWS;
        const uint32_t bw_alone = (uint32_t)((uint64_t)bytes * 100 / dma_alone);
        const uint32_t bw_mixed = (uint32_t)((uint64_t)bytes * 100 / dma_mixed);
        printf("mix: %s banks: dma %lu.%02lu B/cycle alone, %lu.%02lu with 7 workers loading; "
               "worker cycles per load %lu.%02lu alone, %lu.%02lu with the dma\n",
               other ? "other" : "same", (unsigned long)(bw_alone / 100), (unsigned long)(bw_alone % 100),
               (unsigned long)(bw_mixed / 100), (unsigned long)(bw_mixed % 100), (unsigned long)(loads_alone / 100),
               (unsigned long)(loads_alone % 100), (unsigned long)(loads_mixed / 100),
               (unsigned long)(loads_mixed % 100));
        if (other)
            none_slowed = dma_mixed <= dma_alone && loads_mixed <= loads_alone;
        else
            both_slowed = dma_mixed > dma_alone && loads_mixed > loads_alone;
    }

    /* 4. The SA and the DMA in the same banks, then in other banks. */
    for (unsigned i = 0; i < SA_M; ++i)
        for (unsigned k = 0; k < 8; ++k) sa_a[i][k] = (float)((i + k) % 7);
    for (unsigned k = 0; k < 8; ++k)
        for (unsigned n = 0; n < 8; ++n) sa_b[k][n] = (float)((k * 3 + n) % 5);
    int sa_same_slowed = 0, sa_other_neither = 0;
    for (unsigned other = 0; other <= 4; other += 4) {
        npu_cluster_run(0, sa_mix_job, (void *)(uintptr_t)(1 | other));
        const uint32_t dma_alone = dma_cycles;
        npu_cluster_run(0, sa_mix_job, (void *)(uintptr_t)(2 | other));
        const uint32_t sa_alone = sa_cycles;
        npu_cluster_run(0, sa_mix_job, (void *)(uintptr_t)(3 | other));
        const uint32_t dma_mixed = dma_cycles, sa_mixed = sa_cycles;
        if (!dma_alone || !dma_mixed || !sa_alone || !sa_mixed) {
            printf("sa mix: dma transfer or sa job failed\n");
            return 1;
        }
        const uint32_t bytes = MIX_ROW * MIX_ROWS;
        const uint32_t bw_alone = (uint32_t)((uint64_t)bytes * 100 / dma_alone);
        const uint32_t bw_mixed = (uint32_t)((uint64_t)bytes * 100 / dma_mixed);
        printf("sa mix: %s banks: dma %lu.%02lu B/cycle alone, %lu.%02lu with the sa job; "
               "sa job %lu cycles alone, %lu with the dma\n",
               other ? "other" : "same", (unsigned long)(bw_alone / 100), (unsigned long)(bw_alone % 100),
               (unsigned long)(bw_mixed / 100), (unsigned long)(bw_mixed % 100), (unsigned long)sa_alone,
               (unsigned long)sa_mixed);
        /* Same banks: the DMA at least 5 % slower; other banks: within 1 %
         * (the timing loops differ by a cycle or so), the SA as alone. */
        if (other)
            sa_other_neither = (uint64_t)dma_mixed * 100 <= (uint64_t)dma_alone * 101 && sa_mixed == sa_alone;
        else
            sa_same_slowed = (uint64_t)dma_mixed * 100 >= (uint64_t)dma_alone * 105 && sa_mixed >= sa_alone;
    }
    /* The SA computed C = A * B: every element checked. */
    uint32_t sa_checked = 0, sa_bad = 0;
    for (unsigned i = 0; i < SA_M; ++i)
        for (unsigned n = 0; n < 8; ++n, ++sa_checked) {
            float want = 0.0f;
            for (unsigned k = 0; k < 8; ++k) want += sa_a[i][k] * sa_b[k][n];
            sa_bad += sa_c[i][n] != want;
        }
    printf("sa mix: compared %lu elements, %lu mismatches\n", (unsigned long)sa_checked, (unsigned long)sa_bad);

    /* 5. The DMA and the workers' loads on the path to L2. */
    npu_cluster_run(0, path_job, (void *)1);
    const uint32_t path_dma_alone = dma_cycles;
    npu_cluster_run(0, path_job, (void *)2);
    const uint32_t path_loads_alone = per_load_x100(1, NB_WORKERS);
    npu_cluster_run(0, path_job, (void *)3);
    const uint32_t path_dma_mixed = dma_cycles, path_loads_mixed = per_load_x100(1, NB_WORKERS);
    if (!path_dma_alone || !path_dma_mixed) {
        printf("l2 path: dma transfer refused or failed\n");
        return 1;
    }
    {
        const uint32_t bw_alone = (uint32_t)((uint64_t)PATH_BYTES * 100 / path_dma_alone);
        const uint32_t bw_mixed = (uint32_t)((uint64_t)PATH_BYTES * 100 / path_dma_mixed);
        printf("l2 path: dma l2->l1 %lu.%02lu B/cycle alone, %lu.%02lu with 7 workers loading from l2; "
               "worker cycles per load %lu.%02lu alone, %lu.%02lu with the dma\n",
               (unsigned long)(bw_alone / 100), (unsigned long)(bw_alone % 100), (unsigned long)(bw_mixed / 100),
               (unsigned long)(bw_mixed % 100), (unsigned long)(path_loads_alone / 100),
               (unsigned long)(path_loads_alone % 100), (unsigned long)(path_loads_mixed / 100),
               (unsigned long)(path_loads_mixed % 100));
    }
    /* The workers take most of the path's slots: the DMA at least 2x slower. */
    const int path_shared = path_dma_mixed >= 2 * path_dma_alone && path_loads_mixed >= path_loads_alone;

    if (bad || !checked || sa_bad || !sa_checked) return 1;
    if (!both_slowed) {
        printf("mix: a dma into the workers' banks does not slow both\n");
        return 2;
    }
    if (!none_slowed) {
        printf("mix: a dma into other banks slows the dma or the workers\n");
        return 3;
    }
    printf("mix: a dma into the workers' banks slows both, into other banks neither\n");
    if (!sa_same_slowed) {
        printf("sa mix: an sa job in the dma's banks does not slow the dma\n");
        return 4;
    }
    if (!sa_other_neither) {
        printf("sa mix: an sa job in other banks slows the dma or the sa\n");
        return 5;
    }
    printf("sa mix: an sa job in the dma's banks slows the dma, in other banks neither\n");
    if (!path_shared) {
        printf("l2 path: workers loading from l2 do not slow a dma from l2\n");
        return 6;
    }
    printf("l2 path: the dma from l2 and the workers' l2 loads share the path\n");
    return 0;
}
