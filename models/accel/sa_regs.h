/* Register map of the systolic array (SA). Offsets from sa_ctrl.base.
 * Plain C, shared by the model (models/accel) and the firmware HAL
 * (firmware/runtime/sa.c), so the two cannot disagree. See docs/sa.md.
 *
 * Job: C[MxN] = A[MxK] * B[KxN] (+ C when CTRL.ACCUMULATE), row-major, each
 * operand addressed by its base and a leading stride in BYTES (distance
 * between the starts of consecutive rows). int8 mode: A, B int8, C int32;
 * fp32 mode: A, B, C fp32. Every operand must lie in L1: the SA's master
 * sees nothing else, an L2/L3/NULL operand is a bus error of the SA. */
#ifndef NPU_SA_REGS_H
#define NPU_SA_REGS_H

#define NPU_SA_A_ADDR   0x000u   /* RW: bus address of A[0][0] */
#define NPU_SA_B_ADDR   0x004u   /* RW: bus address of B[0][0] */
#define NPU_SA_C_ADDR   0x008u   /* RW: bus address of C[0][0] */
#define NPU_SA_M        0x00Cu        /* RW: rows of A and C (1..65535) */
#define NPU_SA_N        0x010u        /* RW: columns of B and C (1..65535) */
#define NPU_SA_K        0x014u        /* RW: columns of A, rows of B (1..65535) */
#define NPU_SA_LDA      0x018u      /* RW: bytes between rows of A (>= K * element size) */
#define NPU_SA_LDB      0x01Cu      /* RW: bytes between rows of B (>= N * element size) */
#define NPU_SA_LDC      0x020u      /* RW: bytes between rows of C (>= N * 4) */
#define NPU_SA_CTRL     0x024u     /* RW: NPU_SA_CTRL_* bits */
#define NPU_SA_START    0x028u    /* W: any value starts the programmed job */
#define NPU_SA_STATUS   0x02Cu   /* R: NPU_SA_STATUS_* bits, as of the reader's time */
#define NPU_SA_WAIT     0x030u     /* R: completes when the job has ended; returns STATUS */
#define NPU_SA_ERR_ADDR 0x034u /* R: bus address of the access that faulted */
#define NPU_SA_ERR_INFO 0x038u /* R: NPU_SA_ERR_* fields of that access */
#define NPU_SA_CYCLES   0x03Cu   /* R: cycles of the last job (to its end or its fault) */
#define NPU_SA_ROWS     0x040u     /* R: array rows R (sa.rows) */
#define NPU_SA_COLS     0x044u     /* R: array columns C (sa.cols) */

#define NPU_SA_SPAN 0x048u

#define NPU_SA_CTRL_DTYPE_FP32 0x1u  /* 0: int8 x int8 -> int32, 1: fp32 */
#define NPU_SA_CTRL_ACCUMULATE 0x2u  /* C += A * B instead of C = A * B */

#define NPU_SA_STATUS_BUSY  0x1u
#define NPU_SA_STATUS_DONE  0x2u  /* the last job completed */
#define NPU_SA_STATUS_ERROR 0x4u /* the last job was aborted by a bus error */

#define NPU_SA_ERR_OPERAND_MASK 0x3u /* 1: A, 2: B, 3: C */
#define NPU_SA_ERR_OPERAND_A    0x1u
#define NPU_SA_ERR_OPERAND_B    0x2u
#define NPU_SA_ERR_OPERAND_C    0x3u
#define NPU_SA_ERR_WRITE        0x10u        /* the faulting access was a write (of C) */
#define NPU_SA_ERR_NOT_VISIBLE  0x20u  /* mapped, but not in the SA's view (e.g. L2) */

#endif
