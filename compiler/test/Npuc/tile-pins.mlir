// --tile <region>=<sizes> pins a layer's tiles by the region name the report
// shows (layer<i>.<kernel>); every other layer keeps the tiler's choice.
// Illegal pins are errors naming the pin, the layer and why.
// RUN: npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=4x16 --tile=layer7.conv2d=2x16 --tile=layer11.matmul=1x10x32 | FileCheck %s
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer99.conv2d=4x16 2>&1 | FileCheck %s --check-prefix=NOLAYER
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=4 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=4xa 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=40x16 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=4x12 2>&1 | FileCheck %s --check-prefix=CHANNELS
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer2.conv2d=32x16 2>&1 | FileCheck %s --check-prefix=L1
// RUN: not npuc %networks/resnet8_int8.mlir --emit=tiled --tile=layer11.matmul=1x16x64 2>&1 | FileCheck %s --check-prefix=MATMUL

// CHECK: npu.conv_kernel
// CHECK-SAME: npu.tiles = array<i64: 11, 16>
// CHECK: npu.conv_kernel
// CHECK-SAME: npu.tiles = array<i64: 4, 16>
// CHECK: npu.conv_kernel
// CHECK: npu.conv_kernel
// CHECK: npu.conv_kernel
// CHECK: npu.conv_kernel
// CHECK: npu.conv_kernel
// CHECK-SAME: npu.tiles = array<i64: 2, 16>
// CHECK: npu.matmul_kernel
// CHECK-SAME: npu.tiles = array<i64: 1, 10, 32>

// NOLAYER: resnet8_int8.mlir: error: --tile layer99.conv2d=4x16: no conv or matmul layer 'layer99.conv2d' (the layers: layer1.conv2d layer2.conv2d {{.*}} layer10.avgpool2d layer11.matmul)
// ARITY: error: --tile layer2.conv2d=4: layer2.conv2d takes <output rows>x<output channels>
// NUMBER: error: --tile layer2.conv2d=4xa: 'a' is not a number
// RANGE: error: 'npu.conv_kernel' op --tile layer2.conv2d=40x16 [40, 16]: the layer has 32 output rows and 16 output channels
// CHANNELS: error: 'npu.conv_kernel' op --tile layer2.conv2d=4x12 [4, 12]: a conv2d layer takes an output-channel tile of 16 8 4 2 1
// L1: error: 'npu.conv_kernel' op --tile layer2.conv2d=32x16 [32, 16] need 494016 bytes of L1, the budget is 110976
// MATMUL: error: 'npu.matmul_kernel' op --tile layer11.matmul=1x16x64 must be [tm, tn, tk] with 1 <= tm <= 1, 1 <= tn <= 10, 1 <= tk <= 64
