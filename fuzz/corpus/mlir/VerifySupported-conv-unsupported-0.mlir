func.func @batch2(%x: tensor<2x8x8x4xi8>, %w: tensor<3x3x4x8xi8>) -> tensor<2x6x6x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x6x6x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<2x6x6x8xi32>) -> tensor<2x6x6x8xi32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x8x4xi8>, tensor<3x3x4x8xi8>) outs(%z : tensor<2x6x6x8xi32>) -> tensor<2x6x6x8xi32>
  return %y : tensor<2x6x6x8xi32>
}
