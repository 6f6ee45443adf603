// The schedule-stage ops parse, verify and print back unchanged.
// RUN: npuc-opt %s | npuc-opt | FileCheck %s

// CHECK-LABEL: func.func @tile_step
func.func @tile_step(%w_l2: memref<64x16xi8>, %a_l1: memref<16x64xi8>,
                     %w_l1: memref<64x16xi8>, %c_l1: memref<16x16xi32>,
                     %big: memref<64x64xi8>) {
  // CHECK: npu.dma_copy %{{.*}}, %{{.*}} : memref<64x16xi8>, memref<64x16xi8>
  npu.dma_copy %w_l2, %w_l1 : memref<64x16xi8>, memref<64x16xi8>
  // A strided tile of a larger buffer is a valid DMA source.
  %tile = memref.subview %big[0, 0] [16, 64] [1, 1] : memref<64x64xi8> to memref<16x64xi8, strided<[64, 1]>>
  // CHECK: npu.dma_copy %{{.*}}, %{{.*}} : memref<16x64xi8, strided<[64, 1]>>, memref<16x64xi8>
  npu.dma_copy %tile, %a_l1 : memref<16x64xi8, strided<[64, 1]>>, memref<16x64xi8>
  // CHECK: npu.sa_matmul %{{.*}}, %{{.*}}, %{{.*}} : memref<16x64xi8>, memref<64x16xi8>, memref<16x16xi32>
  npu.sa_matmul %a_l1, %w_l1, %c_l1 : memref<16x64xi8>, memref<64x16xi8>, memref<16x16xi32>
  return
}

// CHECK-LABEL: func.func @fp32
func.func @fp32(%a: memref<4x8xf32>, %b: memref<8x2xf32>, %c: memref<4x2xf32>) {
  // CHECK: npu.sa_matmul
  npu.sa_matmul %a, %b, %c : memref<4x8xf32>, memref<8x2xf32>, memref<4x2xf32>
  return
}
