// npu-fuse-conv: padding and epilogue folded into one npu.conv_kernel.
// RUN: npuc-opt %s -npu-fuse-conv -split-input-file -verify-diagnostics | FileCheck %s

// int8: zero pad, conv, bias + per-channel requantisation + residual + ReLU.
// CHECK-LABEL: func.func @int8
// CHECK-NOT: tensor.pad
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK-DAG: %[[M:.*]] = arith.constant dense<[1073741824, 1610612736]> : tensor<2xi32>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[33, 34]> : tensor<2xi32>
// CHECK: "npu.conv_kernel"(%arg0, %arg1, %{{.*}}, %[[M]], %[[S]], %arg2, %{{.*}}) <{act_max = 127 : i64, act_min = 0 : i64, dilations = array<i64: 1, 1>, divisor = 1.000000e+00 : f32, kernel = "conv2d", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1>, padding = array<i64: 1, 1, 1, 1>, pool_mult = 0 : i64, pool_shift = 0 : i64, res_mult = 1460577746 : i64, res_shift = 31 : i64, strides = array<i64: 1, 1>, window = array<i64: 3, 3>}>
// CHECK-NOT: linalg.generic
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

// -----

// f32 depthwise with bias and ReLU, then a global average (sum / 16).
// CHECK-LABEL: func.func @f32
// CHECK: "npu.conv_kernel"(%arg0, %arg1, %{{.*}}, %{{.*}}) <{{{.*}}kernel = "dwconv2d", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1>, padding = array<i64: 0, 0, 0, 0>{{.*}}relu{{.*}}strides = array<i64: 2, 2>
// CHECK: "npu.conv_kernel"(%{{.*}}, %{{.*}}) <{{{.*}}divisor = 1.600000e+01 : f32, kernel = "avgpool2d", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 1>{{.*}}window = array<i64: 4, 4>}>
func.func @f32(%x: tensor<1x9x9x4xf32>, %w: tensor<3x3x4xf32>) -> tensor<1x1x1x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %acc = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x4xf32>, tensor<3x3x4xf32>) outs(%z : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %o = tensor.empty() : tensor<1x4x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %b : tensor<1x4x4x4xf32>, tensor<4xf32>) outs(%o : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %oo: f32):
    %s = arith.addf %a, %bb : f32
    %f0 = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %f0 : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %win = tensor.empty() : tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<1x1x1x4xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<4> : tensor<2xi64>}
      ins(%y, %win : tensor<1x4x4x4xf32>, tensor<4x4xf32>) outs(%z2 : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %o2 = tensor.empty() : tensor<1x1x1x4xf32>
  %avg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<1x1x1x4xf32>) outs(%o2 : tensor<1x1x1x4xf32>) {
  ^bb0(%a: f32, %oo: f32):
    %n = arith.constant 16.0 : f32
    %d = arith.divf %a, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x1x1x4xf32>
  return %avg : tensor<1x1x1x4xf32>
}

// -----

// An epilogue that is not the generator's form stays an error at the op.
func.func @sigmoid(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %acc = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) outs(%z : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %o = tensor.empty() : tensor<1x4x4x2xf32>
  // expected-error @+1 {{cannot be fused: the f32 epilogue must be (acc + bias) [+ residual] [max 0]}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc : tensor<1x4x4x2xf32>) outs(%o : tensor<1x4x4x2xf32>) {
  ^bb0(%a: f32, %oo: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// -----

func.func @unfused(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  // expected-error @+1 {{result must be the first input of an elementwise linalg.generic epilogue}}
  %acc = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) outs(%z : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %acc : tensor<1x4x4x2xf32>
}
