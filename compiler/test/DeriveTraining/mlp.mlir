// A two-layer MLP becomes ONE SGD step that the firmware runs N times: data
// and labels of every step in, the step's own selected by the steps done;
// the steps done, each step's loss and the trained weights out, all state
// updated in place (npu.sgd_update); the forward activations the backward
// reads are marked, and each weight update is a matmul accumulating into
// the weight.
// RUN: npuc-opt %s -npu-derive-training='steps=2 batch=3 lr=0.5' | FileCheck %s

#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @net(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %c0 = arith.constant 0.0 : f32
  %w1 = arith.constant dense<0.25> : tensor<8x5xf32>
  %b1 = arith.constant dense<0.5> : tensor<5xf32>
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
  %b2 = arith.constant dense<0.0> : tensor<3xf32>
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

// CHECK: module attributes {npu.training = {batch = 3 : i64, classes = 3 : i64, data_inputs = 2 : i64, loss = "cross-entropy", lr = 5.000000e-01 : f64, outputs = ["steps.done", "loss.step0", "loss.step1", "layer1.weight", "layer1.bias", "layer2.weight", "layer2.bias"], steps = 2 : i64}}
// CHECK-NOT: func.func @net(
// CHECK: func.func @net_train(%[[X0:.*]]: tensor<3x8xf32>, %[[Y0:.*]]: tensor<3xi32>, %[[X1:.*]]: tensor<3x8xf32>, %[[Y1:.*]]: tensor<3xi32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<8x5xf32>, tensor<5xf32>, tensor<5x3xf32>, tensor<3xf32>)
// The state in L2: the steps done, then a slot per step's loss (-(s + 1)
// until step s writes it).
// CHECK: %[[DONE:.*]] = arith.constant {npu.mem = #npu.mem<L2>, npu.trainable} dense<0.000000e+00> : tensor<1x1xf32>
// CHECK: %[[L0:.*]] = arith.constant {npu.mem = #npu.mem<L2>, npu.trainable} dense<-1.000000e+00> : tensor<1x1xf32>
// CHECK: %[[L1:.*]] = arith.constant {npu.mem = #npu.mem<L2>, npu.trainable} dense<-2.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[W1:.*]] = arith.constant {npu.trainable} dense<2.500000e-01> : tensor<8x5xf32>
// CHECK-DAG: %[[W2:.*]] = arith.constant {npu.trainable} dense<1.250000e-01> : tensor<5x3xf32>
// The step's mini-batch and labels, selected by the steps done.
// CHECK: linalg.generic {{.*}} ins(%[[DONE]], %[[X0]], %[[X1]] :
// CHECK: arith.cmpf oeq
// CHECK-NEXT: arith.select
// CHECK: linalg.generic {{.*}} ins(%[[DONE]], %[[Y0]], %[[Y1]] :
// The hidden activation is kept for the backward pass.
// CHECK: linalg.generic {{.*}}npu.kept_for_backward
// The softmax: the row max (a reduction), exp, then row sums as a matmul
// with ones.
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.maximumf
// CHECK: math.exp
// CHECK: linalg.matmul
// The output layer's update accumulates into W2 on the SA (after dX read W2).
// CHECK: %[[U2:.*]] = linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<5x3xf32>, tensor<3x3xf32>) outs(%[[W2]] : tensor<5x3xf32>)
// CHECK: linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<3x3xf32>) outs(%expanded
// CHECK: %[[U1:.*]] = linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<8x3xf32>, tensor<3x5xf32>) outs(%[[W1]] : tensor<8x5xf32>)
// The loss into its step's slot, then the step counted (its last reader).
// CHECK: %[[S0:.*]] = linalg.generic {{.*}} ins(%[[LOSS:.*]], %[[DONE]] : tensor<1x1xf32>, tensor<1x1xf32>) outs(%[[L0]] : tensor<1x1xf32>) attrs =  {npu.sgd_update}
// CHECK: %[[S1:.*]] = linalg.generic {{.*}} ins(%[[LOSS]], %[[DONE]] : tensor<1x1xf32>, tensor<1x1xf32>) outs(%[[L1]] : tensor<1x1xf32>) attrs =  {npu.sgd_update}
// CHECK: %[[D:.*]] = linalg.generic {{.*}} outs(%[[DONE]] : tensor<1x1xf32>) attrs =  {npu.sgd_update}
// CHECK: arith.addf
// CHECK: return %[[D]], %[[S0]], %[[S1]], %[[U1]], %{{.*}}, %[[U2]], %{{.*}} :
