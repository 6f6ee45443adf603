func.func @f(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> tensor<8xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<8x4xf32>
  %b = linalg.broadcast ins(%v : tensor<8xf32>) outs(%e1 : tensor<8x4xf32>) dimensions = [1]
  %s = linalg.add ins(%t, %b : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e1 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %r = linalg.reduce ins(%s : tensor<8x4xf32>) outs(%e2 : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %r : tensor<8xf32>
}
