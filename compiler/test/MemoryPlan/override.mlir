// A per-tensor npu.mem attribute overrides the default level: the big
// weight goes to L3, everything else stays in L2.
// RUN: npuc-opt %s -npu-attach-target -npu-memory-plan | FileCheck %s

// CHECK: module attributes {npu.memory_usage = {l2 = 128 : i64, l3 = 256 : i64}
// CHECK-LABEL: func.func @override
func.func @override(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  // CHECK: arith.constant {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, address = 0x80000000, size = 256>}
  %w = arith.constant {npu.mem = #npu.mem<L3>} dense<1.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  // CHECK: linalg.fill {npu.placement = #npu.placement<L2, address = 0x1C000040, size = 64>}
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
