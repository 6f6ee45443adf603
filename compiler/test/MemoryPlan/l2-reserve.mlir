// Space reserved for the firmware image (l2-reserve) counts against L2 and
// moves every L2 buffer up.
// RUN: npuc-opt %s -npu-attach-target '-npu-memory-plan=l2-reserve=524288' -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: %arg0: tensor<1024xi8> {npu.placement = #npu.placement<L2, address = 0x1C080000, size = 1024>}
func.func @fits(%x: tensor<1024xi8>) -> tensor<1024xi8> {
  return %x : tensor<1024xi8>
}

// -----

// expected-error @+1 {{model does not fit in L2: needs 1572928 bytes, the region holds 1572864 bytes (64 bytes over); 524288 bytes are reserved by l2-reserve}}
func.func @reserved(%x: tensor<1048640xi8>) -> tensor<1048640xi8> {
  return %x : tensor<1048640xi8>
}
