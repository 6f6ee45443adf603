/* Locks without atomics: the cluster event unit's hardware mutexes
 * (event_unit_regs.h, docs/memory-map.md). GAP9's cores have no A extension,
 * so the runtime locks this way whatever -march it is built for. A lock is a
 * load from NPU_EU_MUTEX(m), which sleeps while another hart holds m (the
 * sleep counts as sleep, not as cycles executed); the unlock is a store.
 * Taking a mutex the hart already holds, or releasing one it does not hold,
 * is a bus error at that access. The runtime uses mutexes 0..2, never one
 * inside another; NPU_MUTEX_USER is the program's. */
#ifndef NPU_MUTEX_H
#define NPU_MUTEX_H

#include <stdint.h>

#include "event_unit_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NPU_MUTEX_PRINTF   0u
#define NPU_MUTEX_L1_ALLOC 1u
#define NPU_MUTEX_DMA      2u
#define NPU_MUTEX_USER     3u

extern char __npu_event_unit_base[];

static inline void npu_mutex_lock(unsigned m) {
    (void)*(volatile uint32_t *)((uintptr_t)__npu_event_unit_base + NPU_EU_MUTEX(m));
    __asm__ volatile("" ::: "memory"); /* the section's accesses stay after the lock */
}

static inline void npu_mutex_unlock(unsigned m) {
    __asm__ volatile("fence" ::: "memory"); /* the section's stores are visible first */
    *(volatile uint32_t *)((uintptr_t)__npu_event_unit_base + NPU_EU_MUTEX(m)) = 0;
}

#ifdef __cplusplus
}
#endif

#endif
