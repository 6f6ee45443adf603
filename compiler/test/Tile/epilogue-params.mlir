// A fused dense layer's epilogue parameters (bias, and int8 per-channel
// multipliers and shifts) take L1 when npurt_matmul_ep copies them there.
// npu-tile keeps them in L2 (npu.params_in_l2; the workers read them there)
// when the tiles that leaves room for cost less: mlp_int8's layer 1 in a
// 32 KiB L1 gets 4x32x160 that way; on gap9 (128 KiB) both layers keep
// them in L1. A pin says where they go with ",params=L1|L2" (the manifest's
// tiles say it the same way, so npu sweep --fix-tiles pins the whole decision).
// RUN: npuc %networks/mlp_int8.mlir --emit=tiled | FileCheck %s
// RUN: npuc %networks/mlp_int8.mlir --emit=tiled --set l1.size=32KiB | FileCheck %s --check-prefix=SMALL
// RUN: npuc %networks/mlp_int8.mlir --emit=tiled --tile=layer1.matmul=4x64x400,params=L1 | FileCheck %s --check-prefix=PINL1
// RUN: npuc %networks/mlp_int8.mlir --emit=tiled --tile=layer2.matmul=4x128x128,params=L2 | FileCheck %s --check-prefix=PINL2
// RUN: not npuc %networks/mlp_int8.mlir --emit=tiled --tile=layer1.matmul=4x128x400,params=L1 2>&1 | FileCheck %s --check-prefix=NOROOM
// RUN: not npuc %networks/mlp_int8.mlir --emit=tiled --tile=layer1.matmul=4x128x400,params=L3 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not npuc %networks/mlp_int8.mlir --emit=tiled --fuse-matmul=false --tile=layer1.matmul=4x128x400,params=L2 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: rm -rf %t && npuc %networks/mlp_int8.mlir -o %t && FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// CHECK: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 58752 : i64,
// CHECK-NOT: npu.params_in_l2
// CHECK-SAME: npu.tiles = array<i64: 4, 32, 784>}
// CHECK: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 20224 : i64,
// CHECK-NOT: npu.params_in_l2
// CHECK-SAME: npu.tiles = array<i64: 4, 32, 256>}

// SMALL: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 12800 : i64, {{.*}}npu.params_in_l2, {{.*}}npu.tiles = array<i64: 4, 32, 160>}

// PINL1: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 57984 : i64,
// PINL1-NOT: npu.params_in_l2
// PINL1-SAME: npu.tiles = array<i64: 4, 64, 400>}

// PINL2: "npu.matmul_kernel"(
// PINL2: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 38912 : i64, {{.*}}npu.params_in_l2, {{.*}}npu.tiles = array<i64: 4, 128, 128>}

// NOROOM: error: 'npu.matmul_kernel' op --tile layer1.matmul=4x128x400,params=L1 [4, 128, 400] need 111744 bytes of L1 (double-buffered), the budget is 111616
// PLAIN: error: 'linalg.matmul' op --tile layer1.matmul=4x128x400,params=L2: params= applies to a fused dense layer (a matmul with its epilogue), not to a plain matmul
// BAD: error: --tile layer1.matmul=4x128x400,params=L3: 'params=L3' is not params=L1 or params=L2

// MANIFEST: "layers": [
// MANIFEST: "region": "layer1.matmul",
// MANIFEST-NEXT: "tiles": "4x32x784"
// MANIFEST: "region": "layer2.matmul",
// MANIFEST-NEXT: "tiles": "4x32x256"
