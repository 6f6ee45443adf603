// Option values are checked; a bad one is an error, not a default.
// RUN: not npuc-opt %s -npu-attach-target '-npu-memory-plan=default-mem-level=L1' 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not npuc-opt %s -npu-attach-target '-npu-memory-plan=alignment=48' 2>&1 | FileCheck %s --check-prefix=ALIGN

// LEVEL: error: default-mem-level must be L2 or L3, got 'L1'
// ALIGN: error: alignment must be a power of two, got 48
func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  return %x : tensor<4xi8>
}
