/* Event-unit misuse must stop at the access, not hang silently:
 *  EU_CC_BARRIER: the cluster controller enters the workers' barrier (it is
 *    no team member): the event unit answers with a command error, which is
 *    a bus error naming the PC in npu_barrier's caller.
 *  EU_WAIT_FOREVER: the controller waits for a software event nobody
 *    raises: every hart sleeps, so the run ends as a deadlock whose report
 *    shows the controller asleep in the event unit.
 *  EU_FORK_TOO_MANY: a fork onto more workers than the cluster has (9 of 8):
 *    refused at the fork (it was clamped to all workers, silently).
 *  EU_SW_EVENT_NO_HART: a software event for a hart that does not exist,
 *    after the controller ran ~4000 cycles without synchronising: refused at
 *    the store, and the run ends there whatever the quantum (it ended at
 *    twice the store's time with a 100 us quantum). */
#include <stdio.h>

#include "npu.h"

static void nothing(void *arg) { (void)arg; }

__attribute__((noinline, unused)) static void controller_joins_the_barrier(void) { npu_barrier(); }
__attribute__((noinline, unused)) static void fork_nine(void) { npu_cluster_run(9, nothing, 0); }

int main(void) {
#if !defined(EU_SW_EVENT_NO_HART)
    npu_cluster_run(0, nothing, 0); /* barrier 0's team = every worker */
#endif
#if defined(EU_CC_BARRIER)
    puts("controller enters the workers' barrier");
    controller_joins_the_barrier();
#elif defined(EU_FORK_TOO_MANY)
    puts("controller forks 9 workers");
    fork_nine();
#elif defined(EU_SW_EVENT_NO_HART)
    puts("controller raises software event 3 for hart 9");
    for (volatile int i = 0; i < 400; ++i) {
    }
    npu_evt_trigger(3, 1u << 9);
#elif defined(EU_WAIT_FOREVER)
    puts("controller waits for software event 3");
    npu_evt_wait(1u << (NPU_EVT_SW0 + 3));
#endif
    puts("not reached");
    return 0;
}
