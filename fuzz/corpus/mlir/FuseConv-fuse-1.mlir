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
