/* Single-precision workload: per iteration a 16x16 float matrix multiply
 * (fmadd), row normalisation with fsqrt.s / fdiv.s, a min/max clamp and a
 * conversion to fixed point (fcvt.w.s) whose sum is the result. Every
 * operation is exactly rounded, so the checksum is the same on any IEEE
 * single-precision implementation with the same operation order. */
#define BENCH_NAME "float"
#include "bench_harness.h"

#define N 16

struct scratch {
    float a[N][N], b[N][N], c[N][N];
};
static NPU_L1_BSS struct scratch scratch[NB_WORKERS + 1];


static float uniform(uint32_t *seed) { return (float)(int32_t)(lcg_next(seed) & 0xffff) * (1.0f / 32768.0f) - 1.0f; }

static uint32_t bench_iteration(uint32_t i, unsigned slot) {
    struct scratch *s = &scratch[slot];
    uint32_t seed = i * 2654435761u + 7;
    for (unsigned r = 0; r < N; ++r)
        for (unsigned k = 0; k < N; ++k) {
            s->a[r][k] = uniform(&seed);
            s->b[r][k] = uniform(&seed);
        }
    for (unsigned r = 0; r < N; ++r)
        for (unsigned col = 0; col < N; ++col) {
            float acc = 0.0f;
            for (unsigned k = 0; k < N; ++k) acc = __builtin_fmaf(s->a[r][k], s->b[k][col], acc);
            s->c[r][col] = acc;
        }
    uint32_t sum = 0;
    for (unsigned r = 0; r < N; ++r) {
        float sq = 0.0f;
        for (unsigned col = 0; col < N; ++col) sq = __builtin_fmaf(s->c[r][col], s->c[r][col], sq);
        const float inv = 1.0f / (__builtin_sqrtf(sq) + 1e-3f);
        for (unsigned col = 0; col < N; ++col) {
            float v = __builtin_fminf(__builtin_fmaxf(s->c[r][col] * inv, -0.75f), 0.75f);
            sum = sum * 33u + (uint32_t)(int32_t)(v * 65536.0f);
        }
    }
    return sum;
}
