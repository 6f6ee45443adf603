// npu-tile: SA tiles from the L1 budget and the SA shape, the worker split.
// gap9: L1 128 KiB, 9 stacks of 2 KiB, l1-reserve 1 KiB -> budget 111616 B; SA 16x16.
// RUN: npuc-opt %s -npu-attach-target -npu-tile | FileCheck %s
// 64 KiB of L1 -> budget 46080 B: smaller tiles.
// RUN: npuc-opt %s '-npu-attach-target=set=l1.size=64KiB' -npu-tile | FileCheck %s --check-prefix=L64
// A 32x8 array changes the alignment of tn and tk.
// RUN: npuc-opt %s '-npu-attach-target=set=sa.rows=32,sa.cols=8' -npu-tile | FileCheck %s --check-prefix=SA
// RUN: not npuc-opt %s '-npu-attach-target=set=l1.size=16KiB' -npu-tile 2>&1 | FileCheck %s --check-prefix=NOL1
// RUN: not npuc-opt %s '-npu-attach-target=set=l1.size=32KiB,firmware.stack_size=3520' -npu-tile 2>&1 | FileCheck %s --check-prefix=TINY

#row = affine_map<(d0, d1) -> (d0, d1)>
func.func @tiles(%a: memref<4x784xi8>, %w: memref<784x256xi8>, %acc: memref<4x256xi32>,
                 %fa: memref<64x100xf32>, %fw: memref<100x10xf32>, %facc: memref<64x10xf32>,
                 %o: memref<4x256xi32>) {
  // CHECK: linalg.matmul {npu.l1_budget = 111616 : i64, npu.l1_bytes = 56448 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 64, 400>}
  // L64: linalg.matmul {npu.l1_budget = 46080 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, {{[0-9]+}}, {{[0-9]+}}>}
  // SA: npu.sa = array<i64: 32, 8>, npu.tiles = array<i64: 4, {{[0-9]*[02468]}}, {{[0-9]+}}>}
  linalg.matmul ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%acc : memref<4x256xi32>)
  // f32, N = 10 below the SA's 16 columns: tn = N; the whole problem fits.
  // CHECK: linalg.matmul {npu.l1_budget = 111616 : i64, npu.l1_bytes = 64320 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 64, 10, 100>}
  linalg.matmul ins(%fa, %fw : memref<64x100xf32>, memref<100x10xf32>) outs(%facc : memref<64x10xf32>)
  // The workers split the largest loop (d1: 256 > 4).
  // CHECK: linalg.generic {{.*}} attrs =  {npu.split_dim = 1 : i64}
  linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<4x256xi32>) outs(%o : memref<4x256xi32>) {
    ^bb0(%x: i32, %y: i32):
      linalg.yield %x : i32
  }
  return
}

// NOL1: L1 (16384 bytes) holds no tile buffers after the hart stacks (18432 bytes) and l1-reserve (1024 bytes)
// TINY: error: 'linalg.matmul' op the L1 budget of 64 bytes cannot hold the smallest double-buffered tile
