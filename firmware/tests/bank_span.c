/* A word load takes every L1 bank its four bytes span, whatever
 * l1.bank_width is (4 B: one bank; 2 B: two; 1 B: four).
 *
 * Worker 0 loads the word at byte 0 of a 64-byte-aligned row in an unrolled
 * loop while worker 1 loads one byte, at byte 2 of the row (inside the word:
 * its bank is one of the word's) or at byte 4 (the next word: a bank the word
 * does not use, for bank widths up to 4 B with at least 2 banks), each
 * 2048 times. The pair's cycles per load (its slower worker's) are timed
 * with worker 1 alone and with worker 0 loading too. A byte inside the word
 * must be slowed (by at least a quarter: the two share a bank, one access
 * per cycle), the next word's byte not (within 2 %).
 * Exit 0 when both hold, 2 otherwise. Figures x100 are printed as X.YY. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define UNROLL 32
#define ITERS 64 /* 2048 loads */

static NPU_L1_DATA __attribute__((aligned(64))) uint8_t row[64] = {1};
static NPU_L1_BSS uint64_t cycles[2];

/* arg: the byte offset worker 1 loads from; bit 8: worker 0 loads the word
 * meanwhile (else it returns at once). */
static void job(void *arg) {
    const unsigned a = (unsigned)(uintptr_t)arg;
    const unsigned id = npu_core_id();
    cycles[id] = 0;
    if (id == 0 && !(a & 0x100u)) return;
    const uint64_t t0 = npu_hart_cycles();
    if (id == 0) {
        const volatile uint32_t *w = (const volatile uint32_t *)row;
        for (unsigned i = 0; i < ITERS; ++i)
            __asm__ volatile(".rept 32\n\tlw t0, 0(%0)\n\t.endr" : : "r"(w) : "t0", "memory");
    } else {
        const volatile uint8_t *b = row + (a & 0xFFu);
        for (unsigned i = 0; i < ITERS; ++i)
            __asm__ volatile(".rept 32\n\tlbu t0, 0(%0)\n\t.endr" : : "r"(b) : "t0", "memory");
    }
    cycles[id] = npu_hart_cycles() - t0;
}

/* x100 cycles per load of the slower worker (the pair's: the one that lost
 * the shared bank's turns waited for the other's loads). */
static uint32_t per_load_x100(unsigned offset, int with_word) {
    npu_cluster_run(2, job, (void *)(uintptr_t)(offset | (with_word ? 0x100u : 0)));
    const uint64_t most = cycles[0] > cycles[1] ? cycles[0] : cycles[1];
    return (uint32_t)(most * 100 / ((uint64_t)ITERS * UNROLL));
}

int main(void) {
    int ok = 1;
    for (unsigned offset = 2; offset <= 4; offset += 2) {
        const uint32_t alone = per_load_x100(offset, 0), with = per_load_x100(offset, 1);
        printf("bank span: byte load at %u, cycles per load %lu.%02lu alone, %lu.%02lu with word loads at 0\n",
               offset, (unsigned long)(alone / 100), (unsigned long)(alone % 100), (unsigned long)(with / 100),
               (unsigned long)(with % 100));
        if (offset == 2 && with * 4 < alone * 5) {
            printf("bank span: a byte inside the word is not slowed by the word's loads\n");
            ok = 0;
        }
        if (offset == 4 && with * 100 > alone * 102) {
            printf("bank span: a byte outside the word is slowed by the word's loads\n");
            ok = 0;
        }
    }
    if (!ok) return 2;
    printf("bank span: a word load takes the banks it spans, no other\n");
    return 0;
}
