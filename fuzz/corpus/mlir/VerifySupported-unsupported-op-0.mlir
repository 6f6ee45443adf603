func.func @matvec(%a: tensor<8x4xf32>, %x: tensor<4xf32>, %o: tensor<8xf32>) -> tensor<8xf32> {
  %y = linalg.matvec ins(%a, %x : tensor<8x4xf32>, tensor<4xf32>) outs(%o : tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
