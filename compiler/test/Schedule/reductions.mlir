// Reductions run on the workers: each takes a slice of a parallel loop and
// runs its rows' reductions whole; with no parallel loop, worker 0 runs the
// op alone.
// RUN: npuc-opt %s -split-input-file -npu-attach-target -npu-tile -npu-schedule | FileCheck %s

#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
module {
  memref.global "public" @x : memref<4x16xf32> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 256>}
  memref.global "public" @y : memref<4xf32> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 16>}
  func.func @npu_network_run() {
    %x = memref.get_global @x : memref<4x16xf32>
    %y = memref.get_global @y : memref<4xf32>
    linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]}
        ins(%x : memref<4x16xf32>) outs(%y : memref<4xf32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
    }
    return
  }
}
// The row sum: the slice is of the rows (loop 0), input and output alike.
// CHECK-LABEL: func.func private @npu_worker_0()
// CHECK: memref.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 16] [1, 1] : memref<4x16xf32> to memref<?x16xf32
// CHECK: memref.subview %{{.*}}[%{{.*}}] [%{{.*}}] [1] : memref<4xf32> to memref<?xf32
// CHECK: iterator_types = ["parallel", "reduction"]

// -----

#all = affine_map<(d0, d1) -> (d0, d1)>
#none = affine_map<(d0, d1) -> ()>
module {
  memref.global "public" @x : memref<4x16xf32> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 256>}
  memref.global "public" @y : memref<f32> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 4>}
  func.func @npu_network_run() {
    %x = memref.get_global @x : memref<4x16xf32>
    %y = memref.get_global @y : memref<f32>
    linalg.generic {indexing_maps = [#all, #none], iterator_types = ["reduction", "reduction"]}
        ins(%x : memref<4x16xf32>) outs(%y : memref<f32>) {
      ^bb0(%a: f32, %acc: f32):
        %s = arith.addf %a, %acc : f32
        linalg.yield %s : f32
    }
    return
  }
}
// Everything into one value: worker 0 alone, unsliced.
// CHECK-LABEL: func.func private @npu_worker_0()
// CHECK: %[[ID:.*]] = call @npurt_worker_id()
// CHECK: scf.if
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}} : memref<4x16xf32>) outs(%{{.*}} : memref<f32>)
