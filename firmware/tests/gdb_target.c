/* The program tests/firmware/gdb_test.py debugs through npusim --gdb: worker
 * 3 (and no other hart) runs scale_on_worker(), then the controller stores
 * through a NULL tile base, a bus error on the line marked FAULT. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

volatile int32_t gdb_data[4] = {1, 2, 3, 4};
static volatile unsigned scaled_by;

__attribute__((noinline)) void scale_on_worker(void *arg) {
    const int32_t k = (int32_t)(intptr_t)arg;
    for (int i = 0; i < 4; ++i)
        gdb_data[i] *= k;
    scaled_by = npu_core_id();
}

__attribute__((noinline)) void store_tile(int32_t *base, int32_t value) {
    base[16] = value; /* FAULT */
}

int main(void) {
    if (npu_run_on_worker(3, scale_on_worker, (void *)3) != 0)
        return 1;
    npu_wait_workers();
    printf("worker %u scaled the data: %ld\n", scaled_by, (long)gdb_data[3]);
    int32_t *volatile tile = NULL; /* a failed allocation */
    store_tile(tile, gdb_data[0]);
    printf("store did not fault\n");
    return 0;
}
