/* The platform of the QEMU `virt` build of the ISS benchmark workloads
 * (bench/CMakeLists.txt): picolibc glue (stdout on the NS16550A UART's
 * transmit register, exit through the SiFive test device: QEMU's exit code
 * is 0 for 0x5555, else the code in bits 31:16 with 0x3333) and the two
 * runtime functions bench_harness.h calls. picolibc's crt0-hosted does the
 * rest (stack, .data, .bss, FPU on); virt.ld defines npu.h's symbols. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define VIRT_UART0 ((volatile uint8_t *)0x10000000u)
#define VIRT_TEST ((volatile uint32_t *)0x00100000u)
#define VIRT_TEST_PASS 0x5555u
#define VIRT_TEST_FAIL 0x3333u

static int uart_putc(char c, FILE *f) {
    (void)f;
    *VIRT_UART0 = (uint8_t)c;  /* QEMU's UART takes every byte at once: no LSR poll */
    return (unsigned char)c;
}

static FILE uart_stream = FDEV_SETUP_STREAM(uart_putc, NULL, NULL, _FDEV_SETUP_WRITE);
FILE *const stdout = &uart_stream;
FILE *const stderr = &uart_stream;

void _exit(int code) {
    *VIRT_TEST = code == 0 ? VIRT_TEST_PASS : ((uint32_t)code << 16) | VIRT_TEST_FAIL;
    for (;;)
        __asm__ volatile("wfi");
}

/* One hart, no cluster: the 1-hart builds start no worker. */
int npu_run_on_worker(unsigned hart, npu_job_fn fn, void *arg) {
    (void)hart, (void)fn, (void)arg;
    return -1;
}

void npu_wait_workers(void) {}
