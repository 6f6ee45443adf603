/* npu_l1_free misuse: a read through a pointer to a freed block
 * (USE_AFTER_FREE) is a memcheck finding naming the block, where it was
 * allocated and where it was freed, and so is a store through one
 * (STORE_AFTER_FREE: it would overwrite the data of whatever reuses the
 * block, here `big`, had it come later), and a DMA transfer into one
 * (DMA_AFTER_FREE, a finding at its push) or an SA job's C in one (SA_AFTER_FREE,
 * at its start), also in the part of a freed block a smaller allocation left
 * (TAIL_AFTER_PARTIAL_REUSE); a store past a block's requested size, into
 * its padding or the next block's header, is a heap overflow finding at the
 * store (HEAP_OVERFLOW), also in the padding of a block allocated in freed
 * memory, which is no freed memory (PADDING_AFTER_REUSE), and in the bytes a
 * block took whole with the free block it came from (HEAP_OVERFLOW_ABSORBED),
 * and by the C library's memset, named with the program's call
 * (HEAP_OVERFLOW_MEMSET); a DMA transfer or an SA job whose destination runs
 * past a block is one at its push or start (HEAP_OVERFLOW_DMA, _SA); a
 * read past a block's end, by a core's load (HEAP_OVERREAD), a DMA
 * transfer's source (HEAP_OVERREAD_DMA) or an SA job's A (HEAP_OVERREAD_SA),
 * is one at the read;
 * a block freed twice (DOUBLE_FREE) is a
 * finding at the second npu_l1_free (it set a bit in whatever reused the
 * memory: one word of `big` here). Without either, the same allocations,
 * frees and reuse run clean. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "npu_sa.h"

static int32_t __attribute__((noinline)) read_word(const volatile int32_t *p) { return *p; }
#if defined(STORE_AFTER_FREE) || defined(TAIL_AFTER_PARTIAL_REUSE) || defined(HEAP_OVERFLOW)
static void __attribute__((noinline)) write_word(volatile int32_t *p, int32_t v) { *p = v; }
#endif

int main(void) {
    int32_t *p = npu_l1_malloc(64), *q = npu_l1_malloc(64);
    if (!p || !q) return 3;
    for (int i = 0; i < 16; ++i) p[i] = q[i] = i;
    npu_l1_free(p);
#ifdef USE_AFTER_FREE
    printf("stale read %ld\n", (long)read_word(&p[3]));
#endif
#ifdef STORE_AFTER_FREE
    write_word(&p[5], -1);
#endif
#ifdef TAIL_AFTER_PARTIAL_REUSE
    /* A 16-byte block takes the start of p's memory: the rest is still p's
     * freed block, and a store there is named as such. */
    if (!npu_l1_malloc(16)) return 3;
    write_word(&p[10], -1);
#endif
#ifdef HEAP_OVERFLOW
    /* A 10-word block (in p's memory) and its 11th word: its padding, then
     * the header of the free block after it. */
    {
        int32_t *r = npu_l1_malloc(40);
        if (!r) return 3;
        for (int i = 0; i <= 10; ++i) write_word(&r[i], i);
    }
#endif
#ifdef HEAP_OVERFLOW_ABSORBED
    /* p's 72-byte block taken whole by a 60-byte request (the 8 bytes left
     * are too few to split off): 4 bytes past the requested end is in those
     * 8 bytes, the new block's, not freed memory. */
    {
        uint8_t *r = npu_l1_malloc(60);
        if ((void *)r != (void *)p) return 5;
        r[64] = 9;
    }
#endif
#ifdef HEAP_OVERFLOW_MEMSET
    {
        volatile size_t n = 40; /* not a constant: a call of memset, not inlined stores */
        uint8_t *r = npu_l1_malloc(n);
        if (!r) return 3;
        memset(r, 0xff, n + 1);
    }
#endif
#ifdef HEAP_OVERFLOW_DMA
    {
        static int32_t tile[12] = {1, 2, 3}; /* 48 bytes, one 8-byte row more than the block */
        int32_t *dst = npu_l1_malloc(40);
        if (!dst) return 3;
        if (npu_dma_wait(npu_dma_copy_1d(dst, tile, sizeof tile))) return 4;
    }
#endif
#ifdef HEAP_OVERFLOW_SA
    {
        /* C: 2x2 int32 (16 bytes) into a 12-byte block; A and B from q's. */
        int32_t *c = npu_l1_malloc(12);
        if (!c) return 3;
        const int8_t *ab = (const int8_t *)q;
        npu_sa_matmul_i8(ab, ab, c, 2, 2, 4, 0);
        if (npu_sa_wait()) return 4;
    }
#endif
#ifdef HEAP_OVERREAD
    {
        /* 10 words asked for, an 11th read: the next block's header. */
        int32_t *w = npu_l1_malloc(40);
        if (!w) return 3;
        for (int i = 0; i < 10; ++i) w[i] = i;
        printf("one past the end: %ld\n", (long)read_word(&w[10]));
        npu_l1_free(w);
    }
#endif
#ifdef HEAP_OVERREAD_DMA
    {
        static int32_t out[12]; /* 48 bytes copied out of a 40-byte block */
        int32_t *src = npu_l1_malloc(40);
        if (!src) return 3;
        for (int i = 0; i < 10; ++i) src[i] = i;
        if (npu_dma_wait(npu_dma_copy_1d(out, src, sizeof out))) return 4;
        npu_l1_free(src);
    }
#endif
#ifdef HEAP_OVERREAD_SA
    {
        /* A: 2x4 int8 (8 bytes) from a 4-byte block; B from q's. */
        int8_t *a = npu_l1_malloc(4);
        int32_t c[4];
        if (!a) return 3;
        for (int i = 0; i < 4; ++i) a[i] = (int8_t)i;
        npu_sa_matmul_i8(a, (const int8_t *)q, c, 2, 2, 4, 0);
        if (npu_sa_wait()) return 4;
        npu_l1_free(a);
    }
#endif
#ifdef PADDING_AFTER_REUSE
    /* p's memory allocated again for 61 bytes: the block's 3 bytes of
     * padding after them are the new block's, not freed memory: a store
     * there is an overflow, not a store into a freed block. */
    {
        uint8_t *r = npu_l1_malloc(61);
        if ((void *)r != (void *)p) return 5;
        r[62] = 9;
        npu_l1_free(r);
    }
#endif
#ifdef DMA_AFTER_FREE
    static int32_t fill[4] = {1, 2, 3, 4};
    if (npu_dma_wait(npu_dma_copy_1d(&p[2], fill, sizeof fill))) return 4;
#endif
#ifdef SA_AFTER_FREE
    /* A and B from q's block (L1, written); C: 2x2 int32 into p's, freed. */
    npu_sa_matmul_i8((const int8_t *)q, (const int8_t *)q, &p[4], 2, 2, 4, 0);
    if (npu_sa_wait()) return 4;
#endif
    npu_l1_free(q);
    /* p's and q's blocks merged and handed out again. */
    int32_t *big = npu_l1_malloc(120);
    if (!big) return 3;
    for (int i = 0; i < 30; ++i) big[i] = 0x100 * i;
#ifdef DOUBLE_FREE
    npu_l1_free(q);
#endif
    int bad = 0;
    for (int i = 0; i < 30; ++i) bad += read_word(&big[i]) != 0x100 * i;
    printf("reused block intact: %s\n", bad ? "no" : "yes");
    npu_l1_free(big);
    return bad;
}
