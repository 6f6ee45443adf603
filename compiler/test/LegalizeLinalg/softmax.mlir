// linalg.softmax becomes max, exp(x - max), sum and divide generics, the
// exponentials in a buffer of their own.
// RUN: npuc-opt %s -npu-legalize-linalg | FileCheck %s

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: %[[MIN:.*]] = arith.constant -3.40282347E+38 : f32
  // CHECK: %[[M0:.*]] = linalg.fill ins(%[[MIN]] : f32) outs(%{{.*}} : tensor<2xf32>)
  // CHECK: %[[MAX:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%arg0 : tensor<2x8xf32>) outs(%[[M0]] : tensor<2xf32>)
  // CHECK: arith.maxnumf
  // CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%arg0, %[[MAX]] : tensor<2x8xf32>, tensor<2xf32>)
  // CHECK: arith.subf
  // CHECK: math.exp
  // CHECK: %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} ins(%[[EXP]] : tensor<2x8xf32>)
  // CHECK: arith.addf
  // CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x8xf32>, tensor<2xf32>) outs(%[[OUT:.*]] : tensor<2x8xf32>)
  // CHECK: arith.divf
  // CHECK-NOT: linalg.softmax
  %e = tensor.empty() : tensor<2x8xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<2x8xf32>) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}
