// The golden reference's module: -npu-return-checkpoints returns the
// checkpoints after the outputs and -npu-host-entry wraps the bufferized
// network in npu_network_run(), reading the inputs from npu_input (the
// input pattern) and writing outputs then checkpoints, each 16-byte
// aligned, into npu_output (the layout of golden.bin).
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-tag-checkpoints -npu-return-checkpoints -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -npu-host-entry | FileCheck %s

// CHECK: memref.global "public" @npu_input : memref<64xi8> = dense<[-115, -78, -41, {{.*}}]> {alignment = 64 : i64}
// CHECK: memref.global "public" @npu_output : memref<800xi8> = uninitialized {alignment = 64 : i64}
// CHECK: memref.global "public" constant @npu_output_size : memref<i32> = dense<800>
// CHECK: memref.global "public" constant @npu_input_size : memref<i32> = dense<64>
// CHECK: func.func @mlp_tiny_int8(%{{.*}}: memref<4x16xi8>) -> (memref<4x8xi8>, memref<4x32xi32>, memref<4x32xi8>, memref<4x8xi32>)
// CHECK-LABEL: func.func @npu_network_run() {
// CHECK: %[[IN:.*]] = memref.get_global @npu_input : memref<64xi8>
// CHECK: %[[OUT:.*]] = memref.get_global @npu_output : memref<800xi8>
// CHECK: %[[X:.*]] = memref.view %[[IN]][%c0][] : memref<64xi8> to memref<4x16xi8>
// CHECK: %[[R:.*]]:4 = call @mlp_tiny_int8(%[[X]])
// CHECK: memref.view %[[OUT]][%c0{{.*}}][] : memref<800xi8> to memref<4x8xi8>
// CHECK: %c32 = arith.constant 32 : index
// CHECK: memref.view %[[OUT]][%c32][] : memref<800xi8> to memref<4x32xi32>
// CHECK: %c544 = arith.constant 544 : index
// CHECK: memref.view %[[OUT]][%c544][] : memref<800xi8> to memref<4x32xi8>
// CHECK: %c672 = arith.constant 672 : index
// CHECK: memref.view %[[OUT]][%c672][] : memref<800xi8> to memref<4x8xi32>
// CHECK: return
