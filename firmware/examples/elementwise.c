/* A parallel elementwise kernel: y = relu(a * x + b) over int32 vectors in
 * L1, split across the 8 workers with the event unit's fork/join; the
 * cluster controller then checks every element against its own serial
 * computation and prints how many it compared, and the cycles of the serial
 * and the parallel version. A check that compares nothing fails. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define N 4096

static int32_t x[N] NPU_L1_BSS;
static int32_t y[N] NPU_L1_BSS;
static int32_t ref[N] NPU_L1_BSS; /* same level as y: a fair serial baseline */

struct job {
    const int32_t *x;
    int32_t *y;
    int32_t a, b;
    unsigned n;
};

static void __attribute__((noinline)) kernel(const int32_t *xs, int32_t *ys, int32_t a, int32_t b, unsigned from,
                                             unsigned to) {
    for (unsigned i = from; i < to; ++i) {
        int32_t v = a * xs[i] + b;
        ys[i] = v > 0 ? v : 0;
    }
}

/* Each worker takes a contiguous chunk; the last takes the remainder. */
static void worker(void *arg) {
    const struct job *j = arg;
    unsigned team = npu_team_size(), id = npu_core_id();
    unsigned chunk = j->n / team;
    unsigned from = id * chunk, to = id + 1 == team ? j->n : from + chunk;
    kernel(j->x, j->y, j->a, j->b, from, to);
}

int main(void) {
    for (unsigned i = 0; i < N; ++i) x[i] = (int32_t)(i * 2654435761u) >> 20;

    uint64_t t0 = npu_cycles();
    npu_trace_begin("elementwise serial");
    kernel(x, ref, 3, -7, 0, N);
    npu_trace_end("elementwise serial");
    uint64_t t1 = npu_cycles();

    struct job j = {x, y, 3, -7, N};
    npu_trace_begin("elementwise 8 workers");
    npu_cluster_run(0, worker, &j);
    npu_trace_end("elementwise 8 workers");
    uint64_t t2 = npu_cycles();

    unsigned compared = 0, mismatches = 0;
    for (unsigned i = 0; i < N; ++i) {
        ++compared;
        if (y[i] != ref[i]) {
            if (mismatches < 5) printf("mismatch at %u: got %ld expected %ld\n", i, (long)y[i], (long)ref[i]);
            ++mismatches;
        }
    }
    printf("elementwise relu(3x-7) on %u workers: compared %u of %u elements, %u mismatches\n", npu_nb_workers(),
           compared, N, mismatches);
    printf("cycles: serial %lu, %u workers %lu (speed-up %lu.%02lu)\n", (unsigned long)(t1 - t0), npu_nb_workers(),
           (unsigned long)(t2 - t1), (unsigned long)((t1 - t0) / (t2 - t1)),
           (unsigned long)((t1 - t0) * 100 / (t2 - t1) % 100));
    if (compared == 0 || compared != N) {
        printf("FAIL: the check compared %u elements\n", compared);
        return 2;
    }
    return mismatches ? 1 : 0;
}
