/* A warning a register access causes is stamped with the hart's local time:
 * the controller runs ~1300 cycles ahead of SystemC time (within its first
 * quantum) before it ends a trace region it never began. The line said
 * [0.000 us] while SystemC time had not caught up with the hart. */
#include <stdio.h>

#include "npu.h"

int main(void) {
    volatile unsigned spin = 0;
    for (unsigned i = 0; i < 100; ++i) spin += i;
    const uint64_t at = npu_cycles();
    npu_trace_end("never_begun");
    printf("trace end at cycle %lu\n", (unsigned long)at);
    return spin == 0;
}
