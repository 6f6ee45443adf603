/* Machine-mode trap entry (mtvec direct mode, set by crt0 on every hart).
 * Saves the whole context as a struct npu_trap_frame on the current stack,
 * calls npu_trap_handler(frame), and resumes at frame->mepc with every
 * register restored -- so a handler that fixes the cause can return.
 * The float registers are saved because the C handler may clobber the
 * caller-saved ones. */

#define FRAME_X 0
#define FRAME_F (32 * 4)
#define FRAME_FCSR (64 * 4)
#define FRAME_MCAUSE (65 * 4)
#define FRAME_MEPC (66 * 4)
#define FRAME_MTVAL (67 * 4)
#define FRAME_MSTATUS (68 * 4)
#define FRAME_SIZE (72 * 4) /* 69 words rounded up to keep sp 16-byte aligned */

    .section .text.npu_trap_entry, "ax", @progbits
    .globl npu_trap_entry
    .type npu_trap_entry, @function
    .balign 4 /* mtvec ignores the two low bits */
npu_trap_entry:
    addi sp, sp, -FRAME_SIZE
    sw x1, 1*4(sp)
    sw x3, 3*4(sp)
    sw x4, 4*4(sp)
    sw x5, 5*4(sp)
    sw x6, 6*4(sp)
    sw x7, 7*4(sp)
    sw x8, 8*4(sp)
    sw x9, 9*4(sp)
    sw x10, 10*4(sp)
    sw x11, 11*4(sp)
    sw x12, 12*4(sp)
    sw x13, 13*4(sp)
    sw x14, 14*4(sp)
    sw x15, 15*4(sp)
    sw x16, 16*4(sp)
    sw x17, 17*4(sp)
    sw x18, 18*4(sp)
    sw x19, 19*4(sp)
    sw x20, 20*4(sp)
    sw x21, 21*4(sp)
    sw x22, 22*4(sp)
    sw x23, 23*4(sp)
    sw x24, 24*4(sp)
    sw x25, 25*4(sp)
    sw x26, 26*4(sp)
    sw x27, 27*4(sp)
    sw x28, 28*4(sp)
    sw x29, 29*4(sp)
    sw x30, 30*4(sp)
    sw x31, 31*4(sp)
    addi t0, sp, FRAME_SIZE
    sw t0, 2*4(sp)            /* sp before the trap */

    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fsw f\n, FRAME_F + \n*4(sp)
    .endr
    frcsr t0
    sw t0, FRAME_FCSR(sp)

    csrr t0, mcause
    sw t0, FRAME_MCAUSE(sp)
    csrr t0, mepc
    sw t0, FRAME_MEPC(sp)
    csrr t0, mtval
    sw t0, FRAME_MTVAL(sp)
    csrr t0, mstatus
    sw t0, FRAME_MSTATUS(sp)

    mv a0, sp
    call npu_trap_handler

    lw t0, FRAME_MEPC(sp)
    csrw mepc, t0
    lw t0, FRAME_MSTATUS(sp)
    csrw mstatus, t0
    lw t0, FRAME_FCSR(sp)
    fscsr t0
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    flw f\n, FRAME_F + \n*4(sp)
    .endr

    lw x1, 1*4(sp)
    lw x3, 3*4(sp)
    lw x4, 4*4(sp)
    lw x5, 5*4(sp)
    lw x6, 6*4(sp)
    lw x7, 7*4(sp)
    lw x8, 8*4(sp)
    lw x9, 9*4(sp)
    lw x10, 10*4(sp)
    lw x11, 11*4(sp)
    lw x12, 12*4(sp)
    lw x13, 13*4(sp)
    lw x14, 14*4(sp)
    lw x15, 15*4(sp)
    lw x16, 16*4(sp)
    lw x17, 17*4(sp)
    lw x18, 18*4(sp)
    lw x19, 19*4(sp)
    lw x20, 20*4(sp)
    lw x21, 21*4(sp)
    lw x22, 22*4(sp)
    lw x23, 23*4(sp)
    lw x24, 24*4(sp)
    lw x25, 25*4(sp)
    lw x26, 26*4(sp)
    lw x27, 27*4(sp)
    lw x28, 28*4(sp)
    lw x29, 29*4(sp)
    lw x30, 30*4(sp)
    lw x31, 31*4(sp)
    addi sp, sp, FRAME_SIZE
    mret
    .size npu_trap_entry, . - npu_trap_entry
