// Weights in L3: the plan puts each bias's staging copy before the matmul
// that precedes its epilogue, and npu-schedule starts it there
// (npurt_copy_start) and waits for it right before the epilogue
// (npurt_copy_wait), so the DMA moves it while the matmul computes.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline='to=schedule default-mem-level=L3' | FileCheck %s

// CHECK: %[[B1:.*]] = call @npurt_copy_start(%{{.*}}, %{{.*}}, %c128_i32)
// CHECK-NOT: npurt_copy_wait
// CHECK: call @npurt_matmul(
// CHECK: call @npurt_copy_wait(%[[B1]])
// CHECK: call @npurt_region_begin
// CHECK-NEXT: call @npurt_parallel
// CHECK: %[[B2:.*]] = call @npurt_copy_start(%{{.*}}, %{{.*}}, %c32_i32)
// CHECK-NOT: npurt_copy_wait
// CHECK: call @npurt_matmul(
// CHECK: call @npurt_copy_wait(%[[B2]])
// CHECK: call @npurt_region_begin
// CHECK-NEXT: call @npurt_parallel
// CHECK-NOT: call @npurt_copy(
