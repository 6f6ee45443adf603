#id = affine_map<(d0) -> (d0)>
func.func @quantize(%x: tensor<8xf32>) -> (tensor<8xi8>, tensor<8xi8>, tensor<8xi32>) {
  %e0 = tensor.empty() : tensor<8xi8>
  %raw = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e0 : tensor<8xi8>) {
  ^bb0(%a: f32, %o: i8):
    %q = arith.fptosi %a : f32 to i8
    linalg.yield %q : i8
  } -> tensor<8xi8>
  %e1 = tensor.empty() : tensor<8xi8>
  %clamped = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e1 : tensor<8xi8>) {
  ^bb0(%a: f32, %o: i8):
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %r = math.round %a : f32
    %m- = arith.maximumf %r, %lo : f32
    %c = arith.minimumf %m, %hi : f32
    %q = arith.fptosi %c : f32 to i8
    linalg.yield %q : i8
  } -> tensor<8xi8>
  %e2 = tensor.empty() : tensor<8xi32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e2 : tensor<8xi32>) {
  ^bb0(%a: f32, %o: i32):
    %lo = arith.constant -1.0e10 : f32
    %hi = arith.constant 1.0e3 : f32
    %m = arith.minnumf %a, %hi : f32
    %c = arith.maxnumf %m, %lo : f32
    %q = arith.fp}osi %c : f32 to i32
    linalg.yield %q : i32
  } -> tensor<8xi32>
  return %raw, %clamped, %wide : tensor<8xi8>, tensor<8xi8>, tensor<8xi32>
}
