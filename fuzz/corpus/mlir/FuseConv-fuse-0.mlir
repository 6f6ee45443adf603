func.func @int8(%x: tensor<1x4x4x3xi8>, %w: tensor<3x3x3x2xi8>, %r: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xi8> {
  %c0_i8 = arith.constant 0 : i8
  %c0_i32 = arith.constant 0 : i32
  %b = arith.constant dense<[5, -7]> : tensor<2xi32>
  %m = arith.constant dense<[1073741824, 1610612736]> : tensor<2xi64>
  %s = arith.constant dense<[33, 34]> : tensor<2xi64>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0_i8 : i8
  } : tensor<1x4x4x3xi8> to tensor<1x6x6x3xi8>
  %e = tensor.empty() : tensor<1x4x4x2xi32>
  %z = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %acc = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x6x6x3xi8>, tensor<3x3x3x2xi8>) outs(%z : tensor<1x4x4x2xi32>) -> tensor<1x4x4x2xi32>
  %o = tensor.empty() : tensor<1x4x4x2xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %b, %m, %s, %r : tensor<1x4x4x2xi32>, tensor<2xi32>, tensor<2xi64>, tensor<2xi64>, tensor<1x4x4x2xi8>)
      outs(%o : tensor<1x4x4x2xi8>) {
  ^bb0(%a: i32, %bb: i32, %mm: i64, %ss: i64, %rr: i8, %oo: i8):
    %x0 = arith.addi %a, %bb : i32
    %x64 = arith.extsi %x0 : i32 to i64
    %pp = arith.muli %x64, %mm : i64
    %one = arith.constant 1 : i64
    %half0 = arith.shli %one, %ss : i64
    %half = arith.shrsi %half0, %one : i64
    %q = arith.addi %pp, %half : i64
    %v0 = arith.shrsi %q, %ss : i64
    %v32 = arith.trunci %v0 : i64 to i32
    %v = arith.extsi %v32 : i32 to i64
    %rm = arith.constant 1460577746 : i64
    %rs = arith.constant 31 : i64
    %r64 = arith.extsi %rr : i8 to i64
    %rp = arith.muli %r64, %rm : i64
    %rh0 = arith.shli %one, %rs : i64
    %rh = arith.shrsi %rh0, %one : i64
    %rq = arith.addi %rp, %rh : i64
    %rv0 = arith.shrsi %rq, %rs : i64
    %rv32 = arith.trunci %rv0 : i64 to i32
    %rv = arith.extsi %rv32 : i32 to i64
    %sum = arith.addi %v, %rv : i64
    %lo = arith.constant 0 : i64
    %hi = arith.constant 127 : i64
    %c1 = arith.maxsi %sum, %lo : i64
    %c2 = arith.minsi %c1, %hi : i64
    %zz = arith.trunci %c2 : i64 to i8
    linalg.yield %zz : i8
  } -> tensor<1x4x4x2xi8>
  return %y : tensor<1x4x4x2xi8>
}
