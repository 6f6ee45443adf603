// npu-materialize-plan binds the plan: the network becomes
// @npu_network_run() over globals at the planned addresses, weights become
// data globals placed by section, and bufferization then allocates nothing.
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-memory-plan -npu-materialize-plan | FileCheck %s
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-attach-target -npu-memory-plan -npu-materialize-plan -one-shot-bufferize | FileCheck %s --check-prefix=BUF

// CHECK: module attributes {npu.inputs = [#npu.placement<L2, address = 0x1C000580, size = 64>], npu.memory_usage = {{.*}}, npu.network = "mlp_tiny_int8", npu.outputs = [#npu.placement<L2, address = 0x1C000280, size = 32>]
// CHECK-LABEL: func.func @npu_network_run() {
// The input: a read-only view of its planned buffer.
// CHECK: %[[IN:.*]] = memref.get_global @npu_buf_0 : memref<4x16xi8>
// CHECK: bufferization.to_tensor %[[IN]] restrict : memref<4x16xi8>
// The first weight: its own data global.
// CHECK: %[[W:.*]] = memref.get_global @npu_weight_0 : memref<16x32xi8>
// CHECK: bufferization.to_tensor %[[W]] restrict : memref<16x32xi8>
// An activation: writable, so the fill and the matmul write it in place.
// CHECK: bufferization.to_tensor %{{.*}} restrict writable : memref<4x32xi32>
// CHECK: linalg.matmul
// CHECK-NOT: tensor.empty
// CHECK-NOT: arith.constant dense
// The output stays in its planned buffer.
// CHECK: bufferization.materialize_in_destination %{{.*}} in restrict writable %{{.*}} : (tensor<4x8xi8>, memref<4x8xi8>) -> ()
// CHECK-NEXT: return
// CHECK-DAG: memref.global "public" constant @npu_weight_0 : memref<16x32xi8> = dense<{{.*}}> {alignment = 64 : i64, npu.placement = #npu.placement<L2, address = 0x1C000000, size = 512>, npu.section = ".npu.plan.npu_weight_0"}
// CHECK-DAG: memref.global "public" @npu_buf_0 : memref<4x16xi8> {npu.placement = #npu.placement<L2, address = 0x1C000580, size = 64>}

// BUF-LABEL: func.func @npu_network_run() {
// BUF-NOT: memref.alloc
// BUF: linalg.matmul {{.*}}ins(%{{.*}}, %{{.*}} : memref<4x16xi8>, memref<16x32xi8>)
// BUF-NOT: memref.alloc
// BUF: return
