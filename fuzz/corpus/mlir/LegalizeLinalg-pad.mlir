func.func @padded_pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x5x4xf32> {
  %lo = arith.constant -3.40282347E+38 : f32
  %p = tensor.pad %x low[0, 1, 2, 0] high[0, 1, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %lo : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x12x4xf32>
  %w = tensor.empty() : tensor<3x3xf32>
  %e = tensor.empty() : tensor<1x4x5x4xf32>
  %f = linalg.fill ins(%lo : f32) outs(%e : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x12x4xf32>, tensor<3x3xf32>) outs(%f : tensor<1x4x5x4xf32>) -> tensor<1x4x5x4xf32>
  return %y : tensor<1x4x5x4xf32>
}

func.func @conv_pad(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x4xf32>, %o: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0 : f32
  } : tensor<1x4x4x2xf32> to tensor<1x6x6x2xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%o : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
