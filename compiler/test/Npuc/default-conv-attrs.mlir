// A convolution without `strides`/`dilations` has the named op's
// defaults (1 along H and W): the kernel call gets 1s (found by fuzz_mlir:
// npu-fuse-conv read the absent attribute and crashed).
// RUN: npuc %s --emit=plan | FileCheck %s
// CHECK: "npu.conv_kernel"{{.*}}dilations = array<i64: 1, 1>{{.*}}kernel = "conv2d"{{.*}}strides = array<i64: 1, 1>, window = array<i64: 1, 1>
func.func @default_strides(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %acc = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>)
      outs(%z : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %acc : tensor<1x4x4x2xf32>
}
