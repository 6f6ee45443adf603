func.func @row_sum(%x: tensor<2x8xi32>) -> tensor<2x1xi32> {
  %e = tensor.empty() : tensor<2x1xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x8xi32>) outs(%e : tensor<2x1xi32>) {
    ^bb0(%a: i32, %acc: i32):
      %s = arith.addi %a, %acc : i32
      linalg.yield %s : i32
  } -> tensor<2x1xi32>
  return %y : tensor<2x1xi32>
}
