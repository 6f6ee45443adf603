func.func @pad_one(%x: tensor<1x8x8x4xi8>) -> tensor<1x10x10x4xi8> {
  %c1 = arith.constant 1 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c1 : i8
  } : tensor<1x8x8x4xi8> to tensor<1x10x10x4xi8>
  return %p : tensor<1x10x10x4xi8>
}
