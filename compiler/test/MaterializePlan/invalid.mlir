// What npu-materialize-plan refuses, at the offending location.
// RUN: npuc-opt %s -split-input-file -npu-materialize-plan -verify-diagnostics
// RUN: not npuc-opt %networks/mlp_tiny_int8.mlir -npu-materialize-plan 2>&1 | FileCheck %s --check-prefix=NOPLAN
// NOPLAN: error: no memory plan: run -npu-memory-plan first

// An op computing into L3 (a hand-made plan: npu-memory-plan never makes
// one, it computes in L2 and copies out).
module attributes {npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}} {
  func.func @l3_result(%x: tensor<2x8xf32> {npu.placement = #npu.placement<L2, address = 0x1C000000, size = 64>}) -> tensor<2x8xf32> {
    %zero = arith.constant 0.0 : f32
    %w = arith.constant {npu.placement = #npu.placement<L2, address = 0x1C000040, size = 256>} dense<1.0> : tensor<8x8xf32>
    %e = tensor.empty() {npu.placement = #npu.placement<L3, address = 0x80000000, size = 64>} : tensor<2x8xf32>
    // expected-error@+1 {{activation computed in L3: the cores and the SA compute on L2 and L1 (npu-memory-plan computes an L3 result in L2 and copies it out)}}
    %z = linalg.fill {npu.placement = #npu.placement<L3, address = 0x80000000, size = 64>} ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
    %y = linalg.matmul {npu.placement = #npu.placement<L3, address = 0x80000000, size = 64>} ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
    return %y : tensor<2x8xf32>
  }
}
