// A tiny int8 MLP (4x16 -> 32 -> 8) for the npuc lit tests: two layers of
// linalg.matmul (i8 x i8 -> i32) each followed by one elementwise
// linalg.generic doing bias add, ReLU (first layer only) and requantization
// to i8:  y = clamp((x * mult + 2^(shift-1)) >> shift, -128, 127)
// with mult = 1518500250 and shift = 38 (scale ~0.0055), computed in i64 so
// the product cannot overflow. Weights are deterministic (Python random,
// seed 5): reproducible, not trained.
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @mlp_tiny_int8(%input: tensor<4x16xi8>) -> tensor<4x8xi8> {
  %c0_i32 = arith.constant 0 : i32
  %mult = arith.constant 1518500250 : i64
  %shift = arith.constant 38 : i64
  %round = arith.constant 137438953472 : i64
  %qmin = arith.constant -128 : i64
  %qmax = arith.constant 127 : i64

  // Layer 1: 16 -> 32, bias add + ReLU + requantization.
  %w1 = arith.constant dense<[[0, 3, 8, -8, 6, -1, -7, -3, -5, 3, 7, -1, 4, -5, -1, -8, -2, 5, 0, -3, 4, -3, -6, -4, 6, -4, -4, -8, -8, -2, -2, -3], [-3, 1, 2, -2, -2, -3, -2, 4, 1, -8, 3, 5, -3, -4, 0, -6, 2, 1, -8, 2, -6, 1, 3, 1, 7, 2, -3, 7, 7, -3, -7, 0], [-8, 3, 4, -8, 5, 3, 4, -8, 6, -7, -3, -2, -5, -1, 6, 3, 8, 3, 8, 0, 6, -5, 3, 1, -7, 5, -6, -2, 2, 8, 3, -4], [2, 0, -6, 1, 2, 1, -3, -6, -4, 1, 7, -3, -7, -6, 4, -7, -1, 3, 0, 6, 5, -4, -7, -7, 7, 2, -2, -4, -4, 5, -5, -3], [5, 3, -4, -7, 5, 1, -4, 6, -3, 8, 6, 7, 2, 7, 0, 1, 7, 4, -4, -5, 4, -3, 7, 2, -3, -6, 7, 0, 8, 8, 3, -6], [3, -7, 1, 3, 0, 7, 0, 1, 2, -3, -8, 7, 0, 2, 0, 6, 1, 8, 3, 3, 0, 3, 5, 3, -3, 6, 3, 2, 8, -4, 8, -3], [-2, 3, 7, 1, -6, 5, -3, 8, 5, 1, 0, -8, -2, -3, 6, -3, -1, -3, -7, 7, -1, -3, -7, -4, -5, 2, -3, 7, -2, -7, 5, 6], [3, 4, -6, -2, -1, 3, -8, 3, 4, 0, 5, -5, 3, -7, 1, -5, 1, 8, 2, 1, 3, -4, 5, 5, 3, 6, -4, -3, 4, 7, -2, -4], [-6, 3, -8, 4, -5, 2, -4, 2, 4, 5, 5, -1, 7, 1, 7, 4, 4, -3, 0, 1, 7, 0, 5, -8, 2, 1, 7, 1, -4, 7, -8, -5], [6, -1, 1, -7, -4, 4, -8, 7, 0, -1, 7, -7, -1, 7, 0, -4, 1, 1, 7, 7, 8, -5, -8, -4, 1, 1, 2, 1, 8, -8, 6, 3], [3, -4, -7, -8, 0, 6, -5, -2, -8, 5, 5, 7, 4, 7, 4, -2, 1, 6, -6, 1, -8, 5, 1, 7, 1, -4, -3, 7, 7, 2, -4, 5], [-7, -6, -1, 0, -6, -6, -8, 2, 5, -6, 4, 7, -7, -5, -5, -1, -5, -4, 1, 6, -4, -3, -3, 5, -3, -6, -2, -7, -5, 4, -6, 0], [-7, -5, 4, -4, -8, 5, -6, 2, 7, 7, 3, 3, -7, -4, 1, -4, 8, 1, -1, 0, -6, -1, 0, 1, 8, -4, -1, 3, 6, 4, -3, -4], [-8, 2, -6, -7, -6, -5, 8, 6, -1, 4, 6, 7, 2, -5, 8, -8, 4, -7, -4, 5, -1, -5, -6, 7, -2, -4, 4, 3, -1, 1, 2, 3], [4, 4, -4, 3, 1, 5, 3, 8, -7, -2, -3, 4, -6, -5, -7, -7, -3, -2, -2, -7, 7, 7, 3, -8, 5, 7, 1, 5, 2, 6, 6, -5], [-2, -4, -3, -6, 3, 4, 7, -4, 0, -5, 0, -3, 1, -1, -7, 7, -7, 3, 3, 2, -7, -8, 6, 7, -4, -5, 2, 1, 6, -1, -3, -7]]> : tensor<16x32xi8>
  %b1 = arith.constant dense<[-13, -58, -5, -44, 38, 29, 15, -17, 55, 28, 8, -47, 55, -23, -3, -20, -11, -53, 46, 5, -63, 54, -49, 51, 41, -21, -53, -56, 25, -40, -46, -4]> : tensor<32xi32>
  %e1 = tensor.empty() : tensor<4x32xi32>
  %z1 = linalg.fill ins(%c0_i32 : i32) outs(%e1 : tensor<4x32xi32>) -> tensor<4x32xi32>
  %acc1 = linalg.matmul ins(%input, %w1 : tensor<4x16xi8>, tensor<16x32xi8>) outs(%z1 : tensor<4x32xi32>) -> tensor<4x32xi32>
  %q1_init = tensor.empty() : tensor<4x32xi8>
  %q1 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%acc1, %b1 : tensor<4x32xi32>, tensor<32xi32>) outs(%q1_init : tensor<4x32xi8>) {
    ^bb0(%a: i32, %bias: i32, %out: i8):
      %x = arith.addi %a, %bias : i32
      %r = arith.maxsi %x, %c0_i32 : i32
      %x64 = arith.extsi %r : i32 to i64
      %m = arith.muli %x64, %mult : i64
      %rnd = arith.addi %m, %round : i64
      %s = arith.shrsi %rnd, %shift : i64
      %lo = arith.maxsi %s, %qmin : i64
      %hi = arith.minsi %lo, %qmax : i64
      %y = arith.trunci %hi : i64 to i8
      linalg.yield %y : i8
  } -> tensor<4x32xi8>

  // Layer 2: 32 -> 8, bias add + requantization.
  %w2 = arith.constant dense<[[7, -6, 7, -7, -1, -7, 7, 4], [-7, -7, 0, 5, 6, 1, -7, -7], [-2, -3, 8, 4, -2, -1, -6, 2], [-5, -6, -3, -6, -2, -8, 6, 3], [7, 5, 4, 8, -4, -8, 1, 6], [-1, -5, -4, 1, 7, -6, 0, 4], [2, -4, -4, -6, 7, -1, -6, 5], [-1, 0, -7, 7, -1, -7, -2, 1], [3, -5, -6, 5, 2, 4, -8, 1], [-4, -8, 6, -4, -8, -7, 5, 0], [-5, 4, -4, 2, -6, 1, -3, -4], [0, 7, 2, 1, -7, -6, -8, -8], [-5, -7, -4, 3, 5, 0, -8, -1], [8, 5, -4, 3, -2, 2, 3, -8], [-3, -3, -5, 0, 8, -3, -4, 6], [5, 5, -5, 2, 2, 6, -1, 6], [5, -3, 6, -7, -3, 7, 7, -8], [-5, -4, 5, -7, -2, -8, -7, -1], [7, 3, 4, 6, -2, -2, 0, -2], [1, 8, 3, -1, 3, 3, -1, -7], [7, 4, 3, -4, -4, -1, 7, 4], [-7, -5, -3, 4, -5, 1, -2, 2], [7, 7, -6, -2, 4, -8, -5, 8], [-3, 4, -8, 2, -8, 1, 8, 4], [8, 7, 4, 6, -7, -4, 5, 3], [-8, 8, -2, 1, 1, -6, -8, -6], [3, 5, 1, -8, 0, -1, -6, -7], [-6, 1, 3, -2, 7, 8, -6, -5], [-1, 2, 5, 4, -8, 4, 4, -3], [8, -2, 2, 4, 2, -5, 3, -1], [-5, -2, 1, 1, 0, -6, -3, -6], [5, -3, -1, -6, 5, 5, -1, 5]]> : tensor<32x8xi8>
  %b2 = arith.constant dense<[59, -2, 13, 43, 7, -43, 20, -17]> : tensor<8xi32>
  %e2 = tensor.empty() : tensor<4x8xi32>
  %z2 = linalg.fill ins(%c0_i32 : i32) outs(%e2 : tensor<4x8xi32>) -> tensor<4x8xi32>
  %acc2 = linalg.matmul ins(%q1, %w2 : tensor<4x32xi8>, tensor<32x8xi8>) outs(%z2 : tensor<4x8xi32>) -> tensor<4x8xi32>
  %q2_init = tensor.empty() : tensor<4x8xi8>
  %q2 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%acc2, %b2 : tensor<4x8xi32>, tensor<8xi32>) outs(%q2_init : tensor<4x8xi8>) {
    ^bb0(%a: i32, %bias: i32, %out: i8):
      %x = arith.addi %a, %bias : i32
      %x64 = arith.extsi %x : i32 to i64
      %m = arith.muli %x64, %mult : i64
      %rnd = arith.addi %m, %round : i64
      %s = arith.shrsi %rnd, %shift : i64
      %lo = arith.maxsi %s, %qmin : i64
      %hi = arith.minsi %lo, %qmax : i64
      %y = arith.trunci %hi : i64 to i8
      linalg.yield %y : i8
  } -> tensor<4x8xi8>

  return %q2 : tensor<4x8xi8>
}
