// The loop the workers split (npu.split_dim): the largest parallel loop that
// every operand indexes plainly or not at all, and every output indexes;
// -1 when none does (worker 0 runs the op alone).
// RUN: npuc-opt %s -npu-attach-target -npu-tile | FileCheck %s

#pool_in = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
#pool_win = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#pool_out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
#in2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#none = affine_map<(d0, d1) -> ()>
func.func @splits(%x: memref<1x9x9x8xf32>, %w: memref<3x3xf32>, %p: memref<1x4x4x8xf32>,
                  %m: memref<6x16xf32>, %r: memref<6xf32>, %s: memref<f32>) {
  // Max pooling: rows and columns sit inside window expressions, so the
  // channels (loop 3).
  // CHECK: linalg.generic {{.*}}npu.split_dim = 3 : i64
  linalg.generic {indexing_maps = [#pool_in, #pool_win, #pool_out],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x9x9x8xf32>, memref<3x3xf32>) outs(%p : memref<1x4x4x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %y = arith.maximumf %o, %a : f32
      linalg.yield %y : f32
  }
  // A row sum: the rows, never the reduced loop.
  // CHECK: linalg.generic {{.*}}npu.split_dim = 0 : i64
  linalg.generic {indexing_maps = [#in2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<6x16xf32>) outs(%r : memref<6xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.addf %a, %o : f32
      linalg.yield %y : f32
  }
  // Everything into one value: no loop to split.
  // CHECK: linalg.generic {{.*}}npu.split_dim = -1 : i64
  linalg.generic {indexing_maps = [#in2, #none], iterator_types = ["reduction", "reduction"]}
      ins(%m : memref<6x16xf32>) outs(%s : memref<f32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.addf %a, %o : f32
      linalg.yield %y : f32
  }
  return
}
