// -npu-check-no-alloc: after bufferization every buffer must be planned; a
// memref.alloc is an error at its location. IR without one passes unchanged.
// RUN: not npuc-opt %s -npu-check-no-alloc 2>&1 | FileCheck %s
// RUN: npuc-opt %S/strip-attributes.mlir -npu-check-no-alloc | FileCheck %s --check-prefix=OK

// OK: memref.global "public" @g
func.func @alloc() -> memref<4xi8> {
  // CHECK: check-no-alloc.mlir:[[# @LINE + 1]]:8: error: bufferization needed a buffer the memory plan does not hold
  %a = memref.alloc() : memref<4xi8>
  return %a : memref<4xi8>
}
