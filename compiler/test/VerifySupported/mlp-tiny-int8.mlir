// The example network passes the gate unchanged.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-verify-supported | FileCheck %s

// CHECK-LABEL: func.func @mlp_tiny_int8
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
// CHECK:         arith.trunci {{.*}} : i64 to i8
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
// CHECK:         return {{.*}} : tensor<4x8xi8>
