/* Integer workload, CoreMark-like: per iteration an int16-range 16x16
 * matrix multiply with a position-weighted checksum, a table-driven CRC-32
 * over 512 bytes, and the data generation (LCG) feeding both. Per-hart
 * scratch lives in L1, the CRC table in L2. */
#define BENCH_NAME "int"
#include "bench_harness.h"

#define N 16
#define CRC_BYTES 512

struct scratch {
    int32_t a[N][N], b[N][N], c[N][N];
    uint8_t buf[CRC_BYTES];
};
static NPU_L1_BSS struct scratch scratch[NB_WORKERS + 1];
static uint32_t crc_table[256];
static volatile int crc_ready;
static npu_spinlock_t crc_lock = NPU_SPINLOCK_INIT;


static void crc_init(void) {
    npu_spin_lock(&crc_lock);
    if (!crc_ready) {
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
            crc_table[n] = c;
        }
        crc_ready = 1;
    }
    npu_spin_unlock(&crc_lock);
}

static uint32_t crc32(const uint8_t *p, unsigned n) {
    uint32_t c = 0xffffffffu;
    for (unsigned i = 0; i < n; ++i) c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static uint32_t bench_iteration(uint32_t i, unsigned slot) {
    if (!crc_ready) crc_init();
    struct scratch *s = &scratch[slot];
    uint32_t seed = i * 2654435761u + 1;
    for (unsigned r = 0; r < N; ++r)
        for (unsigned k = 0; k < N; ++k) {
            s->a[r][k] = (int32_t)(lcg_next(&seed) & 0xffff) - 32768;
            s->b[r][k] = (int32_t)(lcg_next(&seed) & 0xffff) - 32768;
        }
    for (unsigned r = 0; r < N; ++r)
        for (unsigned col = 0; col < N; ++col) {
            int32_t acc = 0;
            for (unsigned k = 0; k < N; ++k) acc += s->a[r][k] * s->b[k][col];
            s->c[r][col] = acc;
        }
    uint32_t sum = 0;
    for (unsigned r = 0; r < N; ++r)
        for (unsigned col = 0; col < N; ++col) sum = sum * 31u + (uint32_t)s->c[r][col] * (r * N + col + 1u);
    for (unsigned k = 0; k < CRC_BYTES; ++k) s->buf[k] = (uint8_t)(lcg_next(&seed) ^ sum >> (k & 24));
    return sum ^ crc32(s->buf, CRC_BYTES);
}
