func.func @matmul_i8_acc(%a: tensor<2x8xi8>, %b: tensor<8x4xi8>) -> tensor<2x4xi8> {
  %e = tensor.empty() : tensor<2x4xi8>
  %c = linalg.matmul ins(%a, %b : tensor<2x8xi8>, tensor<8x4xi8>) outs(%e : tensor<2x4xi8>) -> tensor<2x4xi8>
  return %c : tensor<2x4xi8>
}
