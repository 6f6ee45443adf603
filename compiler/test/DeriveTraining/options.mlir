// Out-of-range options are one error, before the network is looked at.
// RUN: not npuc-opt %s -npu-derive-training=steps=0 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not npuc-opt %s -npu-derive-training=batch=300 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not npuc-opt %s -npu-derive-training=lr=0 2>&1 | FileCheck %s --check-prefix=LR
// STEPS: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=0 batch=0 lr=1.000000e-02
// BATCH: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=4 batch=300
// LR: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=4 batch=0 lr=0.000000e+00
// A rate that is 0 in f32 (the step's precision) trains nothing: refused,
// by the pass and by npuc's option check (which also prints it as given).
// RUN: not npuc-opt %s -npu-derive-training=lr=1e-50 2>&1 | FileCheck %s --check-prefix=LRF32
// RUN: not npuc %networks/mlp_tiny_f32.mlir --train --lr=1e-50 2>&1 | FileCheck %s --check-prefix=NPUC
// RUN: not npuc %networks/mlp_tiny_f32.mlir --train --lr=20 2>&1 | FileCheck %s --check-prefix=NPUC20
// LRF32: error: npu-derive-training: lr=1.000000e-50 is 0 in f32, the precision the step runs in (the smallest normal f32 is 1.17549e-38)
// NPUC: npuc: error: --lr=1e-50 is 0 in f32, the precision training runs in (the smallest normal f32 is 1.17549e-38)
// NPUC20: npuc: error: --lr=20 is out of range (0 < lr <= 10)

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
