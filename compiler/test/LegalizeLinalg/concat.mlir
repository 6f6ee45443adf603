// A concatenation runs as copies into slices of its result: tensor.concat
// becomes tensor.insert_slice parts (upstream's decomposition), and every
// tensor.insert_slice a generic copying its source into the destination
// with the output map offset by the slice's position. The first part, at
// offset 0 and shorter than the axis, is written as "d mod size" (linalg
// wants a plain loop index to cover its dimension).
// RUN: npuc-opt %s -npu-legalize-linalg -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[FIRST:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 mod 11, d2)>
// CHECK-DAG: #[[SECOND:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 + 3, d2)>
// CHECK-DAG: #[[THIRD:.*]] = affine_map<(d0, d1, d2) -> (d0, d1 + 8, d2)>
// CHECK-LABEL: func.func @concat
// CHECK-NOT: tensor.concat
// CHECK-NOT: tensor.cast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x11x8xi8>
// CHECK: %[[P0:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[FIRST]]], {{.*}}} ins(%arg0 : tensor<4x3x8xi8>) outs(%[[E]] : tensor<4x11x8xi8>)
// CHECK: %[[P1:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[SECOND]]], {{.*}}} ins(%arg1 : tensor<4x5x8xi8>) outs(%[[P0]] : tensor<4x11x8xi8>)
// CHECK: %[[P2:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[THIRD]]], {{.*}}} ins(%arg0 : tensor<4x3x8xi8>) outs(%[[P1]] : tensor<4x11x8xi8>)
// CHECK: return %[[P2]]
func.func @concat(%a: tensor<4x3x8xi8>, %b: tensor<4x5x8xi8>) -> tensor<4x11x8xi8> {
  %c = tensor.concat dim(1) %a, %b, %a : (tensor<4x3x8xi8>, tensor<4x5x8xi8>, tensor<4x3x8xi8>) -> tensor<4x11x8xi8>
  return %c : tensor<4x11x8xi8>
}

// -----

// The ONNX importer's Concat: insert_slices into a tensor.empty.
// CHECK-DAG: #[[OFF:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3 + 4)>
// CHECK-LABEL: func.func @onnx_concat
// CHECK-NOT: tensor.insert_slice
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<1x5x5x3xf32>) outs(%{{.*}} : tensor<1x5x5x7xf32>)
func.func @onnx_concat(%a: tensor<1x5x5x4xf32>, %b: tensor<1x5x5x3xf32>) -> tensor<1x5x5x7xf32> {
  %e = tensor.empty() : tensor<1x5x5x7xf32>
  %0 = tensor.insert_slice %a into %e[0, 0, 0, 0] [1, 5, 5, 4] [1, 1, 1, 1] : tensor<1x5x5x4xf32> into tensor<1x5x5x7xf32>
  %1 = tensor.insert_slice %b into %0[0, 0, 0, 4] [1, 5, 5, 3] [1, 1, 1, 1] : tensor<1x5x5x3xf32> into tensor<1x5x5x7xf32>
  return %1 : tensor<1x5x5x7xf32>
}

// -----

// Into a constant: the plan gives the result a buffer of its own, so the
// constant is copied into it first, then the slice.
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW1:.*]] = affine_map<(d0, d1) -> (d0 + 1, d1)>
// CHECK-LABEL: func.func @into_constant
// CHECK: %[[K:.*]] = arith.constant
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[C:.*]] = linalg.generic {indexing_maps = [#[[ID2]], #[[ID2]]], {{.*}}} ins(%[[K]] : tensor<4x3xf32>) outs(%[[E]] : tensor<4x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[ROW1]]], {{.*}}} ins(%arg0 : tensor<2x3xf32>) outs(%[[C]] : tensor<4x3xf32>)
func.func @into_constant(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %k = arith.constant dense<1.0> : tensor<4x3xf32>
  %0 = tensor.insert_slice %a into %k[1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @strided(%a: tensor<2x4xf32>, %d: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op is supported with constant offsets and unit strides}}
  %0 = tensor.insert_slice %a into %d[0, 0] [2, 4] [2, 1] : tensor<2x4xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @rank_reducing(%a: tensor<4xf32>, %d: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'tensor.insert_slice' op is supported with static shapes and a source of the destination's rank (a concatenation's part)}}
  %0 = tensor.insert_slice %a into %d[1, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
