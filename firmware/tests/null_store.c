/* Bug class 4: a failed L1 allocation returned NULL and the tile addresses
 * were computed from that base. The store to tile 1 (address 0x40) must be
 * a bus error naming write_tile and "unmapped", not a silent write. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define TILE_WORDS 16

/* noinline + a volatile base: the compiler cannot see the NULL and must
 * emit a real store in a function the report can name. */
__attribute__((noinline)) void write_tile(int32_t *base, unsigned tile, int32_t value) {
    base[tile * TILE_WORDS] = value;
}

int main(void) {
    int32_t *volatile l1_buffer = NULL; /* what the failed allocation returned */
    printf("writing tile 1 through a NULL base\n");
    write_tile(l1_buffer, 1, 42);
    printf("store did not fault\n");
    return 0;
}
