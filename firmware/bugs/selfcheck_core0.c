/* Bug class 1: a self-check that compares nothing. The comparison routine
 * starts with `if (core_id() != 0) return;` — written for a hart 0 that
 * runs the check — but it runs on the cluster controller, which is hart 8
 * on GAP9. Every run printed "Errors: 0 out of 256" and exited 0.
 *
 * The harness declares its check to npusim (npu_check_begin before calling
 * the routine, npu_check_compare inside it, npu_check_end after): the check
 * compared zero elements, so npusim fails the run with exit code 8 and says
 * so, although the firmware itself exits 0. Built with SELFCHECK_FIXED the
 * check runs on the hart that calls it, compares all 256 elements and
 * catches the planted error (firmware exit 1). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define N 256

static int32_t result[N], golden[N];

static unsigned __attribute__((noinline)) check_results(void) {
#ifndef SELFCHECK_FIXED
    if (npu_core_id() != 0) return 0; /* the bug: the checking hart is 8, not 0 */
#endif
    unsigned errors = 0;
    for (unsigned i = 0; i < N; ++i)
        if (result[i] != golden[i]) ++errors;
    npu_check_compare(N, errors);
    return errors;
}

int main(void) {
    for (unsigned i = 0; i < N; ++i) {
        golden[i] = (int32_t)(i * i);
        result[i] = (int32_t)(i * i) + (i == 77); /* one wrong element the check should catch */
    }
    npu_check_begin("results", N);
    unsigned errors = check_results();
    npu_check_end();
    printf("Errors: %u out of %u\n", errors, N);
    return errors ? 1 : 0;
}
