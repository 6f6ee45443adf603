// Networks npu-derive-training cannot train: a diagnostic at the op.
// RUN: npuc-opt %s -npu-derive-training -split-input-file -verify-diagnostics

#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @int8(%x: tensor<4x8xi8>) -> tensor<4x4xi32> {
  // expected-error @+1 {{'arith.constant' op has element type 'i32': integer networks cannot be trained (f32 only)}}
  %c0 = arith.constant 0 : i32
  %w = arith.constant dense<1> : tensor<8x4xi8>
  %e = tensor.empty() : tensor<4x4xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xi8>, tensor<8x4xi8>) outs(%z : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %y : tensor<4x4xi32>
}

// -----

// An epilogue other than bias add (+ ReLU): here a multiply.
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @scale(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x4xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-error @+1 {{'linalg.matmul' op is not followed by a bias add (+ ReLU) epilogue with a backward rule}}
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%o : tensor<4x4xf32>) {
    ^bb0(%a: f32, %c: f32, %out: f32):
      %m = arith.mulf %a, %c : f32
      linalg.yield %m : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// An op with no backward rule at all.
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{'linalg.softmax' op has no backward rule}}
  %s = linalg.softmax dimension(1) ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// One output: not logits of >= 2 classes, nor a reconstruction.
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
// expected-error @+1 {{the network's output (width 1) is not a supported loss shape}}
func.func @scalar(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %c0 = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x1xf32>
  %b = arith.constant dense<0.5> : tensor<1xf32>
  %e = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x1xf32>) outs(%z : tensor<4x1xf32>) -> tensor<4x1xf32>
  %o = tensor.empty() : tensor<4x1xf32>
  %r = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<4x1xf32>, tensor<1xf32>) outs(%o : tensor<4x1xf32>) {
    ^bb0(%a: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
  } -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}


// -----

// Max pooling whose windows overlap (window 2, stride 1): no backward rule.
func.func @maxpool(%x: tensor<1x4x4x2xf32>) -> tensor<1x1x1x2xf32> {
  %c0 = arith.constant 0.0 : f32
  %win = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x2x2x2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %s = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %win : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%z : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %e1 = tensor.empty() : tensor<1x1x1x2xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  // expected-error @+1 {{'linalg.pooling_nhwc_max' op has no backward rule for this window (2x2, stride 1x1, input 2x2) (backward rules exist for: linalg.conv_2d_nhwc_hwcf}}
  %m = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%s, %win : tensor<1x2x2x2xf32>, tensor<2x2xf32>) outs(%z1 : tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>
  return %m : tensor<1x1x1x2xf32>
}
