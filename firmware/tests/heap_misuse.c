/* npu_l1_free misuse: a read through a pointer to a freed block
 * (USE_AFTER_FREE) is a memcheck finding naming the block, where it was
 * allocated and where it was freed; a block freed twice (DOUBLE_FREE) is a
 * finding at the second npu_l1_free (it set a bit in whatever reused the
 * memory: one word of `big` here). Without either, the same allocations,
 * frees and reuse run clean. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

static int32_t __attribute__((noinline)) read_word(const volatile int32_t *p) { return *p; }

int main(void) {
    int32_t *p = npu_l1_malloc(64), *q = npu_l1_malloc(64);
    if (!p || !q) return 3;
    for (int i = 0; i < 16; ++i) p[i] = q[i] = i;
    npu_l1_free(p);
#ifdef USE_AFTER_FREE
    printf("stale read %ld\n", (long)read_word(&p[3]));
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
