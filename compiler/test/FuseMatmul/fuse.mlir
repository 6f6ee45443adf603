// npu-fuse-matmul: a dense layer's matmul and epilogue -> one npu.matmul_kernel
// when npurt_matmul_ep computes the epilogue exactly; anything else is left
// as it is (no error, no diagnostic: the layer runs unfused).
// RUN: npuc-opt %s -npu-fuse-matmul -split-input-file -verify-diagnostics | FileCheck %s

// f32: bias + ReLU.
// CHECK-LABEL: func.func @f32_relu
// CHECK-NOT: linalg.matmul
// CHECK: %[[R:.*]] = "npu.matmul_kernel"(%arg0, %arg1, %{{.*}}, %{{.*}}) <{act_max = 127 : i64, act_min = -128 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>, relu}> {npu.tiles = array<i64: 2, 4, 8>}
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @f32_relu(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %b = arith.constant dense<[1.0, -2.0, 0.5, 0.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %acc = linalg.matmul {npu.tiles = array<i64: 2, 4, 8>} ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %o = tensor.empty() : tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%o : tensor<2x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// int8, gen_mlp.py's form: ReLU before the requantisation becomes the clamp's
// lower bound 0; multiplier and shift become [1] i32 constants.
// CHECK-LABEL: func.func @int8_mlp
// CHECK-DAG: %[[M:.*]] = arith.constant dense<1518500250> : tensor<1xi32>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<38> : tensor<1xi32>
// CHECK: "npu.matmul_kernel"(%arg0, %arg1, %{{.*}}, %[[M]], %[[S]], %{{.*}}) <{act_max = 127 : i64, act_min = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>}>
// CHECK-NOT: linalg.generic
func.func @int8_mlp(%x: tensor<4x16xi8>, %w: tensor<16x8xi8>) -> tensor<4x8xi8> {
  %c0_i32 = arith.constant 0 : i32
  %mult = arith.constant 1518500250 : i64
  %shift = arith.constant 38 : i64
  %round = arith.constant 137438953472 : i64
  %qmin = arith.constant -128 : i64
  %qmax = arith.constant 127 : i64
  %b = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %e = tensor.empty() : tensor<4x8xi32>
  %z = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  %acc = linalg.matmul ins(%x, %w : tensor<4x16xi8>, tensor<16x8xi8>) outs(%z : tensor<4x8xi32>) -> tensor<4x8xi32>
  %o = tensor.empty() : tensor<4x8xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<4x8xi32>, tensor<8xi32>) outs(%o : tensor<4x8xi8>) {
  ^bb0(%a: i32, %bias: i32, %out: i8):
    %s0 = arith.addi %a, %bias : i32
    %r = arith.maxsi %s0, %c0_i32 : i32
    %x64 = arith.extsi %r : i32 to i64
    %m = arith.muli %x64, %mult : i64
    %rnd = arith.addi %m, %round : i64
    %s = arith.shrsi %rnd, %shift : i64
    %lo = arith.maxsi %s, %qmin : i64
    %hi = arith.minsi %lo, %qmax : i64
    %t = arith.trunci %hi : i64 to i8
    linalg.yield %t : i8
  } -> tensor<4x8xi8>
  return %y : tensor<4x8xi8>
}

// -----

// gen_mlp.py's form with a shift below 31: the i64 clamp and npurt_conv.h's
// i32 truncation could differ, so the layer is left unfused.
// CHECK-LABEL: func.func @int8_small_shift
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK-NOT: npu.matmul_kernel
func.func @int8_small_shift(%x: tensor<4x16xi8>, %w: tensor<16x8xi8>) -> tensor<4x8xi8> {
  %c0_i32 = arith.constant 0 : i32
  %mult = arith.constant 1518500250 : i64
  %shift = arith.constant 20 : i64
  %round = arith.constant 524288 : i64
  %qmin = arith.constant -128 : i64
  %qmax = arith.constant 127 : i64
  %b = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %e = tensor.empty() : tensor<4x8xi32>
  %z = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  %acc = linalg.matmul ins(%x, %w : tensor<4x16xi8>, tensor<16x8xi8>) outs(%z : tensor<4x8xi32>) -> tensor<4x8xi32>
  %o = tensor.empty() : tensor<4x8xi8>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<4x8xi32>, tensor<8xi32>) outs(%o : tensor<4x8xi8>) {
  ^bb0(%a: i32, %bias: i32, %out: i8):
    %s0 = arith.addi %a, %bias : i32
    %x64 = arith.extsi %s0 : i32 to i64
    %m = arith.muli %x64, %mult : i64
    %rnd = arith.addi %m, %round : i64
    %s = arith.shrsi %rnd, %shift : i64
    %lo = arith.maxsi %s, %qmin : i64
    %hi = arith.minsi %lo, %qmax : i64
    %t = arith.trunci %hi : i64 to i8
    linalg.yield %t : i8
  } -> tensor<4x8xi8>
  return %y : tensor<4x8xi8>
}

// -----

// The accumulator has a second reader (kept, e.g. for a backward pass): the
// matmul must write it to memory, so nothing is fused.
// CHECK-LABEL: func.func @acc_read_twice
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK-NOT: npu.matmul_kernel
func.func @acc_read_twice(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = arith.constant dense<[1.0, -2.0, 0.5, 0.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %acc = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %o = tensor.empty() : tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%o : tensor<2x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %y, %acc : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// An epilogue the kernel does not compute (a multiply): left unfused.
// CHECK-LABEL: func.func @f32_other
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK-NOT: npu.matmul_kernel
func.func @f32_other(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %b = arith.constant dense<[1.0, -2.0, 0.5, 0.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %acc = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %o = tensor.empty() : tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%o : tensor<2x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.mulf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// -----

// gen_mlp.py's requantisation, but into an i32 tensor: npurt_matmul_ep writes
// int8 only, so the layer is left unfused.
// CHECK-LABEL: func.func @int8_into_i32
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK-NOT: npu.matmul_kernel
func.func @int8_into_i32(%x: tensor<4x16xi8>, %w: tensor<16x8xi8>) -> tensor<4x8xi32> {
  %c0_i32 = arith.constant 0 : i32
  %mult = arith.constant 1518500250 : i64
  %shift = arith.constant 38 : i64
  %round = arith.constant 137438953472 : i64
  %qmin = arith.constant -128 : i64
  %qmax = arith.constant 127 : i64
  %b = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %e = tensor.empty() : tensor<4x8xi32>
  %z = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  %acc = linalg.matmul ins(%x, %w : tensor<4x16xi8>, tensor<16x8xi8>) outs(%z : tensor<4x8xi32>) -> tensor<4x8xi32>
  %o = tensor.empty() : tensor<4x8xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %b : tensor<4x8xi32>, tensor<8xi32>) outs(%o : tensor<4x8xi32>) {
  ^bb0(%a: i32, %bias: i32, %out: i32):
    %s0 = arith.addi %a, %bias : i32
    %r = arith.maxsi %s0, %c0_i32 : i32
    %x64 = arith.extsi %r : i32 to i64
    %m = arith.muli %x64, %mult : i64
    %rnd = arith.addi %m, %round : i64
    %s = arith.shrsi %rnd, %shift : i64
    %lo = arith.maxsi %s, %qmin : i64
    %hi = arith.minsi %lo, %qmax : i64
    %t = arith.trunci %hi : i64 to i32
    linalg.yield %t : i32
  } -> tensor<4x8xi32>
  return %y : tensor<4x8xi32>
}
