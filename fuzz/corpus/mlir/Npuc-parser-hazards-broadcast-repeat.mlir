func.func @f(%x: tensor<f32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e0 : tensor<4x8xf32>) dimensions = [1, 1]
  return %b : tensor<4x8xf32>
}
