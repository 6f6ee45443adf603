/* CORE-V SIMD (and, with XCV_BITMANIP, bit manipulation) on npusim, built
 * by clang-19 for -march=rv32imfc_xcvmem_xcvmac_xcvalu_xcvsimd_xcvbi (and
 * _xcvbitmanip): int8 and int16 dot products with cv.sdotsp against the
 * scalar loop clang compiles from the same C, and directed checks of packed
 * instructions against results worked out by hand from the CV32E40P manual.
 * clang-19 does not vectorise the scalar loop into cv.sdotsp (it emits
 * cv.lb, mul, add), so the SIMD forms are written as inline assembly.
 * Popcount and count-trailing-zeros are plain C that clang-19 compiles to
 * cv.cnt and cv.ff1. Count-leading-zeros is not: clang-19 lowers
 * __builtin_clz to a bare cv.fl1, which returns the bit position (31 - clz),
 * a miscompile (llvm-project issue 197006, fixed after LLVM 19;
 * docs/cores.md), so cv.fl1 is checked in assembly. */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"
#include "check.h"

/* rD = op(rs1, rs2) */
#define SIMD2(name, insn)                                                        \
    static uint32_t name(uint32_t a, uint32_t b) {                               \
        uint32_t d;                                                              \
        __asm__ volatile(insn " %0, %1, %2" : "=r"(d) : "r"(a), "r"(b));         \
        return d;                                                                \
    }
/* rD = op(rD, rs1, rs2): accumulating and rD-merging forms */
#define SIMD3(name, insn)                                                        \
    static uint32_t name(uint32_t d, uint32_t a, uint32_t b) {                   \
        __asm__ volatile(insn " %0, %1, %2" : "+r"(d) : "r"(a), "r"(b));         \
        return d;                                                                \
    }
/* rD = op(rs1, Imm6) */
#define SIMDI(name, insn, imm)                                                   \
    static uint32_t name(uint32_t a) {                                           \
        uint32_t d;                                                              \
        __asm__ volatile(insn " %0, %1, " #imm : "=r"(d) : "r"(a));             \
        return d;                                                                \
    }

SIMD2(add_b, "cv.add.b")
SIMD2(sub_h, "cv.sub.h")
SIMD2(avg_h, "cv.avg.h")
SIMD2(maxu_b, "cv.maxu.b")
SIMD2(cmpgt_b, "cv.cmpgt.b")
SIMD2(sra_sc_h, "cv.sra.sc.h")
SIMD2(shuffle_b, "cv.shuffle.b")
SIMD2(pack, "cv.pack")
SIMD2(dotusp_b, "cv.dotusp.b")
SIMD2(dotup_h, "cv.dotup.h")
SIMD3(sdotsp_b, "cv.sdotsp.b")
SIMD3(sdotsp_h, "cv.sdotsp.h")
SIMD3(cplxmul_r, "cv.cplxmul.r")
SIMD3(packhi_b, "cv.packhi.b")
SIMDI(add_sci_h, "cv.add.sci.h", -3)
SIMDI(min_sci_b, "cv.min.sci.b", -1)
SIMDI(extract_b, "cv.extract.b", 2)
SIMDI(shufflei0_b, "cv.shufflei0.sci.b", 27)

#define N 64
static int8_t xa[N] __attribute__((aligned(4)));
static int8_t xb[N] __attribute__((aligned(4)));
static int16_t ha[N] __attribute__((aligned(4)));
static int16_t hb[N] __attribute__((aligned(4)));

static int32_t dot8_scalar(const int8_t *a, const int8_t *b, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; ++i) s += a[i] * b[i];
    return s;
}

static int32_t dot8_simd(const int8_t *a, const int8_t *b, int n) {
    uint32_t s = 0;
    const uint32_t *wa = (const uint32_t *)a, *wb = (const uint32_t *)b;
    for (int i = 0; i < n / 4; ++i) s = sdotsp_b(s, wa[i], wb[i]);
    return (int32_t)s;
}

/* Sums in uint32_t: 64 products near 2^30 wrap, as cv.sdotsp.h does. */
static uint32_t dot16_scalar(const int16_t *a, const int16_t *b, int n) {
    uint32_t s = 0;
    for (int i = 0; i < n; ++i) s += (uint32_t)(a[i] * b[i]);
    return s;
}

static uint32_t dot16_simd(const int16_t *a, const int16_t *b, int n) {
    uint32_t s = 0;
    const uint32_t *wa = (const uint32_t *)a, *wb = (const uint32_t *)b;
    for (int i = 0; i < n / 2; ++i) s = sdotsp_h(s, wa[i], wb[i]);
    return s;
}

#ifdef XCV_BITMANIP
/* Plain C: clang-19 with xcvbitmanip emits cv.cnt and cv.ff1 here (the
 * operands come from memory so nothing is folded at compile time). */
static volatile uint32_t bit_inputs[2] = {0x80000001u, 0x00000018u};
static uint32_t popcount(uint32_t x) { return (uint32_t)__builtin_popcount(x); }
static uint32_t ctz(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
static uint32_t fl1(uint32_t a) {
    uint32_t d;
    __asm__ volatile("cv.fl1 %0, %1" : "=r"(d) : "r"(a));
    return d;
}
static uint32_t bitrev_r4(uint32_t a) {
    uint32_t d;
    __asm__ volatile("cv.bitrev %0, %1, 1, 4" : "=r"(d) : "r"(a));
    return d;
}
static uint32_t insert_7_8(uint32_t d, uint32_t a) {
    __asm__ volatile("cv.insert %0, %1, 7, 8" : "+r"(d) : "r"(a));
    return d;
}
static uint32_t extractr(uint32_t a, uint32_t spec) {
    uint32_t d;
    __asm__ volatile("cv.extractr %0, %1, %2" : "=r"(d) : "r"(a), "r"(spec));
    return d;
}
#endif

int main(void) {
    /* Operands spanning the int8/int16 range, extremes included. */
    for (int i = 0; i < N; ++i) {
        xa[i] = (int8_t)(i * 37 - 128);
        xb[i] = (int8_t)(i & 1 ? -128 + i : 127 - 3 * i);
        ha[i] = (int16_t)(i * 1021 - 32768);
        hb[i] = (int16_t)(i & 1 ? 32767 - i * 977 : -32768 + i);
    }
    check("int8 dot product: cv.sdotsp.b vs scalar", (uint32_t)dot8_simd(xa, xb, N), (uint32_t)dot8_scalar(xa, xb, N));
    check("int16 dot product: cv.sdotsp.h vs scalar (32-bit wrap)", dot16_simd(ha, hb, N), dot16_scalar(ha, hb, N));

    check("cv.add.b lanes wrap alone", add_b(0x01ff7f80u, 0x01010101u), 0x02008081u);
    check("cv.sub.h borrows stay in the lane", sub_h(0x00010000u, 0x00000001u), 0x0001ffffu);
    check("cv.avg.h of the lane-wide sum", avg_h(0x7fff0004u, 0x00010002u), 0xc0000003u);
    check("cv.maxu.b", maxu_b(0x807f01ffu, 0x7f80ff01u), 0x8080ffffu);
    check("cv.cmpgt.b signed", cmpgt_b(0x7f80ff01u, 0x807f0000u), 0xff0000ffu);
    check("cv.sra.sc.h by rs2's lane 0", sra_sc_h(0x80008000u, 0xffff0004u), 0xf800f800u);
    check("cv.shuffle.b", shuffle_b(0x44332211u, 0xfcfdfeffu), 0x11223344u);
    check("cv.pack", pack(0x1111aaaau, 0x2222bbbbu), 0xaaaabbbbu);
    check("cv.dotusp.b", dotusp_b(0x80ff0102u, 0x80ff0304u), 0xffffbf0cu);
    check("cv.dotup.h wraps", dotup_h(0xffffffffu, 0xffffffffu), 0xfffc0002u);
    check("cv.cplxmul.r keeps rD's upper half", cplxmul_r(0xdead0000u, 0x20004000u, 0x40004000u), 0xdead1000u);
    check("cv.packhi.b", packhi_b(0x12345678u, 0xaau, 0xbbu), 0xaabb5678u);
    check("cv.add.sci.h -3", add_sci_h(0x00010002u), 0xfffeffffu);
    check("cv.min.sci.b -1", min_sci_b(0x80007f01u), 0x80ffffffu);
    check("cv.extract.b lane 2", extract_b(0x12803456u), 0xffffff80u);
    check("cv.shufflei0.sci.b", shufflei0_b(0x44332211u), 0x11223344u);
#ifdef XCV_BITMANIP
    check("popcount (cv.cnt)", popcount(bit_inputs[0]), 2);
    check("ctz (cv.ff1)", ctz(bit_inputs[1]), 3);
    check("cv.fl1: the position of the highest 1", fl1(0x00010000u), 16);
    check("cv.bitrev radix-4 (the manual's example)", bitrev_r4(0xc64a5933u), 0x0cc65a19u);
    check("cv.insert", insert_7_8(0x11111111u, 0xabu), 0x1111ab11u);
    check("cv.extractr", extractr(0x000000f0u, 0xfffffc64u), 0xffffffffu);
#endif
    printf("xcv: %u checks, %u failures\n", checks, failures);
    return failures ? 1 : 0;
}
