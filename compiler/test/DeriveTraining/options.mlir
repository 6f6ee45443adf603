// Out-of-range options are one error, before the network is looked at.
// RUN: not npuc-opt %s -npu-derive-training=steps=0 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not npuc-opt %s -npu-derive-training=batch=300 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not npuc-opt %s -npu-derive-training=lr=0 2>&1 | FileCheck %s --check-prefix=LR
// STEPS: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=0 batch=0 lr=1.000000e-02
// BATCH: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=4 batch=300
// LR: error: npu-derive-training: steps must be 1..64, batch 1..256 and lr in (0, 10], got steps=4 batch=0 lr=0.000000e+00

func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
