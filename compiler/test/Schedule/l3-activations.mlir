// Activations in L3 on a conv network: the layers right after a result's
// producer read its L2 buffer; a reader three layers later (the residual
// of layer 4) gets a copy from L3, started before layer 3 and waited for
// right before layer 4, while the write-back of layer 1's result runs
// during layer 2 and is waited for only where its L3 bytes are read next
// (that copy). Only layer 1's result (read later) and the output are
// written to L3; no copy blocks (npurt_copy).
// RUN: npuc %s --activation-mem-level=L3 --emit=schedule | FileCheck %s
// RUN: npuc-opt %s -npu-attach-target -npu-fuse-conv -npu-memory-plan='activation-mem-level=L3' -npu-print-memory-plan -o /dev/null | FileCheck %s --check-prefix=PLAN
// RUN: npuc %networks/resnet8_int8.mlir --activation-mem-level=L3 --default-mem-level=L3 --emit=schedule | FileCheck %s --check-prefix=RESNET

// CHECK-LABEL: func.func @npu_network
// CHECK: %[[IN:.*]] = call @npurt_copy_start(
// CHECK: call @npurt_copy_wait(%[[IN]])
// CHECK: call @npurt_conv2d(
// CHECK-SAME: npu.tiles
// CHECK: %[[WB:.*]] = call @npurt_copy_start(
// CHECK-NOT: npurt_copy_wait
// CHECK: call @npurt_conv2d(
// CHECK: call @npurt_copy_wait(%[[WB]])
// CHECK: %[[PF:.*]] = call @npurt_copy_start(
// CHECK-NOT: npurt_copy_wait
// CHECK: call @npurt_conv2d(
// CHECK: call @npurt_copy_wait(%[[PF]])
// CHECK: call @npurt_conv2d(
// CHECK: %[[OUT:.*]] = call @npurt_copy_start(
// CHECK: call @npurt_copy_wait(%[[OUT]])
// CHECK-NEXT: return
// CHECK-NOT: call @npurt_copy(

// The plan: L3 holds the input, layer 1's result and the output; layers 2
// and 3 have no L3 buffer (no write-back).
// PLAN: L3 0x80000000 1024 input
// PLAN-NEXT: L3 0x80000000 1024 activation tensor<1x4x4x16xf32> linalg.copy
// PLAN-NEXT: L3 0x80000000 1024 output
// PLAN-NEXT: l2 peak
// PLAN-NEXT: l3 peak: 1024 bytes

// RESNET-LABEL: func.func @npu_network
// RESNET-NOT: call @npurt_copy(
// RESNET: call @npurt_pool2d(
// RESNET-NOT: call @npurt_copy(
// RESNET: return
func.func @residual3_f32(%input: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %w1 = arith.constant dense<0.10> : tensor<1x1x16x16xf32>
  %b1 = arith.constant dense<0.01> : tensor<16xf32>
  %init1 = tensor.empty() : tensor<1x4x4x16xf32>
  %zero1 = linalg.fill ins(%c0 : f32) outs(%init1 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %conv1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%input, %w1 : tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) outs(%zero1 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %out1 = tensor.empty() : tensor<1x4x4x16xf32>
  %y1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv1, %b1 : tensor<1x4x4x16xf32>, tensor<16xf32>) outs(%out1 : tensor<1x4x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    %f0 = arith.constant 0.0 : f32
    %rl = arith.maximumf %x, %f0 : f32
    linalg.yield %rl : f32
  } -> tensor<1x4x4x16xf32>
  %w2 = arith.constant dense<0.15> : tensor<1x1x16x16xf32>
  %b2 = arith.constant dense<0.02> : tensor<16xf32>
  %init2 = tensor.empty() : tensor<1x4x4x16xf32>
  %zero2 = linalg.fill ins(%c0 : f32) outs(%init2 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %conv2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y1, %w2 : tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) outs(%zero2 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %out2 = tensor.empty() : tensor<1x4x4x16xf32>
  %y2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv2, %b2 : tensor<1x4x4x16xf32>, tensor<16xf32>) outs(%out2 : tensor<1x4x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    %f0 = arith.constant 0.0 : f32
    %rl = arith.maximumf %x, %f0 : f32
    linalg.yield %rl : f32
  } -> tensor<1x4x4x16xf32>
  %w3 = arith.constant dense<0.20> : tensor<1x1x16x16xf32>
  %b3 = arith.constant dense<0.03> : tensor<16xf32>
  %init3 = tensor.empty() : tensor<1x4x4x16xf32>
  %zero3 = linalg.fill ins(%c0 : f32) outs(%init3 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %conv3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y2, %w3 : tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) outs(%zero3 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %out3 = tensor.empty() : tensor<1x4x4x16xf32>
  %y3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv3, %b3 : tensor<1x4x4x16xf32>, tensor<16xf32>) outs(%out3 : tensor<1x4x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    %f0 = arith.constant 0.0 : f32
    %rl = arith.maximumf %x, %f0 : f32
    linalg.yield %rl : f32
  } -> tensor<1x4x4x16xf32>
  %w4 = arith.constant dense<0.25> : tensor<1x1x16x16xf32>
  %b4 = arith.constant dense<0.04> : tensor<16xf32>
  %init4 = tensor.empty() : tensor<1x4x4x16xf32>
  %zero4 = linalg.fill ins(%c0 : f32) outs(%init4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %conv4 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%y3, %w4 : tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) outs(%zero4 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %out4 = tensor.empty() : tensor<1x4x4x16xf32>
  %y4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv4, %b4, %y1 : tensor<1x4x4x16xf32>, tensor<16xf32>, tensor<1x4x4x16xf32>) outs(%out4 : tensor<1x4x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %r: f32, %o: f32):
    %x = arith.addf %a, %b : f32
    %xr = arith.addf %x, %r : f32
    %f0 = arith.constant 0.0 : f32
    %rl = arith.maximumf %xr, %f0 : f32
    linalg.yield %rl : f32
  } -> tensor<1x4x4x16xf32>
  return %y4 : tensor<1x4x4x16xf32>
}
