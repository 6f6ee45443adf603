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
#include "npurt_conv.h"

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

/* The int8 epilogue (npurt_conv.h), shared by npurt_conv2d and npurt_matmul_ep.
 * npurt_rq (npurt_conv.h), computed without 64-bit shifts when s >= 33 (every
 * realistic int8 layer: m ~ 2^30, the scale ratio < 2^-2): then 2^(s-1) only
 * touches the high word of a * m, and
 *   (a * m + 2^(s-1)) >> s == (hi(a * m) + 2^(s-33)) >> (s-32)
 * exactly (floor division by 2^32 first, then by 2^(s-32)); |hi| < 2^30 and
 * 2^(s-33) <= 2^29, so the sum stays in int32. */
static inline int32_t rq_fast(int32_t a, int32_t m, int32_t s) {
    if (s >= 33) return ((int32_t)(((int64_t)a * m) >> 32) + (1 << (s - 33))) >> (s - 32);
    return npurt_rq(a, m, s);
}

static inline int8_t clamp_i8(int64_t v, int32_t lo, int32_t hi) {
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int8_t)v;
}

static inline int8_t epilogue_i8(int32_t acc, int32_t bias, int32_t m, int32_t s, int32_t lo, int32_t hi) {
    const int32_t v = rq_fast((int32_t)((uint32_t)acc + (uint32_t)bias), m, s);
    return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

#endif /* NPURT_INTERNAL_H */
