// npu-tile picks a matmul's tiles by its model of npurt_matmul's pipeline
// (Tile.cpp, matmulCost: the first step's loads, then per step the SA job or
// the next step's loads, whichever is longer, plus 400 cycles; the last C
// tile's write-back; a B in L3 staged panel by panel at 1.08 B/cycle and 50
// cycles per row, the next panel from the current one's first step on, plus
// the steps as if B were in L2), not by the largest tile volume. These
// plain f32 matmuls
// are the DMA's: A and B at 8 B/cycle take longer than the SA's jobs.
// gap9: L1 budget 111616 B, SA 16x16.
// RUN: npuc-opt %s -npu-attach-target -npu-tile | FileCheck %s
// In a 64 KiB L1 (budget 46080 B) all 256 columns leave tk = 16 (49
// steps): A still moves once, which 4x64x80 (40 steps) would move four times.
// RUN: npuc-opt %s '-npu-attach-target=set=l1.size=64KiB' -npu-tile | FileCheck %s --check-prefix=L64
// A 512 KiB L1 (budget 504832 B) would hold 4x256x224 (4 steps), but its
// first tiles alone take 29,120 cycles to load: 4x256x112 (7 steps).
// RUN: npuc-opt %s '-npu-attach-target=set=l1.size=512KiB' -npu-tile | FileCheck %s --check-prefix=L512

// L2 below the plan: 0x1C040000 - 0x1C000000 = 256 KiB; an L3 weight's two
// K x tn staging panels may take half of it.
module attributes {npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}} {
  memref.global "public" @a : memref<4x784xf32> {npu.placement = #npu.placement<L2, address = 0x1C040000, size = 12544>}
  memref.global "public" @c : memref<4x256xf32> {npu.placement = #npu.placement<L2, address = 0x1C044000, size = 4096>}
  memref.global "public" @w2 : memref<784x256xf32> {npu.placement = #npu.placement<L2, address = 0x1C046000, size = 802816>}
  memref.global "public" @w3 : memref<784x256xf32> {npu.placement = #npu.placement<L3, address = 0x80000000, size = 802816>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<4x784xf32>
    %c = memref.get_global @c : memref<4x256xf32>
    %w2 = memref.get_global @w2 : memref<784x256xf32>
    %w3 = memref.get_global @w3 : memref<784x256xf32>
    // B in L2: all 256 columns of C per tile (A moves once, not once per
    // column tile; 17 steps), tk = 48 the most that fits with them. The
    // largest volume would be 4x80x160 (4 column tiles, 20 steps): A four
    // times, and a first step of 53,760 bytes to load before the SA starts.
    // CHECK: linalg.matmul {npu.l1_budget = 111616 : i64, npu.l1_bytes = 108032 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 256, 48>}
    // L64: npu.tiles = array<i64: 4, 256, 16>}
    // L512: npu.tiles = array<i64: 4, 256, 112>}
    linalg.matmul ins(%a, %w2 : memref<4x784xf32>, memref<784x256xf32>) outs(%c : memref<4x256xf32>)
    // B in L3 (not constant: staged row by row): two 784 x tn f32 panels
    // within 128 KiB leave tn = 16 (100,352 bytes; 32 columns would need
    // 200,704). Staging its 16 panels (784 rows of 64 bytes, about 85,700
    // cycles each) takes longer than all the steps, whatever tk; what tk
    // moves is the pins' idle time at each panel's start (its first tile's
    // loads, before the next panel's staging begins: 10 cycles per row of
    // tk), the last panel's steps and, as the model adds them for an L3
    // faster than gap9's, all the steps: tk = 160.
    // CHECK: linalg.matmul {npu.l1_budget = 111616 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 16, 160>}
    linalg.matmul ins(%a, %w3 : memref<4x784xf32>, memref<784x256xf32>) outs(%c : memref<4x256xf32>)
    return
  }
}
