// Ops outside the supported set are errors at their own location.
// RUN: npuc-opt %s -npu-verify-supported -split-input-file -verify-diagnostics

func.func @matvec(%a: tensor<8x4xf32>, %x: tensor<4xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'linalg.matvec' op is not supported by npuc (supported: func.func, func.return, linalg.matmul, linalg.conv_2d_nhwc_hwcf, linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_sum, tensor.pad (zero, into a convolution), tensor.collapse_shape, tensor.expand_shape, linalg.fill, linalg.generic (elementwise or reducing, arith/math body), linalg.matmul_transpose_a/_b, batch_matmul, conv_2d_nchw_fchw, softmax, transpose, broadcast, reduce, map, the named elementwise ops, pooling_nhwc_max/min (via npu-legalize-linalg), tensor.concat, tensor.insert_slice (via npu-legalize-linalg), tensor.empty, arith.constant)}}
  %y = linalg.matvec ins(%a, %x : tensor<8x4xf32>, tensor<4xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// The output of a reduction is written densely: a constant index in its
// map is not.
func.func @row_sum(%x: tensor<2x8xi32>) -> tensor<2x1xi32> {
  %e = tensor.empty() : tensor<2x1xi32>
  // expected-error @+1 {{'linalg.generic' op indexing map affine_map<(d0, d1) -> (d0, 0)> of operand #1 is not supported (inputs: affine maps of the loops, outputs: loops, or loops plus constants)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x8xi32>) outs(%e : tensor<2x1xi32>) {
    ^bb0(%a: i32, %acc: i32):
      %s = arith.addi %a, %acc : i32
      linalg.yield %s : i32
  } -> tensor<2x1xi32>
  return %y : tensor<2x1xi32>
}

// -----

// Run alone, the check refuses what npu-legalize-linalg rewrites.
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %e = tensor.empty() : tensor<2x8xf32>
  // expected-error @+1 {{'linalg.softmax' is compiled after npu-legalize-linalg rewrites it; run that pass first (npuc does)}}
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----

// Integer division has no worker kernel; the error points into the body.
func.func @divide(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
    ^bb0(%a: i32, %out: i32):
      // expected-error @+1 {{'arith.divsi' op is not supported inside a linalg.generic (the workers run arith and math ops)}}
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
