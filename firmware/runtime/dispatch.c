/* Stop-gap fork/join between the cluster controller and the workers, until
 * the event unit (issue 4) provides hardware events and barriers.
 *
 * One mailbox per hart in L1 (fast to poll, zeroed by crt0). The controller
 * fills it, then wakes the worker; the worker runs the job and raises `done`.
 * A WAKE write can race with the worker going to sleep (it checked an empty
 * mailbox, then the controller posted and woke it, then it executed wfi), so
 * npu_wait_workers re-sends the wake-up to workers that are not done yet: a
 * wake-up to a hart that is awake costs one spurious mailbox check. */
#include "npu.h"

struct npu_mailbox {
    void (*volatile fn)(void *);
    void *volatile arg;
    volatile uint32_t done;
    uint32_t pad; /* 16 bytes: one mailbox per 4 L1 banks */
};

static NPU_L1_BSS struct npu_mailbox mailboxes[NPU_MAX_HARTS];
/* Workers with a posted job not yet joined; touched by the controller only. */
static uint32_t posted_mask;

int npu_run_on_worker(unsigned hart, void (*fn)(void *), void *arg) {
    if (hart >= npu_nb_workers() || (posted_mask >> hart) & 1u) return -1;
    struct npu_mailbox *mb = &mailboxes[hart];
    mb->done = 0;
    mb->arg = arg;
    mb->fn = fn;
    posted_mask |= 1u << hart;
    npu_cluster_wake(1u << hart);
    return 0;
}

void npu_wait_workers(void) {
    unsigned polls = 0;
    while (posted_mask) {
        uint32_t pending = 0;
        for (unsigned h = 0; h < NPU_MAX_HARTS; ++h) {
            if (!((posted_mask >> h) & 1u)) continue;
            if (__atomic_load_n(&mailboxes[h].done, __ATOMIC_ACQUIRE)) posted_mask &= ~(1u << h);
            else pending |= 1u << h;
        }
        /* Re-wake rarely: often enough to recover a lost wake-up quickly,
         * rarely enough not to flood the cluster peripheral bus. */
        if (pending && (++polls & 63u) == 0) npu_cluster_wake(pending);
    }
}

__attribute__((weak)) void npu_worker_entry(void) {
    struct npu_mailbox *mb = &mailboxes[npu_core_id()];
    for (;;) {
        void (*fn)(void *) = mb->fn;
        if (!fn) {
            __asm__ volatile("wfi");
            continue;
        }
        void *arg = mb->arg;
        mb->fn = 0;
        fn(arg);
        __atomic_store_n(&mb->done, 1, __ATOMIC_RELEASE);
    }
}
