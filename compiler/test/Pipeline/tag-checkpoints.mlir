// -npu-tag-checkpoints: a linalg result another op reads (not only as the
// init it accumulates into) and that is not returned is a checkpoint,
// numbered in order; fills, results only accumulated into and outputs are not.
// -npu-return-checkpoints (the golden reference) returns them after the outputs.
// RUN: npuc-opt %s -npu-tag-checkpoints | FileCheck %s
// RUN: npuc-opt %s -npu-tag-checkpoints -npu-return-checkpoints | FileCheck %s --check-prefix=RET
// RUN: npuc-opt %s -npu-return-checkpoints | FileCheck %s --check-prefix=UNTAGGED

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @net
// RET-LABEL: func.func @net(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
// UNTAGGED-LABEL: func.func @net(%{{.*}}: tensor<4x8xf32>, %{{.*}}: tensor<8x8xf32>) -> tensor<4x8xf32>
func.func @net(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  // CHECK: linalg.fill ins
  // CHECK-NOT: npu.checkpoint
  // CHECK-SAME: -> tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.matmul {npu.checkpoint = 0 : i64}
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  // Read only as the buffer the next matmul accumulates into: no checkpoint.
  // CHECK: linalg.matmul ins
  // CHECK-NOT: npu.checkpoint
  // CHECK-SAME: -> tensor<4x8xf32>
  %acc = linalg.matmul ins(%m, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.matmul {npu.checkpoint = 1 : i64}
  %acc2 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<4x8xf32>) -> tensor<4x8xf32>
  // CHECK: linalg.generic {{.*}}npu.checkpoint = 2 : i64
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%acc2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.maximumf %a, %zero : f32
      linalg.yield %y : f32
  } -> tensor<4x8xf32>
  // The output: no checkpoint.
  // CHECK: linalg.generic
  // CHECK-NOT: npu.checkpoint
  // CHECK: return
  %out = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %y = arith.addf %a, %a : f32
      linalg.yield %y : f32
  } -> tensor<4x8xf32>
  // RET: %[[M:.*]] = linalg.matmul {npu.checkpoint = 0 : i64}
  // RET: %[[A:.*]] = linalg.matmul {npu.checkpoint = 1 : i64}
  // RET: %[[R:.*]] = linalg.generic {{.*}}npu.checkpoint = 2 : i64
  // RET: %[[OUT:.*]] = linalg.generic
  // RET: return %[[OUT]], %[[M]], %[[A]], %[[R]] : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}
