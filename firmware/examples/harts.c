/* Every hart of the cluster prints its id: the controller wakes each worker
 * with a job, prints its own line, joins, then reports how many harts ran.
 * The count comes from NB_WORKERS (the config) and from the workers that
 * actually checked in, so a worker that never ran is a failure. */
#include <stdio.h>

#include "npu.h"
#include "npu_platform.h"

static volatile unsigned checked_in;

static void say_hart(void *arg) {
    (void)arg;
    npu_printf("hart %u\n", npu_core_id());
#if defined(__riscv_atomic)
    /* Built with the A extension (-march=rv32ima...): an AMO, which npusim runs. */
    __atomic_fetch_add(&checked_in, 1, __ATOMIC_RELAXED);
#else
    /* GAP9's cores have no A extension: the count is updated under the event
     * unit's hardware mutex that is free for programs (npu_mutex.h). */
    npu_mutex_lock(NPU_MUTEX_USER);
    checked_in = checked_in + 1;
    npu_mutex_unlock(NPU_MUTEX_USER);
#endif
}

int main(void) {
    for (unsigned w = 0; w < NB_WORKERS; ++w)
        if (npu_run_on_worker(w, say_hart, 0) != 0) {
            npu_printf("cannot start worker %u\n", w);
            return 1;
        }
    say_hart(0);
    npu_wait_workers();
    unsigned ran = checked_in;
    if (ran != NB_WORKERS + 1) {
        printf("only %u of %d harts ran\n", ran, NB_WORKERS + 1);
        return 1;
    }
    printf("all %u harts done\n", ran);
    return 0;
}
