// npu-schedule stores constant weights in L3 in column panels of the tiles'
// width, read by npurt_matmul_panels (npurt.h): panel j holds columns
// [16j, 16j + w) as K rows of w elements, the panels one after another, so
// that a panel staged into L2 is one contiguous block. Weights in L2, and
// weights something else reads too, keep their row-major order.
// RUN: npuc-opt %s -npu-attach-target -npu-tile -npu-schedule -canonicalize -cse | FileCheck %s

module attributes {npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}} {
  memref.global "public" @a : memref<1x2xi8> {npu.placement = #npu.placement<L2, address = 0x1C170000, size = 2>}
  // w[r][c] = 40 r + c: the packed order is 0..15 40..55 | 16..31 56..71 | 32..39 72..79.
  memref.global "public" constant @w : memref<2x40xi8> = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39], [40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]]> {npu.placement = #npu.placement<L3, address = 0x80000000, size = 80>, npu.section = ".npu.plan.w"}
  // The same values in L2: left row-major.
  memref.global "public" constant @w2 : memref<2x40xi8> = dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39], [40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79]]> {npu.placement = #npu.placement<L2, address = 0x1C171000, size = 80>, npu.section = ".npu.plan.w2"}
  // In L3 but read by two matmuls: left row-major.
  memref.global "public" constant @shared : memref<2x40xi8> = dense<3> {npu.placement = #npu.placement<L3, address = 0x80001000, size = 80>, npu.section = ".npu.plan.shared"}
  memref.global "public" @c1 : memref<1x40xi32> {npu.placement = #npu.placement<L2, address = 0x1C172000, size = 160>}
  memref.global "public" @c2 : memref<1x40xi32> {npu.placement = #npu.placement<L2, address = 0x1C173000, size = 160>}
  memref.global "public" @c3 : memref<1x40xi32> {npu.placement = #npu.placement<L2, address = 0x1C174000, size = 160>}
  memref.global "public" @c4 : memref<1x40xi32> {npu.placement = #npu.placement<L2, address = 0x1C175000, size = 160>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<1x2xi8>
    %w = memref.get_global @w : memref<2x40xi8>
    %w2 = memref.get_global @w2 : memref<2x40xi8>
    %s1 = memref.get_global @shared : memref<2x40xi8>
    %s2 = memref.get_global @shared : memref<2x40xi8>
    %c1 = memref.get_global @c1 : memref<1x40xi32>
    %c2 = memref.get_global @c2 : memref<1x40xi32>
    %c3 = memref.get_global @c3 : memref<1x40xi32>
    %c4 = memref.get_global @c4 : memref<1x40xi32>
    linalg.matmul {npu.tiles = array<i64: 1, 16, 2>} ins(%a, %w : memref<1x2xi8>, memref<2x40xi8>) outs(%c1 : memref<1x40xi32>)
    linalg.matmul {npu.tiles = array<i64: 1, 16, 2>} ins(%a, %w2 : memref<1x2xi8>, memref<2x40xi8>) outs(%c2 : memref<1x40xi32>)
    linalg.matmul {npu.tiles = array<i64: 1, 16, 2>} ins(%a, %s1 : memref<1x2xi8>, memref<2x40xi8>) outs(%c3 : memref<1x40xi32>)
    linalg.matmul {npu.tiles = array<i64: 1, 16, 2>} ins(%a, %s2 : memref<1x2xi8>, memref<2x40xi8>) outs(%c4 : memref<1x40xi32>)
    return
  }
}

// CHECK: memref.global "public" constant @w : memref<2x40xi8> = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 16, 17, 18, 19, 20, 21, 22, 23], [24, 25, 26, 27, 28, 29, 30, 31, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 32, 33, 34, 35, 36, 37, 38, 39, 72, 73, 74, 75, 76, 77, 78, 79]]> {npu.b_panels = 16 : i64,
// CHECK: memref.global "public" constant @w2 : memref<2x40xi8> = dense<{{\[}}[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39], [40,
// CHECK-NOT: npu.b_panels
// CHECK: memref.global "public" constant @shared : memref<2x40xi8> = dense<3> {npu.placement
// Flags: 2 (accumulate: no zero fill here) | 4 (B in L3).
// CHECK-LABEL: func.func @npu_network_run()
// CHECK: call @npurt_matmul_panels(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32, %c40_i32, %c2_i32, %c1_i32, %c16_i32, %c2_i32, %c6_i32,
// CHECK: call @npurt_matmul(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32, %c40_i32, %c2_i32, %c1_i32, %c16_i32, %c2_i32, %c2_i32,
// CHECK: call @npurt_matmul(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32, %c40_i32, %c2_i32, %c1_i32, %c16_i32, %c2_i32, %c6_i32,
// CHECK: call @npurt_matmul(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32, %c40_i32, %c2_i32, %c1_i32, %c16_i32, %c2_i32, %c6_i32,
