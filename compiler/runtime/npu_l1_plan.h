/*
 * The L1 working set of one npurt_matmul call, the one definition shared by
 * the compiler (npu-tile chooses tiles whose working set fits the L1 budget
 * and records it as npu.l1_bytes) and the runtime (npurt_matmul checks the
 * l1_bytes it is given against it and carves the buffers the same way).
 *
 * One npu_l1_malloc(l1_bytes) holds C0 C1 A0 A1 B0 B1 in that order: the A
 * (tm x tk), B (tk x tn) and C (tm x tn) tiles, each double-buffered, with
 * ea, eb, ec the element bytes of A, B and C.
 *
 * A macro, not a function, because it is evaluated in the width of its
 * arguments: uint32_t in the RV32 firmware (l1_bytes is a uint32_t argument)
 * and 64-bit in npu-tile, whose tile search tries sizes that would wrap in
 * 32 bits. Plain C, included by C (npurt.c) and C++ (Tile.cpp).
 */
#ifndef NPU_L1_PLAN_H
#define NPU_L1_PLAN_H

#define NPU_L1_WORKING_SET(tm, tn, tk, ea, eb, ec) \
    (2 * ((tm) * (tk) * (ea) + (tk) * (tn) * (eb) + (tm) * (tn) * (ec)))

/* npurt_matmul_ep adds its epilogue's buffers: the parameters of all n
 * output channels (bias, and int8 per-channel multipliers and shifts: one
 * word each per channel) right after C1, and, for an output narrower than
 * the accumulator (int8), two output tiles (tm x tn elements of eo bytes,
 * each rounded up to 4 bytes) after B1. An f32 output (eo = 4) is written
 * over its C tile in place: every worker reads and writes only its own
 * elements, and no L1 goes to output tiles. */
#define NPU_L1_EPILOGUE_BYTES(tm, tn, eo, n, has_bias, per_channel)      \
    (((eo) == 4 ? 0 : 2 * (((tm) * (tn) * (eo) + 3) / 4 * 4)) +           \
     (n) * 4 * (((has_bias) ? 1 : 0) + ((per_channel) ? 2 : 0)))

#endif /* NPU_L1_PLAN_H */
