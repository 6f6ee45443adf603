func.func @fhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %o: tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32> {
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>) outs(%o : tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}
