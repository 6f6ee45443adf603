/* A struct copied whole (`*d = *s`) copies its padding, which C leaves
 * unwritten: the copy's word loads read bytes never written next to the
 * field's. No finding in warn/error (it was "read of never-written memory");
 * in strict mode, a finding. A word none of whose bytes was written stays a
 * finding in every mode (the test's second part, READ_UNWRITTEN). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

struct rec {
    char tag;
    int32_t val;
};
static NPU_L1_NOINIT struct rec in_rec, out_rec;
static NPU_L1_NOINIT int32_t never[2];

static void __attribute__((noinline)) copy_rec(struct rec *d, const struct rec *s) { *d = *s; }

int main(void) {
    /* Its fields set one by one: the three bytes after tag stay unwritten. */
    in_rec.tag = 'x';
    in_rec.val = 42;
    copy_rec(&out_rec, &in_rec);
    printf("copied %c %ld\n", out_rec.tag, (long)out_rec.val);
#ifdef READ_UNWRITTEN
    printf("never written %ld\n", (long)*(volatile int32_t *)&never[1]);
#endif
    return 0;
}
