func.func @f(%s: f32, %x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.map { arith.addf } ins(%s, %x : f32, tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %r : tensor<4xf32>
}
