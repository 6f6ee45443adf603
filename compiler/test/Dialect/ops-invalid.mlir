// Verifier errors of the npu ops.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics

func.func @dma_shape(%a: memref<16x64xi8>, %b: memref<64x16xi8>) {
  // expected-error @+1 {{'npu.dma_copy' op source 'memref<16x64xi8>' and target 'memref<64x16xi8>' must have the same shape and element type}}
  npu.dma_copy %a, %b : memref<16x64xi8>, memref<64x16xi8>
  return
}

// -----

func.func @dma_dynamic(%a: memref<?xi8>, %b: memref<4xi8>) {
  // expected-error @+1 {{must be statically shaped memref of any type values}}
  npu.dma_copy %a, %b : memref<?xi8>, memref<4xi8>
  return
}

// -----

func.func @sa_shapes(%a: memref<16x64xi8>, %b: memref<32x16xi8>, %c: memref<16x16xi32>) {
  // expected-error @+1 {{'npu.sa_matmul' op shapes 'memref<16x64xi8>' x 'memref<32x16xi8>' -> 'memref<16x16xi32>' do not form M x K, K x N -> M x N}}
  npu.sa_matmul %a, %b, %c : memref<16x64xi8>, memref<32x16xi8>, memref<16x16xi32>
  return
}

// -----

func.func @sa_types(%a: memref<4x4xi8>, %b: memref<4x4xi8>, %c: memref<4x4xi8>) {
  // expected-error @+1 {{'npu.sa_matmul' op element types 'i8' x 'i8' -> 'i8' are not supported by the SA}}
  npu.sa_matmul %a, %b, %c : memref<4x4xi8>, memref<4x4xi8>, memref<4x4xi8>
  return
}

// -----

func.func @sa_rank(%a: memref<4xi8>, %b: memref<4x4xi8>, %c: memref<4x4xi32>) {
  // expected-error @+1 {{'npu.sa_matmul' op operands must be 2-D}}
  npu.sa_matmul %a, %b, %c : memref<4xi8>, memref<4x4xi8>, memref<4x4xi32>
  return
}
