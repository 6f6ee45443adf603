func.func @pad_channels(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x6x8xf32>) -> tensor<1x6x6x8xf32> {
  %c0 = arith.constant 0.0 : f32
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
