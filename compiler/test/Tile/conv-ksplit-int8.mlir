// int8 ResNet-8 in a 32 KiB L1 with the default 2 KiB stacks (a 12,672 B
// tile budget): no npurt_conv2d tile of its 3x3 convolutions with 16 or more
// input channels fits (the smallest needs 13,088 B), so npu-tile splits
// their K like an f32 layer's (int32 partial sums, exact) and npu-schedule
// calls npurt_conv2d_ksplit_i8; the first conv (K = 27) and the 1x1 shortcut
// stay on npurt_conv2d. In gap9's 128 KiB every layer fits npurt_conv2d.
// RUN: npuc-opt %networks/resnet8_int8.mlir -npu-pipeline='to=schedule set=l1.size=32KiB' | FileCheck %s
// RUN: npuc-opt %networks/resnet8_int8.mlir -npu-pipeline='to=schedule' | FileCheck %s --check-prefix=FITS

// CHECK: call @npurt_conv2d(%{{.*}}) {npu.l1_budget = 12672 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.tiles = array<i64: {{[0-9]+}}, 16>}
// CHECK: call @npurt_conv2d_ksplit_i8(%{{.*}}) {npu.l1_budget = 12672 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.tiles = array<i64: {{[0-9]+}}, {{[0-9]+}}, 144>}
// The residual block's second conv: K split with the residual add fused.
// CHECK: call @npurt_conv2d_ksplit_i8(%{{.*}}) {npu.l1_budget = 12672 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.tiles = array<i64: {{[0-9]+}}, {{[0-9]+}}, 144>}
// FITS-NOT: npurt_conv2d_ksplit_i8
