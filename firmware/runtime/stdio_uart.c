/* picolibc glue: stdout/stderr on the UART, exit through simulation control,
 * and npu_printf, the whole-call-atomic printf for code running on many harts. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "npu.h"

static int uart_putc(char c, FILE *f) {
    (void)f;
    *npu_soc_reg(NPU_UART_TX) = (unsigned char)c;
    return (unsigned char)c;
}

/* One unbuffered write-only stream: nothing is lost if the program ends
 * without flushing, and there is no buffer shared between harts. */
static FILE uart_stream = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
/* stderr goes to the same UART, hence to npusim's stdout: npusim keeps its
 * own stderr for its reports. Reads from stdin fail (no input device). */
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;
FILE *const stdin = &uart_stream;

void _exit(int code) {
    *npu_soc_reg(NPU_SIMCTL_EXIT) = (uint32_t)code;
    /* The write ends the run; should the simulator let the hart run on,
     * it must not fall into whatever follows. */
    for (;;)
        __asm__ volatile("wfi");
}

static npu_spinlock_t printf_lock = NPU_LOCK_ON_MUTEX(NPU_MUTEX_PRINTF);

int npu_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    npu_spin_lock(&printf_lock);
    int n = vprintf(fmt, ap);
    npu_spin_unlock(&printf_lock);
    va_end(ap);
    return n;
}

uint64_t npu_cycles(void) {
    /* Reading LO latches HI, so the pair is consistent. */
    uint32_t lo = *npu_soc_reg(NPU_PERF_CYCLES_LO);
    uint32_t hi = *npu_soc_reg(NPU_PERF_CYCLES_HI);
    return ((uint64_t)hi << 32) | lo;
}
