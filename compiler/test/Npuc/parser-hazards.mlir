// Inputs that crash MLIR 19's own parser or verifier (found by fuzz_mlir)
// are rejected by npuc with a located error and exit 1 before they reach
// that code (compiler/lib/Frontend/Mlir/MlirInput.cpp, docs/robustness.md).
// RUN: split-file %s %t
// RUN: not npuc %t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not npuc %t/float.mlir 2>&1 | FileCheck %s --check-prefix=FLOAT
// RUN: not npuc %t/overflow.mlir 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not npuc %t/unclosed.mlir 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// RUN: not npuc %t/broadcast.mlir 2>&1 | FileCheck %s --check-prefix=BROADCAST
// RUN: not npuc %t/outside.mlir 2>&1 | FileCheck %s --check-prefix=OUTSIDE
// RUN: not npuc %t/generic.mlir 2>&1 | FileCheck %s --check-prefix=GENERIC
// RUN: npuc %t/valid.mlir --emit=imported | FileCheck %s --check-prefix=VALID
// RUN: not npuc %t/repeat.mlir 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not npuc %t/short-map.mlir 2>&1 | FileCheck %s --check-prefix=SHORTMAP
// RUN: not npuc %t/short-reduce.mlir 2>&1 | FileCheck %s --check-prefix=SHORTREDUCE
// RUN: npuc %t/short-valid.mlir --emit=imported | FileCheck %s --check-prefix=SHORTVALID
// RUN: not npuc %t/cross-region.mlir 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: npuc %t/forward-valid.mlir --emit=imported | FileCheck %s --check-prefix=FWDVALID
// MLIR's lexer skips a NUL byte like a space and ends a comment at `\r`:
// the check must too (fuzz_mlir found both; `~` stands for the byte here).
// RUN: tr '~' '\000' < %t/nul.mlir.in > %t/nul.mlir
// RUN: not npuc %t/nul.mlir 2>&1 | FileCheck %s --check-prefix=NUL
// RUN: tr '~' '\r' < %t/cr.mlir.in > %t/cr.mlir
// RUN: not npuc %t/cr.mlir 2>&1 | FileCheck %s --check-prefix=CR

// MALFORMED: malformed.mlir:3:93: error: 'permutation' must be a list of 64-bit integers like [1, 0] here
// MALFORMED-NOT: error:
// FLOAT: float.mlir:3:93: error: 'permutation' must be a list of 64-bit integers
// OVERFLOW: overflow.mlir:3:93: error: 'permutation' must be a list of 64-bit integers
// UNCLOSED: unclosed.mlir:3:93: error: 'permutation' must be a list of 64-bit integers
// BROADCAST: broadcast.mlir:3:90: error: 'dimensions' must be a list of 64-bit integers
// OUTSIDE: outside.mlir:3:8: error: 'permutation' must be a permutation of 0..1, not array<i64: 100000000000, 0>
// GENERIC: generic.mlir:3:8: error: 'permutation' must be a permutation of 0..1, not array<i64: -1, 0>
// REPEAT: repeat.mlir:3:8: error: 'dimensions' must not repeat an entry, not array<i64: 1, 1>
// SHORTMAP: short-map.mlir:3:47: error: 'linalg.map' with its payload op in braces needs each operand type spelled as a tensor or memref type here
// SHORTMAP-NOT: error:
// SHORTREDUCE: short-reduce.mlir:3:73: error: 'linalg.reduce' with its payload op in braces needs each operand type
// SHORTVALID: linalg.map { arith.addf {fastmath = #arith.fastmath<fast>} } ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>)
// SHORTVALID: linalg.reduce { arith.addf } ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// A use whose only definition comes later in a sibling region: with a syntax
// error after it, MLIR 19's parser wrote into freed memory (fuzz_mlir's heap
// corruption); forward references within a scope or to an enclosing one,
// block arguments, iter_args and forall indices stay accepted.
// CROSS: cross-region.mlir:3:25: error: '%m' is used here but defined only later (line 7) inside a region that does not enclose this use
// CROSS-NOT: error:
// FWDVALID: scf.forall (%{{.*}}) in (4)
// FWDVALID: return %{{.*}} : f32
// FWDVALID: func.func @reuse
// FWDVALID: linalg.reduce
// FWDVALID: scf.execute_region
// NUL: nul.mlir:3:96: error: 'permutation' must be a list of 64-bit integers
// NUL-NOT: error:
// CR: cr.mlir:4:16: error: 'permutation' must be a list of 64-bit integers
// CR-NOT: error:
// The check leaves comments, strings and attribute dictionaries alone.
// VALID: linalg.transpose ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<8x4xf32>) permutation = [1, 0]

//--- malformed.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [=1, 0]
  return %t : tensor<8x4xf32>
}
//--- float.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [1.5, 0]
  return %t : tensor<8x4xf32>
}
//--- overflow.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [9223372036854775808, 0]
  return %t : tensor<8x4xf32>
}
//--- unclosed.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [1, 0
  return %t : tensor<8x4xf32>
}
//--- broadcast.mlir
func.func @f(%x: tensor<8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%x : tensor<8xf32>) outs(%e0 : tensor<4x8xf32>) dimensions = array<i64: 0>
  return %b : tensor<4x8xf32>
}
//--- outside.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation = [100000000000, 0]
  return %t : tensor<8x4xf32>
}
//--- generic.mlir
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = "linalg.transpose"(%x, %e0) <{permutation = array<i64: -1, 0>}> ({
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
//--- valid.mlir
// permutation = [=1] in a comment
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {note = "permutation = [=1]", permutation = array<i64: 7>} {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>)
         permutation = [ 1 , // a comment inside the list
                         0 ]
  return %t : tensor<8x4xf32>
}
//--- repeat.mlir
func.func @f(%x: tensor<f32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%x : tensor<f32>) outs(%e0 : tensor<4x8xf32>) dimensions = [1, 1]
  return %b : tensor<4x8xf32>
}
//--- short-map.mlir
func.func @f(%s: f32, %x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.map { arith.addf } ins(%s, %x : f32, tensor<4xf32>) outs(%e : tensor<4xf32>)
  return %r : tensor<4xf32>
}
//--- short-reduce.mlir
func.func @f(%x: tensor<4x8xf32>, %s: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<4x8xf32>) outs(%s : f32) dimensions = [1]
  return %e : tensor<4xf32>
}
//--- short-valid.mlir
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.map { arith.addf {fastmath = #arith.fastmath<fast>} } // a comment }
         ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>)
  %s = linalg.reduce { arith.addf } ins(%z : tensor <4x8xf32>) outs(%e : tensor<4xf32>) dimensions = [1]
  return %r, %s : tensor<4xf32>, tensor<4xf32>
}
//--- cross-region.mlir
func.func @f(%x: f32) -> f32 {
  %r1 = scf.execute_region -> f32 {
    %c = arith.minimumf %m, %x : f32
    scf.yield %c : f32
  }
  %r2 = scf.execute_region -> f32 {
    %m = arith.minimumf %x, %x : f32
    %q = arith.fp}osi %m : f32 to i32
    scf.yield %m : f32
  }
  return %r2 : f32
}
//--- forward-valid.mlir
func.func @g(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %m = arith.addf %acc, %x : f32
    scf.yield %m : f32
  }
  cf.br ^bb1(%r : f32)
^bb1(%v: f32):
  return %v : f32
}
func.func @h(%x: f32) -> f32 {
  %m = scf.execute_region -> f32 {
    %r = arith.addf %x, %x : f32
    scf.yield %r : f32
  }
  %t = tensor.empty() : tensor<4xf32>
  %u = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    %e = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %e into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %m : f32
}
func.func @k(%x: f32) -> f32 {
  cf.br ^bb2
^bb1:
  return %y : f32
^bb2:
  %y = arith.addf %x, %x : f32
  cf.br ^bb1
}
// A name reused in later sibling regions: linalg.reduce's region arguments
// and scf.forall's index (forms the lexical check does not take for
// definitions) before another region's op result and block arguments.
func.func @reuse(%x: tensor<6x16xf32>, %t: tensor<4xf32>) -> (tensor<16xf32>, f32) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %col = linalg.reduce ins(%x : tensor<6x16xf32>) outs(%z : tensor<16xf32>) dimensions = [0]
    (%a: f32, %acc: f32) {
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
  %u = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  %v = scf.execute_region -> f32 {
    %a = arith.constant 1.0 : f32
    %i = arith.addf %a, %a : f32
    scf.yield %i : f32
  }
  return %col, %v : tensor<16xf32>, f32
}
//--- nul.mlir.in
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>) permutation~~~ = [=1, 0]
  return %t : tensor<8x4xf32>
}
//--- cr.mlir.in
func.func @f(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %e0 = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<8x4xf32>)
    // a comment~ permutation = [=1, 0]
  return %t : tensor<8x4xf32>
}
