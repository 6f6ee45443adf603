// npu-tile + npu-schedule on bufferized IR whose buffers are planned
// globals: the matmul becomes one npurt_matmul call with the tiles that fit
// the L1 budget and align with the SA (16x16 on gap9), the zero fill folds
// into the first SA job, a weight in L3 gets a planned L2 stage buffer below the plan, the
// bias add runs on the workers, and each step is a marked region.
// RUN: npuc-opt %s -npu-attach-target -npu-tile -npu-schedule -canonicalize -cse | FileCheck %s
// RUN: npuc-opt %s -npu-attach-target -npu-tile -npu-schedule | FileCheck %s --check-prefix=DECL
// A smaller L1 gives smaller tiles (budget = L1 - 9 stacks of 2 KiB - 1 KiB):
// RUN: npuc-opt %s '-npu-attach-target=set=l1.size=32KiB' -npu-tile -npu-schedule -canonicalize -cse | FileCheck %s --check-prefix=SMALL
// RUN: npuc-opt %s -npu-attach-target -npu-tile '-npu-schedule=inject-fault=l3-as-l2' -canonicalize -cse | FileCheck %s --check-prefix=DIRECT
// RUN: npuc-opt %s -npu-attach-target -npu-tile '-npu-schedule=inject-fault=unchecked-l1-alloc' -canonicalize -cse | FileCheck %s --check-prefix=UNCHECKED

#row = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
module attributes {npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}} {
  memref.global "public" @a : memref<4x784xi8> {npu.placement = #npu.placement<L2, address = 0x1C170000, size = 3136>}
  memref.global "public" constant @w : memref<784x256xi8> = dense<1> {npu.placement = #npu.placement<L3, address = 0x80000000, size = 200704>, npu.section = ".npu.plan.w"}
  memref.global "public" constant @bias : memref<256xi32> = dense<2> {npu.placement = #npu.placement<L2, address = 0x1C171000, size = 1024>, npu.section = ".npu.plan.bias"}
  memref.global "public" @acc : memref<4x256xi32> {npu.placement = #npu.placement<L2, address = 0x1C172000, size = 4096>}
  memref.global "public" @out : memref<4x256xi32> {npu.placement = #npu.placement<L2, address = 0x1C174000, size = 4096>}
  func.func @npu_network_run() {
    %c0 = arith.constant 0 : i32
    %a = memref.get_global @a : memref<4x784xi8>
    %w = memref.get_global @w : memref<784x256xi8>
    %bias = memref.get_global @bias : memref<256xi32>
    %acc = memref.get_global @acc : memref<4x256xi32>
    %out = memref.get_global @out : memref<4x256xi32>
    linalg.fill ins(%c0 : i32) outs(%acc : memref<4x256xi32>)
    linalg.matmul ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%acc : memref<4x256xi32>)
    linalg.generic {indexing_maps = [#row, #bias, #row], iterator_types = ["parallel", "parallel"]}
        ins(%acc, %bias : memref<4x256xi32>, memref<256xi32>) outs(%out : memref<4x256xi32>) {
      ^bb0(%x: i32, %b: i32, %o: i32):
        %s = arith.addi %x, %b : i32
        %r = arith.maxsi %s, %c0 : i32
        linalg.yield %r : i32
    }
    return
  }
}

// CHECK-LABEL: func.func @npu_network_run()
// CHECK: %[[FN:.*]] = constant @npu_worker_0 : () -> ()
// CHECK-NOT: linalg.fill
// CHECK: call @npurt_region_begin
// flags 4 = B in L3 (no accumulate: the zero fill was folded), its constant
// weights stored in column panels (npurt_matmul_panels; Schedule/weight-panels.mlir).
// CHECK: %[[STAGE:.*]] = memref.get_global @npu_l2_stage : memref<{{[0-9]+}}xi8>
// CHECK: call @npurt_matmul_panels(%{{.*}}, %{{.*}}, %{{.*}}, %c4_i32, %c256_i32, %c784_i32, %{{.*}}, %{{.*}}, %{{.*}}, %c4_i32{{.*}}) {npu.l1_budget = 111616 : i64, npu.l1_bytes = {{[0-9]+}} : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 80, 208>}
// CHECK: call @npurt_region_end
// The bias add splits its largest loop (d1, 256) across the workers.
// CHECK: call @npurt_parallel(%[[FN]]) {npu.split_dim = 1 : i64}
// CHECK-NOT: linalg.
// CHECK: return
// Two K x tn panels, right below the lowest planned L2 buffer (0x1C170000).
// CHECK: memref.global "public" @npu_l2_stage : memref<{{[0-9]+}}xi8> {npu.placement = #npu.placement<L2, address = 0x1C1
// CHECK-LABEL: func.func private @npu_worker_0()
// CHECK: call @npurt_worker_id() : () -> i32
// CHECK: call @npurt_num_workers() : () -> i32
// CHECK: memref.subview %{{.*}}[0, %{{.*}}] [4, %{{.*}}] [1, 1] : memref<4x256xi32> to memref<4x?xi32, strided<[256, 1], offset: ?>>
// CHECK: memref.subview %{{.*}}[%{{.*}}] [%{{.*}}] [1] : memref<256xi32> to memref<?xi32, strided<[1], offset: ?>>
// CHECK: linalg.generic
// DECL-DAG: func.func private @npurt_matmul_panels(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
// DECL-DAG: func.func private @npurt_parallel(() -> ())
// DECL-DAG: func.func private @npurt_region_begin(i32)

// SMALL: npu.l1_budget = 13312 : i64, npu.l1_bytes = 13184 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 48, 112>}

// 8 = B in L3 read straight into L1 (no staging, no stage buffer), row-major.
// DIRECT-NOT: npu_l2_stage
// DIRECT: call @npurt_matmul(%{{.*}}, %{{.*}}, %{{.*}}, %c4_i32, %c256_i32, %c784_i32, %{{.*}}, %{{.*}}, %{{.*}}, %c8_i32,

// 16 | 4 = 20: unchecked L1 allocation of more than L1 (128 KiB + 4 KiB).
// UNCHECKED: call @npurt_matmul_panels({{.*}}, %c20_i32, %c135168_i32, %{{.*}})
