/* Many fork/join rounds through npu_run_on_worker / npu_wait_workers (one
 * single-worker fork per worker on the event unit's dispatcher): between
 * rounds the workers sleep on the dispatch register, so every round races a
 * dispatch against a worker going back to sleep. Each job adds to its worker's own counter; the controller
 * checks every counter after every join. A lost job or a job run twice is a
 * wrong count (exit 1); a lost wake-up that is never recovered hangs and is
 * caught by the test's --max-cycles watchdog. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

#define ROUNDS 200

static volatile uint32_t counters[NB_WORKERS];

static void add_round(void *arg) {
    counters[npu_core_id()] += (uint32_t)(uintptr_t)arg;
}

int main(void) {
    uint32_t expected = 0;
    for (unsigned r = 1; r <= ROUNDS; ++r) {
        for (unsigned w = 0; w < NB_WORKERS; ++w)
            if (npu_run_on_worker(w, add_round, (void *)(uintptr_t)r) != 0) {
                printf("round %u: worker %u busy after join\n", r, w);
                return 1;
            }
        npu_wait_workers();
        expected += r;
        for (unsigned w = 0; w < NB_WORKERS; ++w)
            if (counters[w] != expected) {
                printf("round %u: worker %u counted %lu, expected %lu\n", r, w, (unsigned long)counters[w],
                       (unsigned long)expected);
                return 1;
            }
    }
    printf("%d rounds on %d workers: all jobs ran exactly once\n", ROUNDS, NB_WORKERS);
    return 0;
}
