// -npu-input-globals, after -npu-materialize-plan: each input's bytes (the
// documented pattern: element i of integer input k is
// ((37*i + 11*k + 13) mod 256) - 128) as a constant global in its own
// section at the input's planned address, which the linker places.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-memory-plan -npu-materialize-plan -npu-input-globals | FileCheck %s
// RUN: not npuc-opt %networks/mlp_tiny_int8.mlir -npu-input-globals 2>&1 | FileCheck %s --check-prefix=UNPLANNED

// CHECK: module attributes {npu.inputs = [#npu.placement<L2, address = 0x1C000580, size = 64>]
// CHECK: memref.global "public" constant @npu_input_0 : memref<64xi8> = dense<[-115, -78, -41, -4, 33, {{.*}}]> {alignment = 64 : i64, npu.placement = #npu.placement<L2, address = 0x1C000580, size = 64>, npu.section = ".npu.plan.npu_input_0"}

// UNPLANNED: error: no npu.inputs: run -npu-materialize-plan first
