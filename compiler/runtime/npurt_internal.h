/* Helpers of the runtime kernels (npurt.c, npurt_conv.c), not part of the
 * ABI. Static, so each kernel file keeps its own copy: the code of every
 * kernel, and so the cycles of every network already compiled, stays what it
 * was when each file had its own. */
#ifndef NPURT_INTERNAL_H
#define NPURT_INTERNAL_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "npu_dma.h"

/* A kernel's fatal error: the message on the UART, then exit(code). */
static void __attribute__((noreturn, format(printf, 2, 3))) npurt_die(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    exit(code);
}

/* Waits for transfer *id (-1: nothing pending) and marks it done; a failed
 * transfer stops the run naming the kernel and what it moved. */
static void dma_done(const char *kernel, const char *what, int *id) {
    if (*id < 0) return;
    const int bad = npu_dma_wait(*id);
    *id = -1;
    if (bad)
        npurt_die(1, "%s: DMA %s transfer failed at address 0x%08lx (error info 0x%lx)", kernel, what,
                  (unsigned long)npu_dma_error_address(), (unsigned long)npu_dma_error_info());
}

static inline uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1u) / b; }
static inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

#endif /* NPURT_INTERNAL_H */
