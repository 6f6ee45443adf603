// Depthwise and pooling layers whose row tiles of all channels do not fit
// the L1 budget run in channel slices: npu-tile gives them a channel tile
// below their channels and npu-schedule calls npurt_dwconv2d_csplit /
// npurt_pool2d_csplit. DS-CNN f32 in a 32 KiB L1: its depthwise layers need
// 12,800 bytes for one output row of 64 channels, its global average pooling
// 2 x 25x5x64 f32; in gap9's 128 KiB every layer takes all its channels.
// A --tile pin may choose a slice too (int8, where all channels fit).
// RUN: npuc %networks/dscnn_f32.mlir --emit=schedule --set=l1.size=32KiB | FileCheck %s
// RUN: npuc %networks/dscnn_f32.mlir --emit=schedule | FileCheck %s --check-prefix=FITS
// RUN: npuc %networks/dscnn_int8.mlir --emit=schedule --tile=layer2.dwconv2d=5x16 | FileCheck %s --check-prefix=PIN
// RUN: not npuc %networks/dscnn_int8.mlir --emit=tiled --tile=layer2.dwconv2d=5x12 2>&1 | FileCheck %s --check-prefix=BADPIN

// CHECK: call @npurt_dwconv2d_csplit(%{{.*}}) {npu.l1_budget = 12672 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.tiles = array<i64: {{[0-9]+}}, {{([1-9]|[1-5][0-9]|6[0-3])}}>}
// CHECK: call @npurt_pool2d_csplit(%{{.*}}) {npu.l1_budget = 12672 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.tiles = array<i64: 1, {{([1-9]|[1-5][0-9]|6[0-3])}}>}

// FITS-NOT: _csplit
// FITS: call @npurt_dwconv2d(%{{.*}}) {{.*}}npu.tiles = array<i64: {{[0-9]+}}, 64>}
// FITS: call @npurt_pool2d(%{{.*}}) {{.*}}npu.tiles = array<i64: 1, 64>}
// FITS-NOT: _csplit

// PIN: call @npurt_dwconv2d_csplit(%{{.*}}) {{.*}}npu.tiles = array<i64: 5, 16>}
// PIN-NOT: call @npurt_{{[a-z0-9]+}}_csplit

// BADPIN: error: 'npu.conv_kernel' op --tile layer2.dwconv2d=5x12 [5, 12]: a dwconv2d layer takes an output-channel tile of 64 32 16 8 4 2 1
