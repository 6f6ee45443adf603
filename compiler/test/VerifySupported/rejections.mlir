// The verifier's rejections not covered by the other files here: one case
// each, every one a diagnostic at the op (or function) it names.
// RUN: npuc-opt %s -npu-verify-supported -split-input-file -verify-diagnostics

// expected-error @+1 {{function declarations are not supported; the network must be one function with a body}}
func.func private @declared(%a: tensor<4xf32>) -> tensor<4xf32>

// -----

// expected-error @+1 {{i1 tensors are supported inside the network (masks), not as its inputs or outputs}}
func.func @mask_input(%m: tensor<4xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{functions with control flow (several blocks) are not supported}}
func.func @branches(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{unranked tensors are not supported}}
func.func @unranked(%u: tensor<*xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{memref values are not supported: npuc takes a tensor-level module and does its own placement}}
func.func @memref_arg(%m: memref<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{tensor encodings are not supported}}
func.func @encoded(%e: tensor<4xf32, "sparse">, %a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

func.func @tensor_in_body(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    // expected-error @+1 {{tensor values inside an elementwise body are not supported}}
    %t = arith.constant dense<1.0> : tensor<2xf32>
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An output written along a sum of two loops (a diagonal), not along loops.
func.func @diagonal_output(%a: tensor<4x4xi32>) -> tensor<7xi32> {
  %e = tensor.empty() : tensor<7xi32>
  // expected-error @+1 {{'linalg.generic' op indexing map affine_map<(d0, d1) -> (d0 + d1)> of operand #1 is not supported (inputs: affine maps of the loops, outputs: loops, or loops plus constants)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0 + d1)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x4xi32>) outs(%e : tensor<7xi32>) {
  ^bb0(%x: i32, %o: i32):
    %s = arith.addi %x, %o : i32
    linalg.yield %s : i32
  } -> tensor<7xi32>
  return %r : tensor<7xi32>
}

// -----

func.func @unsigned_matmul(%a: tensor<4x4xi8>, %b: tensor<4x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  // expected-error @+1 {{'linalg.matmul' op with a cast attribute is not supported}}
  %r = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>}
      ins(%a, %b : tensor<4x4xi8>, tensor<4x4xi8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %r : tensor<4x4xi32>
}

// -----

func.func @dilated_pool(%x: tensor<1x8x8x4xf32>) -> tensor<1x6x6x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %k = tensor.empty() : tensor<2x2xf32>
  %e = tensor.empty() : tensor<1x6x6x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  // expected-error @+1 {{dilated pooling is not supported (npurt_pool2d: dilation 1)}}
  %y = linalg.pooling_nhwc_sum {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%z : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

// -----

func.func @dynamic_pad(%x: tensor<1x8x8x4xi8>, %w: tensor<3x3x4x8xi8>) -> tensor<1x8x8x8xi32> {
  %c0 = arith.constant 0 : i8
  %i0 = arith.constant 0 : i32
  %one = arith.constant 1 : index
  // expected-error @+1 {{dynamic padding amounts are not supported}}
  %p = tensor.pad %x low[0, %one, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index):
    tensor.yield %c0 : i8
  } : tensor<1x8x8x4xi8> to tensor<1x10x10x4xi8>
  %e = tensor.empty() : tensor<1x8x8x8xi32>
  %z = linalg.fill ins(%i0 : i32) outs(%e : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x4xi8>, tensor<3x3x4x8xi8>) outs(%z : tensor<1x8x8x8xi32>) -> tensor<1x8x8x8xi32>
  return %y : tensor<1x8x8x8xi32>
}
