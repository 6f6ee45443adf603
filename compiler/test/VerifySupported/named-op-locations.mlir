// A named linalg op's body (built by MLIR's region builder, without
// locations) is reported at the named op's line: integer division, which
// the workers do not run (division by zero traps on the host computing the
// golden), and a body the element type cannot have (div_unsigned on f32,
// caught by MLIR's verifier at parse time). They used to print <unknown>:0.
// RUN: split-file %s %t
// RUN: not npuc %t/divsi.mlir 2>&1 | FileCheck %s --check-prefix=DIVSI
// RUN: not npuc %t/divui.mlir 2>&1 | FileCheck %s --check-prefix=DIVUI
// RUN: not npuc %t/divui-f32.mlir 2>&1 | FileCheck %s --check-prefix=DIVUIF
// RUN: npuc %t/div-f32.mlir --emit=verify | FileCheck %s --check-prefix=DIVF

// DIVSI: divsi.mlir:3:8: error: 'arith.divsi' op is not supported inside a linalg.generic
// DIVSI-NOT: <unknown>
// DIVUI: divui.mlir:3:8: error: 'arith.divui' op is not supported inside a linalg.generic
// DIVUI-NOT: <unknown>
// DIVUIF: divui-f32.mlir:3:8: error: 'arith.divui' op operand #0 must be signless-integer-like, but got 'f32'
// DIVUIF-NOT: <unknown>
// DIVF: arith.divf

//--- divsi.mlir
func.func @net(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %e = tensor.empty() : tensor<4x8xi32>
  %r = linalg.div ins(%a, %b : tensor<4x8xi32>, tensor<4x8xi32>) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
//--- divui.mlir
func.func @net(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %e = tensor.empty() : tensor<4x8xi32>
  %r = linalg.div_unsigned ins(%a, %b : tensor<4x8xi32>, tensor<4x8xi32>) outs(%e : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
//--- divui-f32.mlir
func.func @net(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.div_unsigned ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
//--- div-f32.mlir
func.func @net(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.div ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
