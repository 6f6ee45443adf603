// -npu-strip-attributes drops every npu.* discardable attribute (ops,
// globals, the module) and nothing else.
// RUN: npuc-opt %s -npu-strip-attributes | FileCheck %s

// CHECK: module attributes {other.keep = 1 : i64} {
module attributes {npu.network = "n", other.keep = 1 : i64} {
  // CHECK: memref.global "public" @g : memref<4xi8> {alignment = 64 : i64}
  memref.global "public" @g : memref<4xi8> {alignment = 64 : i64, npu.placement = #npu.placement<L2, address = 0x1C000000, size = 4>, npu.section = ".npu.plan.g"}
  // CHECK: func.func @f() {
  func.func @f() {
    // CHECK-NEXT: call @f() {other.tag} : () -> ()
    func.call @f() {npu.region = "layer0.sa", npu.checkpoint = 0 : i64, other.tag} : () -> ()
    return
  }
}
