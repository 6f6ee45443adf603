/* Systolic-array HAL: see npu_sa.h and docs/sa.md. */
#include "npu.h"

void npu_sa_start(const npu_sa_job_t *job) {
    const unsigned e = (job->ctrl & NPU_SA_CTRL_DTYPE_FP32) ? 4u : 1u;
    *npu_sa_reg(NPU_SA_A_ADDR) = (uint32_t)(uintptr_t)job->a;
    *npu_sa_reg(NPU_SA_B_ADDR) = (uint32_t)(uintptr_t)job->b;
    *npu_sa_reg(NPU_SA_C_ADDR) = (uint32_t)(uintptr_t)job->c;
    *npu_sa_reg(NPU_SA_M) = job->m;
    *npu_sa_reg(NPU_SA_N) = job->n;
    *npu_sa_reg(NPU_SA_K) = job->k;
    *npu_sa_reg(NPU_SA_LDA) = job->lda ? job->lda : job->k * e;
    *npu_sa_reg(NPU_SA_LDB) = job->ldb ? job->ldb : job->n * e;
    *npu_sa_reg(NPU_SA_LDC) = job->ldc ? job->ldc : job->n * 4u;
    *npu_sa_reg(NPU_SA_CTRL) = job->ctrl;
    /* The operand stores must reach L1 before the array reads them. */
    __asm__ volatile("fence" ::: "memory");
    *npu_sa_reg(NPU_SA_START) = 1;
}

void npu_sa_matmul_i8(const int8_t *a, const int8_t *b, int32_t *c, unsigned m, unsigned n, unsigned k,
                      int accumulate) {
    const npu_sa_job_t job = {a, b, c, m, n, k, 0, 0, 0, accumulate ? NPU_SA_CTRL_ACCUMULATE : 0u};
    npu_sa_start(&job);
}

void npu_sa_matmul_f32(const float *a, const float *b, float *c, unsigned m, unsigned n, unsigned k,
                       int accumulate) {
    const npu_sa_job_t job = {a, b, c, m, n, k, 0, 0, 0,
                              NPU_SA_CTRL_DTYPE_FP32 | (accumulate ? NPU_SA_CTRL_ACCUMULATE : 0u)};
    npu_sa_start(&job);
}

int npu_sa_wait(void) {
    /* WAIT completes when the job has ended: the load itself sleeps. */
    const uint32_t status = *npu_sa_reg(NPU_SA_WAIT);
    /* C was written by another master: later loads must not be hoisted above. */
    __asm__ volatile("fence" ::: "memory");
    return (status & NPU_SA_STATUS_ERROR) ? -1 : 0;
}

int npu_sa_run(const npu_sa_job_t *job) {
    npu_sa_start(job);
    return npu_sa_wait();
}
