/* The L1/L2 allocators (NULL on exhaustion, blocks reused after free) and
 * trace markers (named regions whose cycles npusim's report lists). Built
 * once plainly and once with NPU_ALLOC_ABORT_ON_FAIL, where the oversized
 * request ends the run at its call site. */
#include <stdio.h>
#include <string.h>

#include "npu.h"

#define BLOCK 4096

static int __attribute__((noinline)) spin(int n) {
    volatile int s = 0;
    for (int i = 0; i < n; ++i) s += i;
    return s;
}

int main(void) {
#ifdef NPU_ALLOC_ABORT_ON_FAIL
    void *huge = npu_l1_malloc(64u << 20);
    printf("not reached: %p\n", huge);
    return 1;
#else
    npu_trace_begin("allocators");
    void *blocks[64];
    int n = 0;
    while (n < 64 && (blocks[n] = npu_l1_malloc(BLOCK)) != NULL) {
        memset(blocks[n], n, BLOCK);
        ++n;
    }
    printf("L1: %d blocks of %d bytes before NULL\n", n, BLOCK);
    if (n == 0 || n == 64) return 2;
    for (int i = 0; i < n; ++i) npu_l1_free(blocks[i]);
    int again = 0;
    while (again < 64 && (blocks[again] = npu_l1_malloc(BLOCK)) != NULL) ++again;
    printf("L1: %d blocks again after freeing all\n", again);
    if (again != n) return 3;
    void *big = npu_l1_malloc(1u << 30);
    printf("L1: 1 GiB request -> %s\n", big ? "non-NULL" : "NULL");
    void *l2 = npu_l2_malloc(64 * 1024);
    void *l2big = npu_l2_malloc(64u << 20);
    printf("L2: 64 KiB -> %s, 64 MiB -> %s\n", l2 ? "ok" : "NULL", l2big ? "non-NULL" : "NULL");
    npu_trace_end("allocators");

    npu_trace_begin("compute");
    npu_trace_begin("inner");
    spin(1000);
    npu_trace_end("inner");
    spin(1000);
    npu_trace_end("compute");
    return big || !l2 || l2big ? 4 : 0;
#endif
}
