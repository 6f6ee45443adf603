// The npu attributes round-trip, and a mistyped npu.* attribute is an error
// at its op rather than a silently ignored override.
// RUN: npuc-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK: arith.constant {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, address = 0x80000040, size = 16>}
func.func @roundtrip() -> tensor<4xi32> {
  %w = arith.constant {npu.mem = #npu.mem<L3>, npu.placement = #npu.placement<L3, address = 0x80000040, size = 16>} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}

// -----

func.func @string_level() -> tensor<4xi32> {
  // expected-error @+1 {{'npu.mem' must be #npu.mem<L2> or #npu.mem<L3>}}
  %w = arith.constant {npu.mem = "L3"} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}

// -----

func.func @misspelt() -> tensor<4xi32> {
  // expected-error @+1 {{unknown npu attribute 'npu.memory'}}
  %w = arith.constant {npu.memory = #npu.mem<L3>} dense<1> : tensor<4xi32>
  return %w : tensor<4xi32>
}

// -----

// expected-error @+1 {{expected memory level L2 or L3, got 'L1'}}
func.func @bad_level() attributes {x = #npu.placement<L1, address = 0x0, size = 4>} {
  return
}
