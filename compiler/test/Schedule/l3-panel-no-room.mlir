// A weight in L3 whose staging panels fit nowhere: npu-tile takes the
// cheapest tile anyway (no tile's two K x tn panels fit the 4 KiB, half of
// the 8 KiB of L2 below the plan), and npu-schedule's planStage names the
// matmul whose panels do not fit, their size and the ways out, instead of
// placing them over the firmware image.
// RUN: not npuc-opt %s -npu-attach-target -npu-tile -npu-schedule 2>&1 | FileCheck %s
// CHECK: :[[@LINE+10]]:5: error: 'linalg.matmul' op the L2 staging buffer for L3 weights (1404928 bytes: two 784 x 224 f32 panels of B, tiles 4x224x48) does not fit in the 8192 bytes of L2 below the memory plan: pin a narrower tn (npuc --tile <region>=<tm>x<tn>x<tk>), place the weights in L2, or raise l2.size

module attributes {npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}} {
  memref.global "public" @a : memref<4x784xf32> {npu.placement = #npu.placement<L2, address = 0x1C002000, size = 12544>}
  memref.global "public" @c : memref<4x256xf32> {npu.placement = #npu.placement<L2, address = 0x1C006000, size = 4096>}
  memref.global "public" @w : memref<784x256xf32> {npu.placement = #npu.placement<L3, address = 0x80000000, size = 802816>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<4x784xf32>
    %c = memref.get_global @c : memref<4x256xf32>
    %w = memref.get_global @w : memref<784x256xf32>
    linalg.matmul ins(%a, %w : memref<4x784xf32>, memref<784x256xf32>) outs(%c : memref<4x256xf32>)
    return
  }
}
