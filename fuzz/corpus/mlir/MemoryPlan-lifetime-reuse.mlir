#id = affine_map<(d0) -> (d0)>
func.func @chain(%x: tensor<256xi32>) -> tensor<256xi32> {
  %one = arith.constant 1 : i32
  %e0 = tensor.empty() : tensor<256xi32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<256xi32>) outs(%e0 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  %e1 = tensor.empty() : tensor<256xi32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<256xi32>) outs(%e1 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  %e2 = tensor.empty() : tensor<256xi32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<256xi32>) outs(%e2 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  return %c : tensor<256xi32>
}
