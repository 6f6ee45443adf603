/* npu_l1_free_bytes() is the largest block npu_l1_malloc can return right
 * now, also after frees that left neighbouring free blocks (it reported the
 * largest unmerged fragment: 112532 of 112636 bytes after freeing all). */
#include <stdio.h>

#include "npu.h"

int main(void) {
    const size_t before = npu_l1_free_bytes();
    void *p1 = npu_l1_malloc(1), *p2 = npu_l1_malloc(13), *p3 = npu_l1_malloc(64);
    if (!p1 || !p2 || !p3) return 3;
    npu_l1_free(p1);
    npu_l1_free(p2);
    npu_l1_free(p3);
    const size_t after = npu_l1_free_bytes();
    void *all = npu_l1_malloc(after);
    void *more = npu_l1_malloc(1);
    printf("free bytes before %u, after freeing all %u; the whole block %s, one byte more %s\n", (unsigned)before,
           (unsigned)after, all ? "allocated" : "refused", more ? "allocated" : "refused");
    return !(after == before && all && !more);
}
