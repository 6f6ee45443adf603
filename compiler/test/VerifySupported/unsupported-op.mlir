// Ops outside the supported set are errors at their own location.
// RUN: npuc-opt %s -npu-verify-supported -split-input-file -verify-diagnostics

func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  // expected-error @+1 {{'linalg.softmax' op is not supported by npuc (supported: func.func, func.return, linalg.matmul, linalg.conv_2d_nhwc_hwcf, linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_sum, tensor.pad (zero, into a convolution), tensor.collapse_shape, tensor.expand_shape, linalg.fill, elementwise linalg.generic, tensor.empty, arith.constant)}}
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// A reduction is not elementwise.
func.func @row_sum(%x: tensor<2x8xi32>) -> tensor<2xi32> {
  %e = tensor.empty() : tensor<2xi32>
  // expected-error @+1 {{'linalg.generic' op with a reduction loop is not supported}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x8xi32>) outs(%e : tensor<2xi32>) {
    ^bb0(%a: i32, %acc: i32):
      %s = arith.addi %a, %acc : i32
      linalg.yield %s : i32
  } -> tensor<2xi32>
  return %y : tensor<2xi32>
}

// -----

// Integer division has no worker kernel; the error points into the body.
func.func @divide(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
    ^bb0(%a: i32, %out: i32):
      // expected-error @+1 {{'arith.divsi' op is not supported inside an elementwise linalg.generic}}
      %q = arith.divsi %a, %a : i32
      linalg.yield %q : i32
  } -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// Control flow at the top level of the network is not supported.
func.func @loop(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' op is not supported by npuc}}
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%t = %x) -> tensor<4xi32> {
    scf.yield %t : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
