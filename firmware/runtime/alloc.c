/* L1 and L2 allocators.
 *
 * L1: first-fit over the free L1 between the program's L1 sections and the
 * hart stacks (__l1_noinit_end .. __stacks_bottom), with headers and
 * coalescing on free. L2: picolibc's malloc over the code region's heap.
 * Both return NULL when they cannot serve the request — the caller must
 * check, as on the SDK (an unchecked NULL tile base is bug class 4, which
 * npusim turns into a bus error at the first access). A program built with
 * -DNPU_ALLOC_ABORT_ON_FAIL calls the *_or_abort variants instead (npu.h),
 * which end the run at the failing call, printing the request and the call
 * site.
 *
 * A block is never-written for npusim's memcheck until the program writes
 * it, whatever the allocator wrote there before (headers of freed blocks,
 * earlier users): each allocation tells npusim through the memcheck
 * registers of soc_periph (no effect on silicon-like behaviour). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "npu.h"

extern char __l1_noinit_end[], __stacks_bottom[];

/* A block header; `size` includes the header, bit 0 marks a free block. */
typedef struct l1_block {
    uint32_t size;
} l1_block;

#define L1_ALIGN 8u
static npu_spinlock_t l1_lock = NPU_LOCK_ON_MUTEX(NPU_MUTEX_L1_ALLOC);
static int l1_ready;

/* Under l1_lock: the ADDR/UNWRITTEN pair must not interleave between harts. */
static void mark_unwritten_locked(void *p, size_t size) {
    *npu_soc_reg(NPU_MEMCHECK_ADDR) = (uint32_t)(uintptr_t)p;
    *npu_soc_reg(NPU_MEMCHECK_UNWRITTEN) = (uint32_t)size;
}

static l1_block *first_block(void) {
    uintptr_t a = ((uintptr_t)__l1_noinit_end + L1_ALIGN - 1) & ~(uintptr_t)(L1_ALIGN - 1);
    return (l1_block *)a;
}

static l1_block *heap_end(void) { return (l1_block *)((uintptr_t)__stacks_bottom & ~(uintptr_t)(L1_ALIGN - 1)); }

static l1_block *next_block(l1_block *b) { return (l1_block *)((char *)b + (b->size & ~1u)); }

static void l1_init(void) {
    l1_block *b = first_block();
    b->size = (uint32_t)((char *)heap_end() - (char *)b) | 1u;
    l1_ready = 1;
}

size_t npu_l1_free_bytes(void) {
    npu_spin_lock(&l1_lock);
    if (!l1_ready) l1_init();
    size_t largest = 0;
    for (l1_block *b = first_block(); b < heap_end(); b = next_block(b)) {
        if (!(b->size & 1u)) continue;
        /* Neighbouring free blocks merged first, as npu_l1_malloc merges
         * them: frees only mark, so unmerged the figure was the largest
         * fragment, not the largest block malloc can return. */
        while (next_block(b) < heap_end() && (next_block(b)->size & 1u)) b->size += next_block(b)->size & ~1u;
        if ((b->size & ~1u) - sizeof(l1_block) > largest) largest = (b->size & ~1u) - sizeof(l1_block);
    }
    npu_spin_unlock(&l1_lock);
    return largest;
}

void *npu_l1_malloc(size_t size) {
    /* Header + payload rounded up to the alignment. */
    size_t need = (size + sizeof(l1_block) + L1_ALIGN - 1) & ~(size_t)(L1_ALIGN - 1);
    if (size == 0 || need < size) return NULL;
    npu_spin_lock(&l1_lock);
    if (!l1_ready) l1_init();
    void *p = NULL;
    for (l1_block *b = first_block(); b < heap_end(); b = next_block(b)) {
        if (!(b->size & 1u)) continue;
        /* Merge following free blocks first: frees only mark. */
        while (next_block(b) < heap_end() && (next_block(b)->size & 1u)) b->size += next_block(b)->size & ~1u;
        uint32_t have = b->size & ~1u;
        if (have < need) continue;
        if (have - need >= 2 * L1_ALIGN) {
            l1_block *rest = (l1_block *)((char *)b + need);
            rest->size = (uint32_t)(have - need) | 1u;
            b->size = (uint32_t)need;
        } else {
            b->size = have;
        }
        p = b + 1;
        mark_unwritten_locked(p, size);
        break;
    }
    npu_spin_unlock(&l1_lock);
    return p;
}

void npu_l1_free(void *p) {
    if (!p) return;
    npu_spin_lock(&l1_lock);
    l1_block *const target = (l1_block *)p - 1;
    /* p must start a block that is allocated now: found by walking the
     * headers, not trusted from the word before p, which after a double free
     * may belong to a block that reused the memory (its data: setting bit 0
     * there corrupted it). Anything else is reported at this call. */
    l1_block *b = first_block();
    if (!l1_ready) l1_init();
    while (b < heap_end() && b < target && (b->size & ~1u)) b = next_block(b);
    if (b != target || (b->size & 1u)) {
        *npu_soc_reg(NPU_MEMCHECK_BAD_FREE) = (uint32_t)(uintptr_t)p;
    } else {
        b->size |= 1u;
        /* Its payload is never-written again: a read through a stale
         * pointer is a finding naming where it was allocated and freed. */
        *npu_soc_reg(NPU_MEMCHECK_ADDR) = (uint32_t)(uintptr_t)p;
        *npu_soc_reg(NPU_MEMCHECK_FREED) = (b->size & ~1u) - (uint32_t)sizeof(l1_block);
    }
    npu_spin_unlock(&l1_lock);
}

void *npu_l2_malloc(size_t size) {
    void *p = malloc(size);
    if (p) {
        npu_spin_lock(&l1_lock);
        mark_unwritten_locked(p, size);
        npu_spin_unlock(&l1_lock);
    }
    return p;
}

void npu_l2_free(void *p) { free(p); }

static void alloc_failed(const char *level, size_t size, const char *file, int line) {
    printf("%s:%d: npu_%s_malloc(%u) failed: out of %s memory", file, line, level, (unsigned)size, level);
    if (level[1] == '1') printf(" (largest free block %u bytes)", (unsigned)npu_l1_free_bytes());
    printf("\n");
    exit(NPU_ALLOC_FAILED_EXIT);
}

void *npu_l1_malloc_or_abort(size_t size, const char *file, int line) {
    void *p = (npu_l1_malloc)(size);
    if (!p) alloc_failed("l1", size, file, line);
    return p;
}

void *npu_l2_malloc_or_abort(size_t size, const char *file, int line) {
    void *p = (npu_l2_malloc)(size);
    if (!p) alloc_failed("l2", size, file, line);
    return p;
}
