// The workers split a parallel loop, never a reduction: npu-tile never picks
// one, and a split written by hand on a reduction loop is refused.
// RUN: npuc-opt %s -verify-diagnostics -npu-attach-target -npu-schedule

#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  memref.global "public" @x : memref<4x16xf32> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 256>}
  memref.global "public" @y : memref<4xf32> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 16>}
  func.func @npu_network_run() {
    %x = memref.get_global @x : memref<4x16xf32>
    %y = memref.get_global @y : memref<4xf32>
    // expected-error@+1 {{npu.split_dim 1 is a reduction loop: the workers split a parallel one}}
    linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x16xf32>) outs(%y : memref<4xf32>) attrs = {npu.split_dim = 1 : i64} {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
    }
    return
  }
}
