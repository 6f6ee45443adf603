// A weight several ONNX nodes read (the same nn.Linear applied twice) is
// imported as one constant per node, which the importer notes (onnx.shared,
// naming the initializer and two of its nodes): training the copies apart
// would untie them, so npu train refuses it.
// RUN: not npuc %s --train --steps=1 --emit=verify 2>&1 | FileCheck %s

// CHECK: error: training a weight used by more than one node is not supported: initializer 'a.weight' is read by nodes 'fc_a' and 'fc_b'
#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @shared(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %c0 = arith.constant 0.0 : f32
  %w = arith.constant {onnx.shared = "initializer 'a.weight' is read by nodes 'fc_a' and 'fc_b'"} dense<0.5> : tensor<8x4xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %o = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%o : tensor<4x4xf32>) {
    ^bb0(%a: f32, %c: f32, %out: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
