/* Register map of the cluster control block (worker boot and wake-up).
 * Offsets from cluster_periph.base. Plain C, shared by model and firmware.
 * Workers boot parked; the cluster controller writes a hart mask to WAKE to
 * start them (PULP's "fetch enable"). Events, barriers and fork/join are the
 * event unit's (models/cluster/event_unit_regs.h). */
#ifndef NPU_CLUSTER_CTRL_REGS_H
#define NPU_CLUSTER_CTRL_REGS_H

#define NPU_CLUSTER_WAKE      0x000u      /* W: bit i set = wake hart i (start it if parked, end its WFI) */
#define NPU_CLUSTER_BOOT_ADDR 0x004u /* RW: where parked harts start when woken (reset: ELF entry) */
#define NPU_CLUSTER_AWAKE     0x008u     /* R: bit i set = hart i is running (not parked, not in WFI) */
#define NPU_CLUSTER_NB_HARTS  0x00Cu  /* R: number of harts (workers + 1) */

#define NPU_CLUSTER_CTRL_SPAN 0x010u

#endif
