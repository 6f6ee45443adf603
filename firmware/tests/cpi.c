/* CV32E40P instruction timing, per instruction class (docs/cores.md, "CPI
 * table"): each row runs a loop of ITERS x 16 copies of one instruction (or
 * of a short sequence) on the cluster controller, with its data in L1, and
 * prints the cycles per copy beside the CV32E40P user manual's figure
 * ("Pipeline Details", cycle counts per instruction type and hazards). The
 * loop's own cost (a loop of 16 nops, minus their 16 cycles) is subtracted;
 * instructions are 32-bit (norvc) and the loop word aligned (a c.nop before
 * it pads), so no row pays the manual's extra cycle for a non-word-aligned
 * 32-bit jump target.
 * Exits 1 if any row differs from the manual (the CI test, fw.cpi). */
#include <stdint.h>
#include <stdio.h>

#include "npu.h"

#define ITERS 64
#define COPIES (ITERS * 16)

static NPU_L1_DATA uint32_t l1_word[4] = {7, 7, 7, 7};

static inline uint32_t cycles32(void) {
    uint32_t c;
    __asm__ volatile("csrr %0, cycle" : "=r"(c));
    return c;
}

/* One timed loop: BODY repeated 16 times per iteration, never inlined, so a
 * second call runs the code the first one brought into the instruction cache
 * (a row is timed warm: the loop's fetch misses are not the class's cost). The registers the
 * bodies use are set up by the caller's constraints (a0 = L1 word address,
 * a1/a2 operands). */
#define TIMED(name, body, a1v, a2v)                                                                 \
    static __attribute__((noinline)) uint32_t name(void) {                                          \
        register uint32_t a0 __asm__("a0") = (uint32_t)(uintptr_t)l1_word;                          \
        register uint32_t a1 __asm__("a1") = (a1v);                                                 \
        register uint32_t a2 __asm__("a2") = (a2v);                                                 \
        register uint32_t n __asm__("a3") = ITERS;                                                  \
        const uint32_t t0 = cycles32();                                                             \
        __asm__ volatile(".balign 4\n\t.option push\n\t.option norvc\n"                            \
                         "1:\n\t.rept 16\n\t" body "\n\t.endr\n\t"                                 \
                         "addi a3, a3, -1\n\tbnez a3, 1b\n\t.option pop"                             \
                         : "+r"(n)                                                                  \
                         : "r"(a0), "r"(a1), "r"(a2)                                                \
                         : "t0", "t1", "t2", "t3", "ft0", "ft1", "ft2", "memory");                  \
        return cycles32() - t0;                                                                     \
    }

TIMED(t_nop, "nop", 0, 0)
TIMED(t_alu, "add t0, a1, a2", 1, 2)
TIMED(t_load, "lw t0, 0(a0)", 0, 0)
TIMED(t_load_use, "lw t0, 0(a0)\n\taddi t1, t0, 1", 0, 0)
TIMED(t_store, "sw a1, 0(a0)", 7, 0)
TIMED(t_mul, "mul t0, a1, a2", 3, 5)
TIMED(t_mulh, "mulh t0, a1, a2", 3, 5)
TIMED(t_div_min, "divu t0, a1, a2", 100, 0x80000000u)
TIMED(t_div_16, "div t0, a1, a2", 100, (uint32_t)-0x10000)
TIMED(t_div_one, "remu t0, a1, a2", 100, 1)
TIMED(t_div_zero, "div t0, a1, a2", 100, 0)
TIMED(t_branch_nt, "bne a1, a1, .+4", 0, 0)
TIMED(t_branch_t, "beq a1, a1, .+4", 0, 0)
TIMED(t_jal, "jal zero, .+4", 0, 0)
TIMED(t_jalr, "auipc t3, 0\n\tnop\n\tjalr zero, 12(t3)", 0, 0)
TIMED(t_csr_fast, "csrr t0, fflags", 0, 0)
TIMED(t_csr_slow, "csrr t0, mscratch\n\tcsrr t1, mstatus", 0, 0)
TIMED(t_fadd, "fadd.s ft0, ft1, ft2", 0, 0)
TIMED(t_flw_use, "flw ft0, 0(a0)\n\tfadd.s ft1, ft0, ft0", 0, 0)
TIMED(t_fdiv, "fdiv.s ft0, ft1, ft2\n\tfmv.x.w t0, ft0", 0, 0)
TIMED(t_fdiv_overlap, "fdiv.s ft0, ft1, ft2\n\t.rept 18\n\taddi t0, t0, 1\n\t.endr", 0, 0)

struct row {
    const char *what;
    uint32_t (*run)(void);
    uint32_t manual_x100; /* the manual's cycles per copy, x 100 */
};

static const struct row rows[] = {
    {"integer ALU (add)", t_alu, 100},
    {"load, L1 (lw, result not used next)", t_load, 100},
    {"load + use of the result next (lw; addi)", t_load_use, 300},
    {"store, L1 (sw)", t_store, 100},
    {"mul", t_mul, 100},
    {"mulh", t_mulh, 500},
    {"divu, divisor 0x80000000", t_div_min, 300},
    {"div, divisor -0x10000 (15 leading zeros)", t_div_16, 1800},
    {"remu, divisor 1", t_div_one, 3400},
    {"div, divisor 0", t_div_zero, 3500},
    {"branch not taken", t_branch_nt, 100},
    {"branch taken", t_branch_t, 300},
    {"jal", t_jal, 200},
    {"jalr (auipc; nop; jalr: 1 + 1 + 2)", t_jalr, 400},
    {"CSR read, other CSRs (fflags)", t_csr_fast, 100},
    {"CSR read, mscratch + mstatus (1 + 4)", t_csr_slow, 500},
    {"fadd.s (FPU_ADDMUL_LAT 0)", t_fadd, 100},
    {"flw + use of the result next", t_flw_use, 300},
    {"fdiv.s + fmv.x.w of its result (19 + 1)", t_fdiv, 2000},
    {"fdiv.s + 18 independent ALU instructions", t_fdiv_overlap, 1900},
};

int main(void) {
    /* Warm up: decode every loop once, so no row pays first-use costs. */
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i) rows[i].run();
    t_nop();
    const uint32_t overhead = t_nop() - COPIES; /* the loop and the counter reads */
    int bad = 0;
    printf("%-48s %8s %8s\n", "instruction class", "manual", "npusim");
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
        /* Run right before it is measured: the printf between rows evicts the
         * loop from the cluster's 4 KiB instruction cache (docs/cores.md). */
        rows[i].run();
        const uint32_t t = rows[i].run() - overhead;
        /* Rounded: a c.nop aligning the loop (1 cycle in 1024 copies) is not a difference. */
        const uint32_t x100 = (uint32_t)(((uint64_t)t * 100 + COPIES / 2) / COPIES);
        const int ok = x100 == rows[i].manual_x100;
        bad |= !ok;
        printf("%-48s %5lu.%02lu %5lu.%02lu%s\n", rows[i].what, (unsigned long)(rows[i].manual_x100 / 100),
               (unsigned long)(rows[i].manual_x100 % 100), (unsigned long)(x100 / 100), (unsigned long)(x100 % 100),
               ok ? "" : "  MISMATCH");
    }
    printf(bad ? "cpi: FAIL\n" : "cpi: all %u rows match the manual\n", (unsigned)(sizeof rows / sizeof rows[0]));
    return bad;
}
