// A layer without a bias (ONNX Linear(bias=False)): the importer adds zeros
// marked onnx.no_bias, which training leaves as they are, as PyTorch has no
// such parameter: the bias is not trainable, gets no SGD update and is no
// trained output. The next layer's bias is trained as usual.
// RUN: npuc %s --train --steps=1 --batch=2 --lr=0.5 --emit=verify | FileCheck %s

#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @net(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0.0 : f32
  %w1 = arith.constant dense<0.25> : tensor<8x5xf32>
  %b1 = arith.constant {onnx.no_bias} dense<0.0> : tensor<5xf32>
  %e1 = tensor.empty() : tensor<4x5xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e1 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %m1 = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x5xf32>) outs(%z1 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %o1 = tensor.empty() : tensor<4x5xf32>
  %a1 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<4x5xf32>, tensor<5xf32>) outs(%o1 : tensor<4x5xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      %r = arith.maximumf %s, %c0 : f32
      linalg.yield %r : f32
  } -> tensor<4x5xf32>
  %w2 = arith.constant dense<0.125> : tensor<5x3xf32>
  %b2 = arith.constant dense<0.5> : tensor<3xf32>
  %e2 = tensor.empty() : tensor<4x3xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m2 = linalg.matmul ins(%a1, %w2 : tensor<4x5xf32>, tensor<5x3xf32>) outs(%z2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %o2 = tensor.empty() : tensor<4x3xf32>
  %a2 = linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<4x3xf32>, tensor<3xf32>) outs(%o2 : tensor<4x3xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %a2 : tensor<4x3xf32>
}

// CHECK: outputs = ["steps.done", "loss.step0", "layer1.weight", "layer2.weight", "layer2.bias"]
// CHECK: func.func @net_train(%{{.*}}: tensor<2x8xf32>, %{{.*}}: tensor<2xi32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<8x5xf32>, tensor<5x3xf32>, tensor<3xf32>)
// CHECK-DAG: %[[B1:.*]] = arith.constant dense<0.000000e+00> : tensor<5xf32>
// CHECK-DAG: %[[B2:.*]] = arith.constant {npu.trainable} dense<5.000000e-01> : tensor<3xf32>
// The zero bias is read by the forward epilogue only, never updated.
// CHECK-NOT: tensor.expand_shape %[[B1]]
// CHECK: tensor.expand_shape %[[B2]]
// CHECK-NOT: tensor.expand_shape %[[B1]]
// CHECK: return
