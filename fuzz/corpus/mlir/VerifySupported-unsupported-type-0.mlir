func.func @matmul_f16(%a: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %w = arith.constant dense<1.0> : tensor<8x4xf16>
  %e = tensor.empty() : tensor<2x4xf32>
  return %e : tensor<2x4xf32>
}
