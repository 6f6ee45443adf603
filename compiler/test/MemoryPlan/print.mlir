// The plan as a table: one row per planned tensor sorted by level and
// address, tied results (fill -> matmul) on the same address, peaks last.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-memory-plan -npu-print-memory-plan -o /dev/null | FileCheck %s
// Without a plan the printer refuses instead of printing an empty table.
// RUN: not npuc-opt %networks/mlp_tiny_int8.mlir -npu-print-memory-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPLAN

// CHECK:      memory plan of @mlp_tiny_int8
// CHECK-NEXT:   level address       bytes  kind         type                 produced by
// CHECK-NEXT:   L2    0x1C000000      512  weight       tensor<16x32xi8>     arith.constant at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000200      512  activation   tensor<4x32xi32>     linalg.fill at
// CHECK-NEXT:   L2    0x1C000200      512  activation   tensor<4x32xi32>     linalg.matmul at
// CHECK-NEXT:   L2    0x1C000200      128  activation   tensor<4x8xi32>      linalg.fill at
// CHECK-NEXT:   L2    0x1C000200      128  activation   tensor<4x8xi32>      linalg.matmul at
// CHECK-NEXT:   L2    0x1C000280       32  output       tensor<4x8xi8>       linalg.generic at
// CHECK-NEXT:   L2    0x1C000400      256  weight       tensor<32x8xi8>      arith.constant at
// CHECK-NEXT:   L2    0x1C000500      128  weight       tensor<32xi32>       arith.constant at
// CHECK-NEXT:   L2    0x1C000580       64  input        tensor<4x16xi8>      argument #0 at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000580      128  activation   tensor<4x32xi8>      linalg.generic at
// CHECK-NEXT:   L2    0x1C000600       32  weight       tensor<8xi32>        arith.constant at
// CHECK-NEXT:   l2 peak: 1568 bytes
// CHECK-NEXT:   l3 peak: 0 bytes

// NOPLAN: error: no complete memory plan: run -npu-memory-plan first
