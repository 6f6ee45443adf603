func.func @divide(%x: tensor<4xi32>) -> tensor<4xi32> {
  %e = tensor.empty() : tensor<4xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%e : tensor<4xi32>) {
    ^bb0(%a: i32, %out: i32):
      %q = arith.divsi %a, %a : i32
      linalg.yield %q : i32
  } -> tensor<4xi32>
  return %y : tensor<4xi32>
}
