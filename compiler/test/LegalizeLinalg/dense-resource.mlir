// dense_resource constants become dense ones with the blob's bytes; a blob
// that is missing or of the wrong size is an error at the constant.
// RUN: npuc-opt %s -split-input-file -npu-legalize-linalg -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @weights
// CHECK: arith.constant dense<[1, 2, -1]> : tensor<3xi8>
func.func @weights() -> tensor<3xi8> {
  %w = arith.constant dense_resource<w> : tensor<3xi8>
  return %w : tensor<3xi8>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x010000000102FF"
    }
  }
#-}

// -----

func.func @short() -> tensor<4xi32> {
  // expected-error @+1 {{'arith.constant' op dense_resource blob 'v' holds 8 bytes, not the 'tensor<4xi32>' it is declared as}}
  %w = arith.constant dense_resource<v> : tensor<4xi32>
  return %w : tensor<4xi32>
}
{-#
  dialect_resources: {
    builtin: {
      v: "0x040000000100000002000000"
    }
  }
#-}
