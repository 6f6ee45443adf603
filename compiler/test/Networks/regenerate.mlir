// The checked-in example networks are exactly what gen_mlp.py writes, so
// anyone can regenerate or scale them (e.g. --dims 784,256,128,10).
// RUN: %python %networks/gen_mlp.py --dtype int8 --dims 16,32,8 --batch 4 --seed 5 --name mlp_tiny_int8 > %t.int8.mlir
// RUN: diff %t.int8.mlir %networks/mlp_tiny_int8.mlir
// RUN: %python %networks/gen_mlp.py --dtype f32 --dims 16,32,8 --batch 4 --seed 5 --name mlp_tiny_f32 > %t.f32.mlir
// RUN: diff %t.f32.mlir %networks/mlp_tiny_f32.mlir
// A bigger generated net is accepted by the gate too.
// RUN: %python %networks/gen_mlp.py --dtype int8 --dims 64,48,10 --batch 2 | npuc-opt -npu-verify-supported | FileCheck %s
// CHECK: func.func @mlp_64_48_10_int8(%arg0: tensor<2x64xi8>) -> tensor<2x10xi8>
// The SimpleMLP 784-256-128-10 that `npu run` and the README use.
// RUN: %python %networks/gen_mlp.py --dtype int8 --dims 784,256,128,10 --batch 4 --seed 7 --name mlp_int8 > %t.mlp_int8.mlir
// RUN: diff %t.mlp_int8.mlir %networks/mlp_int8.mlir
// RUN: %python %networks/gen_mlp.py --dtype f32 --dims 784,256,128,10 --batch 4 --seed 7 --name mlp_f32 > %t.mlp_f32.mlir
// RUN: diff %t.mlp_f32.mlir %networks/mlp_f32.mlir
