/* Directed tests of the C extension on npusim: each compressed instruction
 * (assembled with `.option arch, +c`, whatever -march the build uses) on
 * chosen inputs, against results worked out by hand from the RISC-V spec;
 * a 32-bit instruction at an address 2 mod 4; c.ebreak and an illegal
 * 16-bit encoding delivered to the trap handler with mepc = their address
 * and mtval = the pc / the 16 instruction bits. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "npu.h"
#include "check.h"

#define C_BEGIN ".option push\n.option arch, +c\n"
#define C_END "\n.option pop"

/* a0 = x, a1 = y; runs `insn`; returns a0. */
#define RVC2(name, insn)                                                        \
    static uint32_t name(uint32_t x, uint32_t y) {                              \
        register uint32_t a0 __asm__("a0") = x;                                 \
        register uint32_t a1 __asm__("a1") = y;                                 \
        __asm__ volatile(C_BEGIN insn C_END : "+r"(a0), "+r"(a1) : : "memory"); \
        return a0;                                                              \
    }

RVC2(c_li, "c.li a0, -32")
RVC2(c_lui, "c.lui a0, 0xfffe0")
RVC2(c_lui_small, "c.lui a0, 1")
RVC2(c_addi, "c.addi a0, -7")
RVC2(c_slli, "c.slli a0, 31")
RVC2(c_srli, "c.srli a0, 4")
RVC2(c_srai, "c.srai a0, 4")
RVC2(c_andi, "c.andi a0, -16")
RVC2(c_mv, "c.mv a0, a1")
RVC2(c_add, "c.add a0, a1")
RVC2(c_sub, "c.sub a0, a1")
RVC2(c_xor, "c.xor a0, a1")
RVC2(c_or, "c.or a0, a1")
RVC2(c_and, "c.and a0, a1")
RVC2(c_lw, "c.lw a0, 4(a1)")
RVC2(c_sw, "c.sw a0, 8(a1)")
RVC2(c_flw_fsw, "c.flw fa0, 0(a1)\nc.fsw fa0, 12(a1)")
RVC2(c_beqz, "c.li a1, 0\nc.beqz a0, 1f\nc.li a1, 1\n1: c.mv a0, a1")
RVC2(c_bnez, "c.li a1, 0\nc.bnez a0, 1f\nc.li a1, 1\n1: c.mv a0, a1")
RVC2(c_j, "c.j 1f\nc.li a0, 9\n1:")
/* sp-relative forms: a scratch frame below sp, released again. */
RVC2(c_addi16sp, "c.mv a1, sp\nc.addi16sp sp, -64\nc.mv a0, sp\nc.addi16sp sp, 64\nc.sub a1, a0\nc.mv a0, a1")
RVC2(c_addi4spn, "c.addi4spn a1, sp, 1020\nc.mv a0, sp\nc.sub a1, a0\nc.mv a0, a1")
RVC2(c_lwsp_swsp, "c.addi16sp sp, -16\nc.swsp a0, 12(sp)\nc.li a0, 0\nc.lwsp a0, 12(sp)\nc.addi16sp sp, 16")
RVC2(c_flwsp_fswsp, "c.addi16sp sp, -16\nc.swsp a0, 8(sp)\nc.flwsp fa1, 8(sp)\nc.fswsp fa1, 4(sp)\nc.lwsp a0, 4(sp)\nc.addi16sp sp, 16")
/* a 32-bit instruction at an address 2 mod 4 between two 16-bit ones */
RVC2(mixed, ".balign 4\nc.addi a0, 1\n.option norvc\naddi a0, a0, 0x100\n.option rvc\nc.addi a0, 2")

/* c.jal: ra = its address + 2; returns ra - that address (2). */
static uint32_t c_jal_link(void) {
    register uint32_t a0 __asm__("a0");
    register uint32_t a1 __asm__("a1");
    __asm__ volatile(C_BEGIN "2: c.jal 1f\nc.nop\n1: c.mv a1, ra\nla a0, 2b" C_END : "=r"(a0), "=r"(a1) : : "ra");
    return a1 - a0;
}

/* c.jalr to a label that returns with c.jr: a0 = ra seen there, a1 = the
 * address after the c.jalr; returns their difference (0). */
static uint32_t c_jalr_jr(void) {
    register uint32_t a0 __asm__("a0");
    register uint32_t a1 __asm__("a1");
    __asm__ volatile(C_BEGIN "la a1, 1f\nc.jalr a1\n2: c.j 3f\n1: c.mv a0, ra\nc.jr ra\n3: la a1, 2b" C_END
                     : "=r"(a0), "=r"(a1) : : "ra");
    return a0 - a1;
}

static volatile uint32_t trap_cause, trap_tval, trap_epc;

void npu_trap_handler(struct npu_trap_frame *frame) {
    uint32_t misa;
    __asm__ volatile("csrr %0, misa" : "=r"(misa));
    if (!(misa >> 2 & 1)) { /* run without C (--core.isa_extensions=): report and stop */
        *npu_soc_reg(NPU_SIMCTL_TRAP_CAUSE) = frame->mcause;
        *npu_soc_reg(NPU_SIMCTL_TRAP_EPC) = frame->mepc;
        *npu_soc_reg(NPU_SIMCTL_TRAP_TVAL) = frame->mtval;
        *npu_soc_reg(NPU_SIMCTL_TRAP_HART) = npu_core_id();
        return;
    }
    trap_cause = frame->mcause;
    trap_tval = frame->mtval;
    trap_epc = frame->mepc;
    frame->mepc += 2; /* both traps below are 16-bit instructions */
}

int main(void) {
    check("c.li", c_li(0, 0), 0xffffffe0u);
    check("c.lui negative", c_lui(0, 0), 0xfffe0000u);
    check("c.lui 1", c_lui_small(0, 0), 0x00001000u);
    check("c.addi", c_addi(5, 0), 0xfffffffeu);
    check("c.slli", c_slli(3, 0), 0x80000000u);
    check("c.srli", c_srli(0x80000010u, 0), 0x08000001u);
    check("c.srai", c_srai(0x80000010u, 0), 0xf8000001u);
    check("c.andi", c_andi(0x12345677u, 0), 0x12345670u);
    check("c.mv", c_mv(1, 0xdeadbeefu), 0xdeadbeefu);
    check("c.add wraps", c_add(0x7fffffffu, 1), 0x80000000u);
    check("c.sub", c_sub(0, 1), 0xffffffffu);
    check("c.xor", c_xor(0xf0f0f0f0u, 0xff00ff00u), 0x0ff00ff0u);
    check("c.or", c_or(0xf0f0f0f0u, 0xff00ff00u), 0xfff0fff0u);
    check("c.and", c_and(0xf0f0f0f0u, 0xff00ff00u), 0xf000f000u);

    static uint32_t words[4] = {0x7fc00001u, 0x11223344u, 0, 0};
    check("c.lw", c_lw(0, (uint32_t)words), 0x11223344u);
    c_sw(0xcafef00du, (uint32_t)words);
    check("c.sw", words[2], 0xcafef00du);
    c_flw_fsw(0, (uint32_t)words);
    check("c.flw/c.fsw keep a NaN payload", words[3], 0x7fc00001u);

    check("c.beqz taken", c_beqz(0, 0), 0);
    check("c.beqz not taken", c_beqz(5, 0), 1);
    check("c.bnez taken", c_bnez(5, 0), 0);
    check("c.bnez not taken", c_bnez(0, 0), 1);
    check("c.j skips", c_j(7, 0), 7);
    check("c.jal links pc + 2", c_jal_link(), 2);
    check("c.jalr/c.jr", c_jalr_jr(), 0);
    check("c.addi16sp -64", c_addi16sp(0, 0), 64);
    check("c.addi4spn 1020", c_addi4spn(0, 0), 1020);
    check("c.swsp/c.lwsp", c_lwsp_swsp(0x5a5a1234u, 0), 0x5a5a1234u);
    check("c.fswsp/c.flwsp", c_flwsp_fswsp(0xff800000u, 0), 0xff800000u);
    check("32-bit at 2 mod 4", mixed(0, 0), 0x103u);

    /* c.ebreak: breakpoint, mtval = mepc = its address. */
    uint32_t at;
    __asm__ volatile(C_BEGIN "la %0, 1f\n1: c.ebreak" C_END : "=r"(at));
    check("c.ebreak mcause", trap_cause, 3);
    check("c.ebreak mepc", trap_epc, at);
    check("c.ebreak mtval", trap_tval, at);
    /* 0x9c01 is c.subw, reserved on RV32: illegal, mtval = the 16 bits. */
    __asm__ volatile(C_BEGIN "la %0, 1f\n1: .2byte 0x9c01" C_END : "=r"(at));
    check("illegal 16-bit mcause", trap_cause, 2);
    check("illegal 16-bit mepc", trap_epc, at);
    check("illegal 16-bit mtval", trap_tval, 0x9c01u);

    uint32_t misa;
    __asm__ volatile("csrr %0, misa" : "=r"(misa));
    check("misa.C", (misa >> 2) & 1, 1);

    printf("rvc: %u checks, %u failures\n", checks, failures);
    return failures ? 1 : 0;
}
