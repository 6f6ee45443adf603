// default-mem-level=L3 puts everything in L3 (gap9: base 0x80000000); L2
// stays empty.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir '-npu-memory-plan=default-mem-level=L3' | FileCheck %s

// CHECK: module attributes {npu.memory_usage = {l2 = 0 : i64, l3 = 1568 : i64}}
// CHECK: %arg0: tensor<4x16xi8> {npu.placement = #npu.placement<L3, address = 0x80000580, size = 64>}
// CHECK: arith.constant {npu.placement = #npu.placement<L3, address = 0x80000000, size = 512>}
// CHECK: linalg.matmul {npu.placement = #npu.placement<L3, address = 0x80000200, size = 512>}
// CHECK-NOT: #npu.placement<L2
