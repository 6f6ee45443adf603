/* Directed checks of the firmware tests: a mismatch prints one FAIL line and
 * is counted; the program prints the totals and exits non-zero on failures. */
#pragma once

#include <stdint.h>
#include <stdio.h>

static unsigned checks, failures;

static void check(const char *what, uint32_t got, uint32_t want) {
    ++checks;
    if (got != want) {
        ++failures;
        printf("FAIL %s: got 0x%08lx, want 0x%08lx\n", what, (unsigned long)got, (unsigned long)want);
    }
}
