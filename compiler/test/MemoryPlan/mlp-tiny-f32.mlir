// The f32 example network passes the gate and is planned like the int8 one
// (4-byte elements: 4256 bytes in L2 at peak; with the weights in L3, the
// activations and the biases' staging copies still take 1152 bytes of L2).
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-verify-supported -npu-attach-target -npu-memory-plan | FileCheck %s
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-verify-supported -npu-attach-target '-npu-memory-plan=default-mem-level=L3' | FileCheck %s --check-prefix=L3

// CHECK: npu.memory_usage = {l2 = 4256 : i64, l3 = 0 : i64}
// CHECK: func.func @mlp_tiny_f32(%arg0: tensor<4x16xf32> {npu.placement = #npu.placement<L2, address = 0x1C000E00, size = 256>})
// CHECK: linalg.matmul {npu.placement = #npu.placement<L2, address = 0x1C000C00, size = 512>}
// CHECK: linalg.matmul {npu.placement = #npu.placement<L2, address = 0x1C000C00, size = 128>}

// L3: npu.memory_usage = {l2 = 1152 : i64, l3 = 3232 : i64}
// L3: linalg.matmul {npu.placement = #npu.placement<L2
// L3: linalg.copy {{.*}}npu.staging
// L3-NOT: arith.constant {npu.placement = #npu.placement<L2
