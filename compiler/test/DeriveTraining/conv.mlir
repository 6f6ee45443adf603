// A small convolutional network (conv stride 2 with padding, depthwise
// conv, residual add, sum pooling + divide, fc): one training step. The
// backward: the transposed convolution of the zero-inserted, padded dY with
// the flipped weights (dX), the im2col weight-gradient GEMM fused with the
// SGD update (npu.sgd_update), the depthwise weight update reduced into the
// weight, and the pooling's backward as a depthwise conv with ones.
// RUN: npuc-opt %s -npu-derive-training=steps=1 | FileCheck %s
// RUN: not npuc-opt %s -npu-derive-training=batch=4 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: error: a convolutional network trains on mini-batches of one sample (the conv kernels run batch 1): batch must be 1, got 4

// CHECK-DAG: #[[DIL:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5)>
// CHECK-DAG: #[[FLIP:.+]] = affine_map<(d0, d1, d2) -> (-d0 + 2, -d1 + 2, d2)>
// CHECK-DAG: #[[PATCH:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (0, d3 * 2 + d0, d4 * 2 + d1, d2)>
// CHECK-LABEL: func.func @tiny_train(
// CHECK-SAME: tensor<1x6x6x2xf32>, %{{.*}}: tensor<1xi32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<3x3x2x4xf32>, tensor<4xf32>, tensor<3x3x4xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<3xf32>)
// The fc layer: W += (-lr X^T) dY.
// CHECK: linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<4x1xf32>, tensor<1x3xf32>)
// Sum pooling: dY zero-inserted by the stride 3, padded by window - 1, a
// depthwise conv with ones.
// CHECK: linalg.generic {indexing_maps = [#[[DIL]],
// CHECK: tensor.pad %{{.*}} low[0, 2, 2, 0] high[0, 0, 0, 0]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x5x5x4xf32>, tensor<3x3x4xf32>) outs(%{{.*}} : tensor<1x3x3x4xf32>)
// Depthwise conv: its bias, dX with the flipped weights, then the weight
// update reduced into the weight's own buffer.
// CHECK: linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<1x9xf32>, tensor<9x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]],
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins({{.*}}) outs(%{{.*}} : tensor<3x3x4xf32>) attrs = {npu.sgd_update}
// Conv: its bias, the padded input's im2col (stride 2) and the GEMM fused
// with the SGD update, accumulating into the weight viewed as 18 x 4.
// CHECK: linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<1x9xf32>, tensor<9x4xf32>)
// CHECK: tensor.pad %arg0 low[0, 1, 1, 0] high[0, 0, 0, 0]
// CHECK: linalg.generic {indexing_maps = [#[[PATCH]],
// CHECK: linalg.matmul {npu.sgd_update} ins(%{{.*}}, %{{.*}} : tensor<18x9xf32>, tensor<9x4xf32>) outs(%{{.*}} : tensor<18x4xf32>)
// CHECK: return

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
#row = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @tiny(%x: tensor<1x6x6x2xf32>) -> tensor<1x3xf32> {
  %c0 = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 0, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0 : f32
  } : tensor<1x6x6x2xf32> to tensor<1x7x7x2xf32>
  %w = arith.constant dense<0.25> : tensor<3x3x2x4xf32>
  %b = arith.constant dense<0.5> : tensor<4xf32>
  %e = tensor.empty() : tensor<1x3x3x4xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) outs(%z : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %o = tensor.empty() : tensor<1x3x3x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x3x3x4xf32>, tensor<4xf32>) outs(%o : tensor<1x3x3x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    %r = arith.maximumf %s, %c0 : f32
    linalg.yield %r : f32
  } -> tensor<1x3x3x4xf32>
  %p2 = tensor.pad %y low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %c0 : f32
  } : tensor<1x3x3x4xf32> to tensor<1x5x5x4xf32>
  %dw = arith.constant dense<0.5> : tensor<3x3x4xf32>
  %db = arith.constant dense<0.1> : tensor<4xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %d = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %dw : tensor<1x5x5x4xf32>, tensor<3x3x4xf32>) outs(%z2 : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  %y2 = linalg.generic {indexing_maps = [#id, #ch, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%d, %db, %y : tensor<1x3x3x4xf32>, tensor<4xf32>, tensor<1x3x3x4xf32>) outs(%o : tensor<1x3x3x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %res: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  } -> tensor<1x3x3x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %pe = tensor.empty() : tensor<1x1x1x4xf32>
  %pz = linalg.fill ins(%c0 : f32) outs(%pe : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %sum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<3> : tensor<2xi64>}
      ins(%y2, %win : tensor<1x3x3x4xf32>, tensor<3x3xf32>) outs(%pz : tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<1x1x1x4xf32>) outs(%pe : tensor<1x1x1x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %n = arith.constant 9.0 : f32
    %q = arith.divf %a, %n : f32
    linalg.yield %q : f32
  } -> tensor<1x1x1x4xf32>
  %flat = tensor.collapse_shape %avg [[0], [1, 2, 3]] : tensor<1x1x1x4xf32> into tensor<1x4xf32>
  %fw = arith.constant dense<0.125> : tensor<4x3xf32>
  %fb = arith.constant dense<0.0> : tensor<3xf32>
  %fe = tensor.empty() : tensor<1x3xf32>
  %fz = linalg.fill ins(%c0 : f32) outs(%fe : tensor<1x3xf32>) -> tensor<1x3xf32>
  %m = linalg.matmul ins(%flat, %fw : tensor<1x4xf32>, tensor<4x3xf32>) outs(%fz : tensor<1x3xf32>) -> tensor<1x3xf32>
  %l = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]}
      ins(%m, %fb : tensor<1x3xf32>, tensor<3xf32>) outs(%fe : tensor<1x3xf32>) {
  ^bb0(%a: f32, %bb: f32, %out: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<1x3xf32>
  return %l : tensor<1x3xf32>
}
