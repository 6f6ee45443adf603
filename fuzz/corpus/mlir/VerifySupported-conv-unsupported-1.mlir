func.func @stride300(%x: tensor<1x1x301x4xi8>, %w: tensor<1x1x4x8xi8>) -> tensor<1x1x2x8xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x1x2x8xi32>
  %z = linalg.fill ins(%c0 : i32) outs(%e : tensor<1x1x2x8xi32>) -> tensor<1x1x2x8xi32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 300]> : tensor<2xi64>}
      ins(%x, %w : tensor<1x1x301x4xi8>, tensor<1x1x4x8xi8>) outs(%z : tensor<1x1x2x8xi32>) -> tensor<1x1x2x8xi32>
  return %y : tensor<1x1x2x8xi32>
}
