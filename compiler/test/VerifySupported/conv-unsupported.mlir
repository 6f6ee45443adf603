// Convolution input npuc cannot run: a diagnostic at the op saying what.
// RUN: npuc-opt %s -npu-verify-supported -split-input-file -verify-diagnostics

func.func @batch2(%x: tensor<2x8x8x4xi8>, %w: tensor<3x3x4x8xi8>) -> tensor<2x6x6x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x6x6x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x6x6x8xi32>) -> tensor<2x6x6x8xi32>
  // expected-error @+1 {{batch 2 is not supported (the conv kernels run batch 1)}}
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x8x4xi8>, tensor<3x3x4x8xi8>) outs(%z : tensor<2x6x6x8xi32>) -> tensor<2x6x6x8xi32>
  return %y : tensor<2x6x6x8xi32>
}

// -----

func.func @stride300(%x: tensor<1x1x301x4xi8>, %w: tensor<1x1x4x8xi8>) -> tensor<1x1x2x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x1x2x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x1x2x8xi32>) -> tensor<1x1x2x8xi32>
  // expected-error @+1 {{strides 300 is not supported (1..255)}}
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 300]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x301x4xi8>, tensor<1x1x4x8xi8>) outs(%z : tensor<1x1x2x8xi32>) -> tensor<1x1x2x8xi32>
  return %y : tensor<1x1x2x8xi32>
}

// -----

func.func @pad_one(%x: tensor<1x8x8x4xi8>) -> tensor<1x10x10x4xi8> {
  %c1 = arith.constant 1 : i8
  // expected-error @+2 {{only zero padding is supported (the padding value must be a constant 0)}}
  // expected-error @+1 {{is read by 'func.return': a tensor.pad is supported only as the input of a convolution (folded into its padding)}}
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c1 : i8
  } : tensor<1x8x8x4xi8> to tensor<1x10x10x4xi8>
  return %p : tensor<1x10x10x4xi8>
}

// -----

func.func @pad_channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x6x8xf32>) -> tensor<1x6x6x8xf32> {
  %c0 = arith.constant 0.0 : f32
  // expected-error @+1 {{only padding along H and W of an NHWC tensor is supported}}
  %p = tensor.pad %x low[0, 0, 0, 1] high[0, 0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0 : f32
  } : tensor<1x8x8x4xf32> to tensor<1x8x8x6xf32>
  %e = tensor.empty() : tensor<1x6x6x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x8x8x6xf32>, tensor<3x3x6x8xf32>) outs(%z : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}

// -----

// FHWC weights (NCHW convs are rewritten by npu-legalize-linalg; this
// layout has no rewrite).
func.func @fhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %o: tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32> {
  // expected-error @+1 {{'linalg.conv_2d_nhwc_fhwc' op is not supported by npuc}}
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}
