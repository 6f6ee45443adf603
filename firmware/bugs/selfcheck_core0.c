/* Bug class 1: a self-check that compares nothing. The comparison routine
 * starts with `if (core_id() != 0) return;` — written for a hart 0 that
 * runs the check — but it runs on the cluster controller, which is hart 8
 * on GAP9. Every run printed "Errors: 0". The fixed harness counts what it
 * compared and treats zero compared as a failure: here the run fails, and
 * the output says why. Built with SELFCHECK_FIXED the check runs on the
 * hart that calls it and passes. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define N 256

static int32_t result[N], golden[N];

static unsigned compared, errors;

static void __attribute__((noinline)) check_results(void) {
#ifndef SELFCHECK_FIXED
    if (npu_core_id() != 0) return; /* the bug: the checking hart is 8, not 0 */
#endif
    for (unsigned i = 0; i < N; ++i) {
        ++compared;
        if (result[i] != golden[i]) ++errors;
    }
}

int main(void) {
    for (unsigned i = 0; i < N; ++i) {
        golden[i] = (int32_t)(i * i);
        result[i] = (int32_t)(i * i) + (i == 77); /* one wrong element the check should catch */
    }
    check_results();
    printf("Errors: %u out of %u (compared %u elements)\n", errors, N, compared);
    if (compared == 0) {
        printf("FAIL: the self-check compared 0 elements\n");
        return 2;
    }
    return errors ? 1 : 0;
}
