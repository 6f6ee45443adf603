/* A local array larger than all of L1: sp leaves L1 altogether, and the
 * first store into the array is a bus error (unmapped memory below L1),
 * not a stack-guard finding. The report says the stack overflowed
 * (tests/firmware, fw.stack_too_big). */
#include <stdint.h>

#include "npu.h"

static volatile char sink;

static void __attribute__((noinline)) fill(char *p, int n) {
    for (int i = 0; i < n; ++i) p[i] = (char)i;
}

static void __attribute__((noinline)) deep(void) {
    char buf[200 * 1024];
    fill(buf, 64);
    sink = buf[10];
}

int main(void) {
    deep();
    return 0;
}
