// Two activations whose lifetimes do not overlap share an address; one that
// is live at the same time gets its own bytes.
// RUN: npuc-opt %s -npu-attach-target -npu-memory-plan | FileCheck %s

// Peak: two 1 KiB buffers, not four.
// CHECK: npu.memory_usage = {l2 = 2048 : i64, l3 = 0 : i64}

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain
// CHECK-SAME: %arg0: tensor<256xi32> {npu.placement = #npu.placement<L2, address = [[IN:0x[0-9A-F]+]], size = 1024>}
func.func @chain(%x: tensor<256xi32>) -> tensor<256xi32> {
  %one = arith.constant 1 : i32
  // %a = x + 1: live while %b is computed.
  // CHECK: linalg.generic
  // CHECK-SAME: npu.placement = #npu.placement<L2, address = [[A:0x[0-9A-F]+]], size = 1024>
  %e0 = tensor.empty() : tensor<256xi32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<256xi32>) outs(%e0 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  // %b = a + 1: x is dead by now, so %b reuses the input's bytes.
  // CHECK: linalg.generic
  // CHECK-SAME: npu.placement = #npu.placement<L2, address = [[IN]], size = 1024>
  %e1 = tensor.empty() : tensor<256xi32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<256xi32>) outs(%e1 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  // %c = b + 1: %a is dead, so %c reuses %a's bytes.
  // CHECK: linalg.generic
  // CHECK-SAME: npu.placement = #npu.placement<L2, address = [[A]], size = 1024>
  %e2 = tensor.empty() : tensor<256xi32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<256xi32>) outs(%e2 : tensor<256xi32>) {
    ^bb0(%v: i32, %o: i32):
      %r = arith.addi %v, %one : i32
      linalg.yield %r : i32
  } -> tensor<256xi32>
  return %c : tensor<256xi32>
}
