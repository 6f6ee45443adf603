func.func @named(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%v : tensor<8xf32>) outs(%e1 : tensor<4x8xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<4x8xf32>
  %x2 = linalg.exp ins(%b : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %s = linalg.add ins(%x2, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t, %s : tensor<8x4xf32>, tensor<4x8xf32>
}

func.func @max_pool(%x: tensor<1x8x8x4xi8>) -> tensor<1x4x4x4xi8> {
  %lo = arith.constant -128 : i8
  %w = tensor.empty() : tensor<2x2xi8>
  %e = tensor.empty() : tensor<1x4x4x4xi8>
  %f = linalg.fill ins(%lo : i8) outs(%e : tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x4xi8>, tensor<2x2xi8>) outs(%f : tensor<1x4x4x4xi8>) -> tensor<1x4x4x4xi8>
  return %y : tensor<1x4x4x4xi8>
}

func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %y = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}
