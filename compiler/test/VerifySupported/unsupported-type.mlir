// Types outside i8/i32/f32 tensors with static shapes are errors at the op
// (or function) that uses them.
// RUN: npuc-opt %s -npu-verify-supported -split-input-file -verify-diagnostics

func.func @matmul_f16(%a: tensor<2x8xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{element type 'f16' is not supported (supported: i1, i8, i32, i64, f32)}}
  %w = arith.constant dense<1.0> : tensor<8x4xf16>
  %e = tensor.empty() : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}

// -----

// expected-error @+1 {{element type 'f64' is not supported}}
func.func @f64_input(%a: tensor<2x8xf64>) {
  return
}

// -----

// expected-error @+1 {{tensor type 'tensor<?x8xi8>' has a dynamic shape}}
func.func @dynamic(%a: tensor<?x8xi8>) {
  return
}

// -----

// i8 x i8 -> i8 would overflow: the accumulator must be i32.
func.func @matmul_i8_acc(%a: tensor<2x8xi8>, %b: tensor<8x4xi8>) -> tensor<2x4xi8> {
  %e = tensor.empty() : tensor<2x4xi8>
  // expected-error @+1 {{'linalg.matmul' op operand types 'i8' x 'i8' -> 'i8' are not supported (supported: i8 x i8 -> i32, f32 x f32 -> f32)}}
  %c = linalg.matmul ins(%a, %b : tensor<2x8xi8>, tensor<8x4xi8>) outs(%e : tensor<2x4xi8>) -> tensor<2x4xi8>
  return %c : tensor<2x4xi8>
}
