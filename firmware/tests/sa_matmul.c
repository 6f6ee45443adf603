/* Matmuls on the systolic array, checked element by element against the
 * cluster controller's own computation: int8 -> int32 (exact) and fp32
 * (bit-exact: the core computes in the array's documented order, one fused
 * multiply-add per k, k ascending). Odd shapes, so edge tiles are exercised.
 * Prints how many elements it compared — zero compared is a failure. */
#include <stdio.h>

#include "npu.h"

#define M8 37
#define N8 45
#define K8 70
#define MF 19
#define NF 23
#define KF 29

static int8_t a8[M8 * K8] NPU_L1_BSS;
static int8_t b8[K8 * N8] NPU_L1_BSS;
static int32_t c8[M8 * N8] NPU_L1_BSS;
static float af[MF * KF] NPU_L1_BSS;
static float bf[KF * NF] NPU_L1_BSS;
static float cf[MF * NF] NPU_L1_BSS;

static uint32_t seed = 12345;
static uint32_t next(void) {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static unsigned check_i8(unsigned *compared, int32_t times) {
    unsigned bad = 0;
    for (unsigned i = 0; i < M8; ++i)
        for (unsigned j = 0; j < N8; ++j) {
            int32_t s = 0;
            for (unsigned k = 0; k < K8; ++k) s += (int32_t)a8[i * K8 + k] * b8[k * N8 + j];
            s *= times;
            ++*compared;
            if (c8[i * N8 + j] != s && bad++ < 5)
                printf("int8 C[%u][%u] = %ld, expected %ld\n", i, j, (long)c8[i * N8 + j], (long)s);
        }
    return bad;
}

static unsigned check_f32(unsigned *compared) {
    unsigned bad = 0;
    for (unsigned i = 0; i < MF; ++i)
        for (unsigned j = 0; j < NF; ++j) {
            float s = 0.0f;
            for (unsigned k = 0; k < KF; ++k) s = __builtin_fmaf(af[i * KF + k], bf[k * NF + j], s);
            ++*compared;
            union { float f; uint32_t u; } got = {cf[i * NF + j]}, want = {s};
            if (got.u != want.u && bad++ < 5)
                printf("fp32 C[%u][%u] = 0x%08lx, expected 0x%08lx\n", i, j, (unsigned long)got.u,
                       (unsigned long)want.u);
        }
    return bad;
}

int main(void) {
    for (unsigned i = 0; i < M8 * K8; ++i) a8[i] = (int8_t)next();
    for (unsigned i = 0; i < K8 * N8; ++i) b8[i] = (int8_t)next();
    for (unsigned i = 0; i < MF * KF; ++i) af[i] = (float)((int)(next() % 2001) - 1000) / 64.0f;
    for (unsigned i = 0; i < KF * NF; ++i) bf[i] = (float)((int)(next() % 2001) - 1000) / 1024.0f;
    printf("systolic array %ux%u\n", npu_sa_rows(), npu_sa_cols());

    const uint64_t t0 = npu_cycles();
    npu_sa_matmul_i8(a8, b8, c8, M8, N8, K8, 0);
    const int st8 = npu_sa_wait();
    const uint64_t t1 = npu_cycles();
    const uint32_t cyc8 = npu_sa_last_cycles();
    unsigned n8 = 0;
    const unsigned bad8 = check_i8(&n8, 1);
    printf("sa int8 %ux%ux%u: compared %u elements, %u mismatches, sa cycles %lu (core saw %lu)\n", M8, N8, K8, n8,
           bad8, (unsigned long)cyc8, (unsigned long)(t1 - t0));

    npu_sa_matmul_f32(af, bf, cf, MF, NF, KF, 0);
    const int stf = npu_sa_wait();
    const uint32_t cycf = npu_sa_last_cycles();
    unsigned nf = 0;
    const unsigned badf = check_f32(&nf);
    printf("sa fp32 %ux%ux%u: compared %u elements, %u mismatches, sa cycles %lu\n", MF, NF, KF, nf, badf,
           (unsigned long)cycf);

    /* The same int8 job accumulated onto C, this time sleeping on the event
     * unit's SA-done line instead of the WAIT register: C = 2 * A * B. */
    *npu_eu_reg(NPU_EU_BUFFER_CLEAR) = 1u << NPU_EVT_SA_DONE; /* the two jobs above raised it */
    npu_sa_matmul_i8(a8, b8, c8, M8, N8, K8, 1);
    const uint32_t evt = npu_evt_wait(1u << NPU_EVT_SA_DONE);
    const int done = (*npu_sa_reg(NPU_SA_STATUS) & NPU_SA_STATUS_DONE) != 0;
    unsigned na = 0;
    const unsigned bada = check_i8(&na, 2);
    printf("sa int8 accumulate, woken by event 0x%lx: compared %u elements, %u mismatches\n", (unsigned long)evt, na,
           bada);

    const int ok = st8 == 0 && stf == 0 && bad8 == 0 && badf == 0 && n8 == M8 * N8 && nf == MF * NF && n8 && nf &&
                   done && bada == 0 && na == M8 * N8;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
