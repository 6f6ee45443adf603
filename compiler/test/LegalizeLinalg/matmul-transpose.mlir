// A*B^T and A^T*B become a transpose + linalg.matmul (the SA's op); a
// constant operand is transposed at compile time.
// RUN: npuc-opt %s -npu-legalize-linalg | FileCheck %s

// CHECK-LABEL: func.func @transpose_b_constant
func.func @transpose_b_constant(%a: tensor<2x3xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
  // CHECK: linalg.matmul ins(%{{.*}}, %[[W]] : tensor<2x3xf32>, tensor<3x2xf32>)
  // CHECK-NOT: matmul_transpose
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = linalg.matmul_transpose_b ins(%a, %w : tensor<2x3xf32>, tensor<2x3xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// CHECK-LABEL: func.func @transpose_b_variable
func.func @transpose_b_variable(%a: tensor<2x3xi8>, %b: tensor<4x3xi8>, %c: tensor<2x4xi32>) -> tensor<2x4xi32> {
  // CHECK: %[[E:.*]] = tensor.empty() : tensor<3x4xi8>
  // CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<4x3xi8>) outs(%[[E]] : tensor<3x4xi8>)
  // CHECK: linalg.matmul ins(%arg0, %[[T]] : tensor<2x3xi8>, tensor<3x4xi8>) outs(%arg2 : tensor<2x4xi32>)
  %y = linalg.matmul_transpose_b ins(%a, %b : tensor<2x3xi8>, tensor<4x3xi8>) outs(%c : tensor<2x4xi32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @transpose_a
func.func @transpose_a(%a: tensor<3x2xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<3x2xf32>) outs(%{{.*}} : tensor<2x3xf32>)
  // CHECK: linalg.matmul ins(%[[T]], %arg1 : tensor<2x3xf32>, tensor<3x4xf32>)
  %y = linalg.matmul_transpose_a ins(%a, %b : tensor<3x2xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
