// Weights in L3: the plan puts the staging copies of a layer's epilogue
// parameters (bias, multiplier, shift) before the layer that precedes their
// reader, and npu-schedule starts them there (npurt_copy_start) and waits for
// them right before the reader (npurt_copy_wait), so the DMA moves layer 2's
// while layer 1 computes. Layer 1's have no layer before them: waited at once.
// The weights themselves stay in L3 (npurt_matmul_ep stages their panels).
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline='to=schedule default-mem-level=L3' | FileCheck %s

// CHECK: %[[B1:.*]] = call @npurt_copy_start(%{{.*}}, %{{.*}}, %c128_i32)
// CHECK-NEXT: call @npurt_copy_wait(%[[B1]])
// CHECK: %[[B2:.*]] = call @npurt_copy_start(%{{.*}}, %{{.*}}, %c32_i32)
// CHECK-NOT: npurt_copy_wait
// CHECK: call @npurt_matmul_ep(
// CHECK: call @npurt_copy_wait(%[[B2]])
// CHECK: call @npurt_matmul_ep(
// CHECK-NOT: call @npurt_copy(
