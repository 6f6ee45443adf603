/* Every worker scales its slice of a vector; the controller checks the sum. */
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define N 64

static int data[N];

static void scale_slice(void *arg) {
    const unsigned w = npu_core_id();
    for (unsigned i = w; i < N; i += NB_WORKERS)
        data[i] *= (int)(long)arg;
}

int main(void) {
    int expected = 0;
    for (int i = 0; i < N; ++i) {
        data[i] = i % 10;
        expected += 5 * (i % 10);
    }
    for (unsigned w = 0; w < NB_WORKERS; ++w)
        if (npu_run_on_worker(w, scale_slice, (void *)5) != 0)
            return 1;
    npu_wait_workers();
    int sum = 0;
    for (int i = 0; i < N; ++i)
        sum += data[i];
    printf("scaled on %d workers: sum %d (expected %d)\n", NB_WORKERS, sum, expected);
    return sum == expected ? 0 : 1;
}
