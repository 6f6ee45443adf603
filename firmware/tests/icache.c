/* The cluster's shared instruction cache (docs/cores.md, "Instruction
 * fetch"): a straight-line run of nops that fits the cache (1 KiB: 64 lines of
 * 16 B) and one that does not (8 KiB: 512 lines, twice the 4 KiB cache), each
 * timed cold (first pass) and warm (second pass) between two `csrr cycle`.
 * The timed code is one asm block: the first csrr's line, then the
 * line-aligned sled, then the second csrr's line, so the lines fetched between
 * the two reads are the sled's plus the second csrr's.
 * gap9 defaults (4 KiB, 4 ways, 16 B lines, 8 cycles a miss):
 *   fits:  cold - warm = 65 lines x 8 (every line misses once, then hits);
 *   big:   cold == warm (round-robin over 8 lines per 4-way set: every line
 *          misses on every pass).
 * The ctest checks the printed cycles exactly, and once more with
 * --icache.enabled=false (then cold == warm == the instructions' cycles). */
#include <stdint.h>
#include <stdio.h>

#define SLED(name, lines)                                                                          \
    static __attribute__((noinline)) uint32_t name(void) {                                         \
        uint32_t t0, t1;                                                                           \
        __asm__ volatile(".option push\n\t.option norvc\n\t.balign 16\n\t"                         \
                         "csrr %0, cycle\n\tnop\n\tnop\n\tnop\n\t"                                 \
                         ".rept " #lines " * 4\n\tnop\n\t.endr\n\t"                                \
                         "csrr %1, cycle\n\t.option pop"                                           \
                         : "=&r"(t0), "=&r"(t1));                                                  \
        return t1 - t0;                                                                            \
    }

SLED(sled_fits, 64)
SLED(sled_big, 512)

int main(void) {
    const uint32_t fits_cold = sled_fits(), fits_warm = sled_fits();
    const uint32_t big_cold = sled_big(), big_warm = sled_big();
    printf("fits (1 KiB): cold %lu warm %lu cycles, cold - warm %lu\n", (unsigned long)fits_cold,
           (unsigned long)fits_warm, (unsigned long)(fits_cold - fits_warm));
    printf("big (8 KiB): cold %lu warm %lu cycles, cold - warm %lu\n", (unsigned long)big_cold,
           (unsigned long)big_warm, (unsigned long)(big_cold - big_warm));
    return 0;
}
