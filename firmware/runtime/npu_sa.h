/* Systolic-array HAL (firmware/runtime/sa.c): C = A * B (+ C) on the
 * cluster's weight-stationary array. Included by npu.h; see docs/sa.md for
 * the register map, the cycle model and the fp32 accumulation order.
 *
 * Every operand must be in L1 (NPU_L1_DATA / NPU_L1_BSS / the L1
 * allocator): the array's master sees nothing else, and an L2, L3 or NULL
 * operand stops the run with a bus error that names the operand and the job.
 * One job at a time: starting while the array is busy is a bus error of the
 * starting store — wait first. Matrices are row-major. */
#ifndef NPU_SA_H
#define NPU_SA_H

#include <stdint.h>

#include "sa_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

extern char __npu_sa_ctrl_base[];

static inline volatile uint32_t *npu_sa_reg(uint32_t offset) {
    return (volatile uint32_t *)((uintptr_t)__npu_sa_ctrl_base + offset);
}

/* A job with explicit strides (bytes between row starts; 0 = dense rows). */
typedef struct {
    const void *a; /* M x K, int8 or float */
    const void *b; /* K x N, int8 or float */
    void *c;       /* M x N, int32 or float */
    unsigned m, n, k;
    unsigned lda, ldb, ldc;
    uint32_t ctrl; /* NPU_SA_CTRL_DTYPE_FP32 | NPU_SA_CTRL_ACCUMULATE */
} npu_sa_job_t;

/* Programs and starts the job; returns at once (the array works alone). */
void npu_sa_start(const npu_sa_job_t *job);

/* C = A * B (or C += A * B with accumulate != 0), dense row-major: int8 x
 * int8 -> int32 (exact, wraps modulo 2^32), fp32 (one fused multiply-add per
 * k, k ascending, from C or +0.0). Start and return; npu_sa_wait() ends. */
void npu_sa_matmul_i8(const int8_t *a, const int8_t *b, int32_t *c, unsigned m, unsigned n, unsigned k,
                      int accumulate);
void npu_sa_matmul_f32(const float *a, const float *b, float *c, unsigned m, unsigned n, unsigned k,
                       int accumulate);

/* Sleeps until the current job has ended (the core is clock-gated meanwhile).
 * Returns 0 when it completed, -1 when a bus error aborted it (only seen with
 * sa.stop_on_error=false; npu_sa_error_address() says where). */
int npu_sa_wait(void);

/* Start + wait. */
int npu_sa_run(const npu_sa_job_t *job);

/* Non-blocking status, and what the last job cost / where it faulted. */
static inline int npu_sa_busy(void) { return (*npu_sa_reg(NPU_SA_STATUS) & NPU_SA_STATUS_BUSY) != 0; }
static inline uint32_t npu_sa_last_cycles(void) { return *npu_sa_reg(NPU_SA_CYCLES); }
static inline uint32_t npu_sa_error_address(void) { return *npu_sa_reg(NPU_SA_ERR_ADDR); }
static inline uint32_t npu_sa_error_info(void) { return *npu_sa_reg(NPU_SA_ERR_INFO); }
static inline unsigned npu_sa_rows(void) { return *npu_sa_reg(NPU_SA_ROWS); }
static inline unsigned npu_sa_cols(void) { return *npu_sa_reg(NPU_SA_COLS); }

#ifdef __cplusplus
}
#endif

#endif
