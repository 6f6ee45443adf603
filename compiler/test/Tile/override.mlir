// npu.tiles on a matmul in the input is kept when the SA and L1 can take it
// (for exploring tile choices), and refused at the op when they cannot.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics -npu-attach-target -npu-tile | FileCheck %s

// CHECK-LABEL: func.func @kept
// CHECK: linalg.matmul {npu.l1_budget = 111616 : i64, npu.l1_bytes = 108032 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 256, 192>}
func.func @kept(%a: memref<4x784xi8>, %w: memref<784x256xi8>, %c: memref<4x256xi32>) {
  linalg.matmul {npu.tiles = array<i64: 4, 256, 192>} ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%c : memref<4x256xi32>)
  return
}

// -----

func.func @too_big(%a: memref<4x784xi8>, %w: memref<784x256xi8>, %c: memref<4x256xi32>) {
  // expected-error@+1 {{npu.tiles [4, 256, 208] need 116352 bytes of L1 (double-buffered), the budget is 111616}}
  linalg.matmul {npu.tiles = array<i64: 4, 256, 208>} ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%c : memref<4x256xi32>)
  return
}

// -----

func.func @misaligned(%a: memref<4x784xi8>, %w: memref<784x256xi8>, %c: memref<4x256xi32>) {
  // expected-error@+1 {{npu.tiles: tn must be a multiple of the SA's 16 columns (or N), tk of its 16 rows (or K)}}
  linalg.matmul {npu.tiles = array<i64: 4, 100, 784>} ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%c : memref<4x256xi32>)
  return
}

// -----

func.func @out_of_range(%a: memref<4x784xi8>, %w: memref<784x256xi8>, %c: memref<4x256xi32>) {
  // expected-error@+1 {{npu.tiles must be [tm, tn, tk] with 1 <= tm <= 4, 1 <= tn <= 256, 1 <= tk <= 784}}
  linalg.matmul {npu.tiles = array<i64: 8, 16, 16>} ins(%a, %w : memref<4x784xi8>, memref<784x256xi8>) outs(%c : memref<4x256xi32>)
  return
}
