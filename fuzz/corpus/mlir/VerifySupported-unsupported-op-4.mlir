func.func @loop(%x: tensor<4xi32>) -> tensor<4xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%t = %x) -> tensor<4xi32> {
    scf.yield %t : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
