// Default policy: every weight and activation of the example MLP in L2
// (gap9: base 0x1C000000), 64-byte aligned, weights packed first (largest
// first) because they are live for the whole function.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-memory-plan | FileCheck %s

// CHECK: module attributes {npu.memory_usage = {l2 = 1568 : i64, l3 = 0 : i64}
// CHECK: func.func @mlp_tiny_int8(%arg0: tensor<4x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C000580, size = 64>})
// CHECK: arith.constant {npu.placement = #npu.placement<L2, address = 0x1C000000, size = 512>} {{.*}} : tensor<16x32xi8>
// CHECK: arith.constant {npu.placement = #npu.placement<L2, address = 0x1C000500, size = 128>} {{.*}} : tensor<32xi32>
// The matmul accumulates in place in its init's buffer (fill -> matmul).
// CHECK: tensor.empty() {npu.placement = #npu.placement<L2, address = 0x1C000200, size = 512>} : tensor<4x32xi32>
// CHECK: linalg.fill {npu.placement = #npu.placement<L2, address = 0x1C000200, size = 512>}
// CHECK: linalg.matmul {npu.placement = #npu.placement<L2, address = 0x1C000200, size = 512>}
// CHECK: linalg.generic
// CHECK-SAME: npu.placement = #npu.placement<L2, address = 0x1C000580, size = 128>
// CHECK: arith.constant {npu.placement = #npu.placement<L2, address = 0x1C000400, size = 256>} {{.*}} : tensor<32x8xi8>
// CHECK: arith.constant {npu.placement = #npu.placement<L2, address = 0x1C000600, size = 32>} {{.*}} : tensor<8xi32>
// CHECK: linalg.matmul {npu.placement = #npu.placement<L2, address = 0x1C000200, size = 128>}
// CHECK: linalg.generic
// CHECK-SAME: npu.placement = #npu.placement<L2, address = 0x1C000280, size = 32>
// Scalars are not placed.
// CHECK-NOT: arith.constant {npu.placement{{.*}} : i64
