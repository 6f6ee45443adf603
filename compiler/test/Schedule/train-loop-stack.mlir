// npu-loop-training-steps moves the network function's body into an scf.for
// over the steps; the kernels' argument block (a fixed-size memref.alloca,
// npu-schedule) stays in the entry block, before the loop. Inside it, each
// step's alloca took another 80 bytes of the controller's stack, never given
// back until the function returned: 19 steps of mlp_tiny_f32 overflowed the
// 2 KiB stack.
// RUN: npuc %networks/mlp_tiny_f32.mlir --train --steps=3 --emit=schedule | FileCheck %s
// RUN: npuc %networks/mlp_tiny_f32.mlir --train --steps=3 --emit=llvm-ir | FileCheck %s --check-prefix=IR

// CHECK-LABEL: func.func @npu_network_run()
// CHECK-NEXT: memref.alloca() {alignment = 4 : i64} : memref<{{[0-9]+}}xi32>
// CHECK: scf.for
// CHECK-NOT: memref.alloca
// CHECK: return

// In LLVM IR, the function's only alloca in its entry block, so no
// dynamic stack allocation anywhere (no stacksave either).
// IR-LABEL: define {{.*}}void @npu_network_run()
// IR-NEXT: alloca
// IR-NOT: alloca
// IR-NOT: stacksave
// IR: ret void
