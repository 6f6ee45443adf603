// default-mem-level=L3 puts the weights in L3 (gap9: base 0x80000000);
// inputs and activations stay in L2 (activation-mem-level). The cores cannot
// address L3, so each L3 weight an elementwise op reads (the biases) gets a
// planned staging copy into L2, placed before the layer that precedes its
// reader (here the matmul before the bias epilogue: npu-schedule overlaps
// the copy with it); the matmul weights stay in L3 (the SA schedule stages
// their panels itself).
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target '-npu-memory-plan=default-mem-level=L3' | FileCheck %s
// Everything in L3: each result is computed in L2 and copied out to L3, and
// each reader of an L3 tensor gets a copy into L2 first (matmul B excepted);
// the output stays in L3.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target '-npu-memory-plan=default-mem-level=L3 activation-mem-level=L3' | FileCheck %s --check-prefix=ALL
// RUN: not npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target '-npu-memory-plan=activation-mem-level=L1' 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: module attributes {npu.memory_usage = {l2 = 768 : i64, l3 = 928 : i64}, npu.regions = {l2 = array<i64: 469762048, 1572864>, l3 = array<i64: 2147483648, 8388608>}, npu.target = #npu.target<{{.*}}>}
// CHECK: %arg0: tensor<4x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C000280, size = 64>}
// CHECK: arith.constant {npu.placement = #npu.placement<L3, address = 0x80000000, size = 512>} {{.*}} : tensor<16x32xi8>
// CHECK: arith.constant {npu.placement = #npu.placement<L3, address = 0x80000300, size = 128>} {{.*}} : tensor<32xi32>
// CHECK: tensor.empty() {npu.mem = #npu.mem<L2>, npu.placement = #npu.placement<L2, address = 0x1C000200, size = 128>} : tensor<32xi32>
// CHECK: linalg.copy {npu.mem = #npu.mem<L2>, npu.placement = #npu.placement<L2, address = 0x1C000200, size = 128>, npu.staging} ins(%cst_0 : tensor<32xi32>)
// CHECK: linalg.matmul {npu.placement = #npu.placement<L2, address = 0x1C000000, size = 512>}
// CHECK: linalg.generic
// CHECK: linalg.copy {{.*}}npu.staging} ins(%cst_2 : tensor<8xi32>)
// CHECK-NOT: linalg.copy

// ALL: npu.memory_usage = {l2 = 768 : i64, l3 = 1440 : i64}
// ALL: %arg0: tensor<4x16xi8> {npu.placement = #npu.placement<L3
// ALL: linalg.fill {npu.placement = #npu.placement<L2
// ALL: linalg.copy {npu.mem = #npu.mem<L2>, {{.*}}npu.staging} ins(%arg0 : tensor<4x16xi8>)
// ALL: %[[ACC:.*]] = linalg.matmul {npu.placement = #npu.placement<L2
// ALL: linalg.copy {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, {{.*}}npu.staging} ins(%[[ACC]] : tensor<4x32xi32>)
// ALL: %[[OUT:.*]] = linalg.copy {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, {{.*}}npu.staging} ins(%{{.*}} : tensor<4x8xi8>)
// ALL-NEXT: return %[[OUT]]

// BAD: activation-mem-level must be L2 or L3, got 'L1'
