func.func @transpose_b_constant(%a: tensor<2x3xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = linalg.matmul_transpose_b ins(%a, %w : tensor<2x3xf32>, tensor<2x3xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

func.func @transpose_b_variable(%a: tensor<2x3xi8>, %b: tensor<4x3xi8>, %c: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %y = linalg.matmul_transpose_b ins(%a, %b : tensor<2x3xi8>, tensor<4x3xi8>) outs(%c : tensor<2x4xi32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}

func.func @transpose_a(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %y = linalg.matmul_transpose_a ins(%a, %b : tensor<3x2xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
