// What npu-materialize-plan refuses, at the offending location.
// RUN: npuc-opt %s -split-input-file -npu-memory-plan -npu-materialize-plan -verify-diagnostics
// RUN: not npuc-opt %s -split-input-file -npu-materialize-plan 2>&1 | FileCheck %s --check-prefix=NOPLAN
// NOPLAN: error: no memory plan: run -npu-memory-plan first

// An activation planned in L3: the cores and the SA cannot compute there.
func.func @l3_activation(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<8x8xf32>
  // expected-error@+1 {{activation planned in L3: the cores and the SA compute on L2 and L1, so inputs, activations and outputs must be in L2 (weights may be in L3)}}
  %e = tensor.empty() {npu.mem = #npu.mem<L3>} : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// An input planned in L3 (npu.mem on the argument).
// expected-error@+1 {{input planned in L3: the cores and the SA compute on L2 and L1}}
func.func @l3_input(%x: tensor<2x8xf32> {npu.mem = #npu.mem<L3>}) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<1.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x8xf32>) outs(%z : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
