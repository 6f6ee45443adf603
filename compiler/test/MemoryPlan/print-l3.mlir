// Buffer kinds (npu/Analysis/BufferKind.h) in the printed plan with every
// tensor in L3: weights, the input, and the staging copies npu-memory-plan
// inserts, shown as the activation or output they carry.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-verify-supported "-npu-memory-plan=default-mem-level=L3 activation-mem-level=L3" -npu-print-memory-plan -o /dev/null | FileCheck %s

// CHECK:      memory plan of @mlp_tiny_int8
// CHECK-NEXT:   level address       bytes  kind         type                 produced by
// CHECK-NEXT:   L2    0x1C000000      512  activation   tensor<4x32xi32>     linalg.fill at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000000      512  activation   tensor<4x32xi32>     linalg.matmul at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000000      512  activation   tensor<4x32xi32>     linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000000      128  activation   tensor<4x8xi32>      linalg.fill at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000000      128  activation   tensor<4x8xi32>      linalg.matmul at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000000      128  activation   tensor<4x8xi32>      linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000080      128  activation   tensor<4x32xi8>      linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000080       32  activation   tensor<4x8xi8>       linalg.generic at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000100       32  activation   tensor<8xi32>        linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000200      128  activation   tensor<32xi32>       linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000280       64  activation   tensor<4x16xi8>      linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L2    0x1C000280      128  activation   tensor<4x32xi8>      linalg.generic at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000000      512  weight       tensor<16x32xi8>     arith.constant at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000200       64  input        tensor<4x16xi8>      argument #0 at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000200      512  activation   tensor<4x32xi32>     linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000200      128  activation   tensor<4x32xi8>      linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000200      128  activation   tensor<4x8xi32>      linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000200       32  output       tensor<4x8xi8>       linalg.copy at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000400      256  weight       tensor<32x8xi8>      arith.constant at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000500      128  weight       tensor<32xi32>       arith.constant at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   L3    0x80000580       32  weight       tensor<8xi32>        arith.constant at mlp_tiny_int8.mlir:{{[0-9]+}}:{{[0-9]+}}
// CHECK-NEXT:   l2 peak: 768 bytes
// CHECK-NEXT:   l3 peak: 1440 bytes
