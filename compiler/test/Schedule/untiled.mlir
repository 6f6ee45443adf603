// npu-schedule executes the decisions of npu-tile; without them it stops at
// the op instead of guessing.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics -npu-attach-target -npu-schedule

module {
  memref.global "public" @a : memref<4x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 64>}
  memref.global "public" @b : memref<16x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 256>}
  memref.global "public" @c : memref<4x16xi32> {npu.placement = #npu.placement<L2, address = 0x1C100200, size = 256>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<4x16xi8>
    %b = memref.get_global @b : memref<16x16xi8>
    %c = memref.get_global @c : memref<4x16xi32>
    // expected-error@+1 {{has no tiles: run -npu-tile first}}
    linalg.matmul ins(%a, %b : memref<4x16xi8>, memref<16x16xi8>) outs(%c : memref<4x16xi32>)
    return
  }
}

// -----

#id = affine_map<(d0) -> (d0)>
module {
  memref.global "public" @x : memref<16xi32> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 64>}
  memref.global "public" @y : memref<16xi32> {npu.placement = #npu.placement<L2, address = 0x1C100040, size = 64>}
  func.func @npu_network_run() {
    %x = memref.get_global @x : memref<16xi32>
    %y = memref.get_global @y : memref<16xi32>
    // expected-error@+1 {{has no worker split: run -npu-tile first}}
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : memref<16xi32>) outs(%y : memref<16xi32>) {
      ^bb0(%a: i32, %b: i32):
        linalg.yield %a : i32
    }
    return
  }
}
