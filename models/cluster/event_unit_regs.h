/* Register map of the cluster event unit (events, hardware barriers,
 * fork/join dispatcher). Offsets from event_unit.base. Plain C, shared by the
 * model (models/cluster/event_unit.cpp) and the firmware (firmware/runtime).
 *
 * Like PULP's event unit, the window is a per-hart view: the same address
 * reaches the accessing hart's own mask and buffer (the model knows the hart
 * from the transaction), so firmware never computes per-core addresses.
 * Every register is 32-bit; an unclaimed offset is an address error, a
 * wrong-size access, a read of a write-only register, a write to a read-only
 * one, or a use the register's state forbids (marked "error:" below) is a
 * command error: both reach the core as bus errors.
 *
 * "blocks": a load from that register puts the hart to sleep until the
 * condition holds (it then counts as sleep, not as cycles executed). */
#ifndef NPU_EVENT_UNIT_REGS_H
#define NPU_EVENT_UNIT_REGS_H

/* --- event lines (bit numbers in masks and buffers) ----------------------- */
#define NPU_EVT_SW0          0u          /* software events 0..7 (NPU_EU_SW_EVENT(n)) */
#define NPU_EVT_NB_SW        8u
#define NPU_EVT_DMA_DONE     8u     /* a DMA transfer completed (raised by the platform) */
#define NPU_EVT_DMA_ERROR    9u    /* a DMA transfer aborted on a bus error */
#define NPU_EVT_SA_DONE      10u     /* the systolic array finished a job */
#define NPU_EVT_SA_ERROR     11u    /* the systolic array stopped on a bus error */
#define NPU_EVT_BARRIER      12u     /* a hardware barrier this hart belongs to completed */
#define NPU_EVT_DISPATCH     13u    /* a job was dispatched to this hart */
#define NPU_EVT_JOIN         14u        /* every job the hart forked is done (to the forking hart) */
#define NPU_EVT_NB_LINES     32u    /* lines 15..31 are reserved */
#define NPU_EVT_NB_IRQ_LINES 16u /* lines 0..15 can interrupt: line n drives mip bit 16 + n */

/* --- per-hart event registers --------------------------------------------- */
#define NPU_EU_EVT_MASK      0x000u       /* RW: lines this hart waits on (reset 0) */
#define NPU_EU_EVT_MASK_AND  0x004u   /* W: mask &= ~value (clear bits) */
#define NPU_EU_EVT_MASK_OR   0x008u    /* W: mask |= value (set bits) */
#define NPU_EU_IRQ_MASK      0x00Cu       /* RW: lines (0..15) that raise this hart's local interrupt 16 + line */
#define NPU_EU_BUFFER        0x010u         /* R: events received and not cleared (all lines) */
#define NPU_EU_BUFFER_MASKED 0x014u  /* R: BUFFER & EVT_MASK */
#define NPU_EU_BUFFER_CLEAR  0x018u   /* W: buffer &= ~value */
#define NPU_EU_EVT_WAIT \
    0x01Cu       /* R, blocks until BUFFER & EVT_MASK != 0; returns it (not cleared).
                                        error: EVT_MASK == 0 (nothing could end the wait) */
#define NPU_EU_EVT_WAIT_CLEAR 0x020u /* R, blocks like EVT_WAIT; returns the bits and clears them */
#define NPU_EU_HART_ID        0x024u        /* R: the accessing hart's id (the view the window shows) */

/* Software event n (0..7): W, value = hart mask; raises line n in each of
 * those harts' buffers. error: a bit for a hart that does not exist. */
#define NPU_EU_SW_EVENT(n) (0x040u + 4u * (n))

/* --- hardware barriers ---------------------------------------------------- */
#define NPU_EU_NB_BARRIERS 4u
#define NPU_EU_BARRIER(b)  (0x080u + 0x10u * (b))
#define NPU_EU_BARRIER_TEAM \
    0x0u    /* RW: hart mask of the team; a write starts a new round.
                                       error: bits for harts that do not exist */
#define NPU_EU_BARRIER_ARRIVED 0x4u /* R: team members arrived in the current round */
#define NPU_EU_BARRIER_WAIT \
    0x8u    /* R, blocks: arrive, sleep until the whole team arrived (all
                                       members leave at the last arrival's time); returns the team.
                                       error: hart not in the team, or already arrived this round */
#define NPU_EU_BARRIER_ARRIVE 0xCu  /* W: arrive without waiting (same errors as WAIT) */

/* --- hardware mutexes ----------------------------------------------------- */
/* PULP's event unit has hardware mutexes so that cores without the A
 * extension (GAP9's) can lock: a load takes the mutex, sleeping while another
 * hart holds it; a store releases it. Waiters take it in the order SystemC
 * runs them at the release (deterministic), each at the release's time.
 * The runtime's own locks use mutexes 0..2 (firmware/runtime/npu.h); 3 is the
 * program's. */
#define NPU_EU_NB_MUTEXES 4u
#define NPU_EU_MUTEX(m) \
    (0x0C0u + 4u * (m)) /* R, blocks: until this hart holds mutex m; returns 1.
                                       error: the hart already holds it (it would wait forever)
                           W: releases it (any value). error: the hart does not hold it */

/* --- fork/join dispatcher ------------------------------------------------- */
#define NPU_EU_DISPATCH_FN  0x100u   /* RW: function of the next fork */
#define NPU_EU_DISPATCH_ARG 0x104u  /* RW: argument of the next fork */
#define NPU_EU_DISPATCH_FORK \
    0x108u /* W: team mask (workers only): queue (FN, ARG) to each member,
                                       set barrier 0's team to it, raise NPU_EVT_DISPATCH there.
                                       error: empty team or a bit that is not a worker */
#define NPU_EU_DISPATCH_POP \
    0x10Cu  /* R, blocks (worker): until a job is queued for this hart;
                                       returns its function and makes it current.
                                       error: the current job is not DONE yet */
#define NPU_EU_DISPATCH_POP_ARG 0x110u /* R: argument of this hart's current job */
#define NPU_EU_DISPATCH_TEAM    0x114u    /* R: team mask of this hart's current job */
#define NPU_EU_DISPATCH_DONE \
    0x118u    /* W: this hart's current job returned.
                                          error: no current job */
#define NPU_EU_DISPATCH_JOIN \
    0x11Cu    /* R, blocks: until every job this hart forked is done;
                                          returns the harts that ran them (then forgets them).
                                          error: the hart itself still runs a job it must end first */
#define NPU_EU_DISPATCH_BUSY 0x120u    /* R: workers with a queued or running job */

#define NPU_EU_SPAN 0x124u

#endif
