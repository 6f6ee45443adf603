// Run without -npu-verify-supported, the plan still refuses what it cannot
// size with a diagnostic instead of asserting.
// RUN: npuc-opt %s -npu-attach-target -npu-memory-plan -split-input-file -verify-diagnostics

// expected-error @+1 {{argument #0 needs a static shape and an int/float element type}}
func.func @dynamic_arg(%x: tensor<?xi8>) -> tensor<?xi8> {
  return %x : tensor<?xi8>
}

// -----

func.func @dynamic_result(%n: index) -> tensor<?xi8> {
  // expected-error @+1 {{'tensor.empty' op result needs a static shape and an int/float element type}}
  %e = tensor.empty(%n) : tensor<?xi8>
  return %e : tensor<?xi8>
}

// -----

func.func @index_elements() -> tensor<4xindex> {
  // expected-error @+1 {{'arith.constant' op result needs a static shape}}
  %c = arith.constant dense<1> : tensor<4xindex>
  return %c : tensor<4xindex>
}

// -----

// Several functions with bodies are not planned yet.
func.func @first() {
  return
}
// expected-error @+1 {{memory plan handles one function per module; first was @first}}
func.func @second() {
  return
}
