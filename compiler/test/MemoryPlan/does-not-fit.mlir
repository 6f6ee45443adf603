// A model larger than L2 is an error that says by how many bytes it misses.
// gap9 L2 holds 1.5 MiB = 1572864 bytes; this input alone is 1638400.
// RUN: npuc-opt %s -npu-attach-target -npu-memory-plan -split-input-file -verify-diagnostics

// expected-error @+1 {{model does not fit in L2: needs 1638400 bytes, the region holds 1572864 bytes (65536 bytes over)}}
func.func @too_big(%x: tensor<1024x1600xi8>) -> tensor<1024x1600xi8> {
  return %x : tensor<1024x1600xi8>
}

// -----

// The same model fits once the input is moved to L3 by an override.
func.func @moved(%x: tensor<1024x1600xi8> {npu.mem = #npu.mem<L3>}) -> tensor<1024x1600xi8> {
  return %x : tensor<1024x1600xi8>
}

