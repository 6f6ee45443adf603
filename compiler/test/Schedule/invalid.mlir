// What npu-schedule refuses, each at the op's location.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics -npu-attach-target -npu-tile -npu-schedule
// RUN: not npuc-opt %s -split-input-file -npu-attach-target '-npu-schedule=inject-fault=typo' 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: npu-schedule: unknown inject-fault 'typo' (l3-as-l2, unchecked-l1-alloc, data-input-count)

// The SA reads A and writes C in L2: an activation in L3 is refused.
module {
  memref.global "public" @a : memref<4x16xi8> {npu.placement = #npu.placement<L3, address = 0x80000000, size = 64>}
  memref.global "public" @b : memref<16x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 256>}
  memref.global "public" @c : memref<4x16xi32> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 256>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<4x16xi8>
    %b = memref.get_global @b : memref<16x16xi8>
    %c = memref.get_global @c : memref<4x16xi32>
    // expected-error@+1 {{the SA schedule reads A and writes C in L2; only B (the weights) may be in L3}}
    linalg.matmul ins(%a, %b : memref<4x16xi8>, memref<16x16xi8>) outs(%c : memref<4x16xi32>)
    return
  }
}

// -----

// Mixed element types are not an SA job.
module {
  memref.global "public" @a : memref<4x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C100000, size = 64>}
  memref.global "public" @b : memref<16x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C100100, size = 256>}
  memref.global "public" @c : memref<4x16xf32> {npu.placement = #npu.placement<L2, address = 0x1C100200, size = 256>}
  func.func @npu_network_run() {
    %a = memref.get_global @a : memref<4x16xi8>
    %b = memref.get_global @b : memref<16x16xi8>
    %c = memref.get_global @c : memref<4x16xf32>
    // expected-error@+1 {{the SA computes i8 x i8 -> i32 or f32 x f32 -> f32, not 'i8' x 'i8' -> 'f32'}}
    linalg.matmul ins(%a, %b : memref<4x16xi8>, memref<16x16xi8>) outs(%c : memref<4x16xf32>)
    return
  }
}

// -----

// A buffer the plan does not know (an allocation) is not scheduled.
func.func @npu_network_run(%a: memref<4x16xi8>) {
  %b = memref.alloc() : memref<16x16xi8>
  %c = memref.alloc() : memref<4x16xi32>
  // expected-error@+1 {{operand is not a planned buffer (run -npu-materialize-plan before bufferization)}}
  linalg.matmul ins(%a, %b : memref<4x16xi8>, memref<16x16xi8>) outs(%c : memref<4x16xi32>)
  return
}

// -----

// An elementwise op whose operand is neither a plan buffer nor a constant
// cannot be outlined onto the workers.
#id = affine_map<(d0) -> (d0)>
func.func @npu_network_run(%x: memref<16xi32>) {
  %y = memref.alloc() : memref<16xi32>
  // expected-error@+1 {{an operand or captured value is not a constant or a buffer of the memory plan}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xi32>) outs(%y : memref<16xi32>) {
    ^bb0(%a: i32, %b: i32):
      linalg.yield %a : i32
  }
  return
}

// -----

// An op with no entry in the op registry (OpRegistry.cpp) has no lowering.
func.func @npu_network_run(%x: memref<4x8xi32>, %v: memref<8xi32>, %y: memref<4xi32>) {
  // expected-error@+1 {{'linalg.matvec' op has no lowering in npu-schedule (npuc compiles: func.func, func.return, linalg.matmul, linalg.conv_2d_nhwc_hwcf, linalg.depthwise_conv_2d_nhwc_hwc, linalg.pooling_nhwc_sum, tensor.pad (zero, into a convolution), tensor.collapse_shape, tensor.expand_shape, linalg.fill, linalg.generic (elementwise or reducing, arith/math body), linalg.matmul_transpose_a/_b, batch_matmul, conv_2d_nchw_fchw, softmax, transpose, broadcast, reduce, map, the named elementwise ops, pooling_nhwc_max/min (via npu-legalize-linalg), tensor.concat, tensor.insert_slice (via npu-legalize-linalg), tensor.empty, arith.constant)}}
  linalg.matvec ins(%x, %v : memref<4x8xi32>, memref<8xi32>) outs(%y : memref<4xi32>)
  return
}
