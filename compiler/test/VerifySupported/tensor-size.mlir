// Tensors the device cannot hold are refused at their line: more bytes than
// the 32-bit address space (the byte count wrapped: a
// tensor<4294967296x4294967296xf32> was planned and written to the manifest
// as 0 bytes, npuc exited 0), or no elements at all (every buffer planned at
// one address, then a misleading link error).
// RUN: split-file %s %t
// RUN: not npuc %t/wrap.mlir -o %t/o1 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: not npuc %t/big.mlir -o %t/o2 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not npuc %t/zero.mlir -o %t/o3 2>&1 | FileCheck %s --check-prefix=ZERO

// WRAP: wrap.mlir:1:1: error: tensor type 'tensor<4294967296x4294967296xf32>' needs more than 2^64 bytes, more than the device's 32-bit address space holds (at most 4 GiB)
// BIG: big.mlir:1:1: error: tensor type 'tensor<2x1073741824xi32>' needs 8589934592 bytes, more than the device's 32-bit address space holds
// ZERO: zero.mlir:1:1: error: tensor type 'tensor<0x4xf32>' has no elements; npuc needs non-empty tensors

//--- wrap.mlir
func.func @a(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}
//--- big.mlir
func.func @b(%x: tensor<2x1073741824xi32>) -> tensor<2x1073741824xi32> {
  return %x : tensor<2x1073741824xi32>
}
//--- zero.mlir
func.func @z(%a: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %e = tensor.empty() : tensor<0x4xf32>
  %r = linalg.add ins(%a, %a : tensor<0x4xf32>, tensor<0x4xf32>) outs(%e : tensor<0x4xf32>) -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}
