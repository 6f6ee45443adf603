// The same network and config give the same firmware and manifest, byte for
// byte (no addresses, names or orders that depend on the run or on hashing).
// RUN: rm -rf %t.a %t.b
// RUN: npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L3 -o %t.a
// RUN: npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L3 -o %t.b
// RUN: cmp %t.a/firmware.elf %t.b/firmware.elf
// RUN: cmp %t.a/golden.bin %t.b/golden.bin
// RUN: cmp %t.a/plan.ld %t.b/plan.ld
// RUN: sed -e 's#%t.[ab]##' %t.a/manifest.json > %t.a.json
// RUN: sed -e 's#%t.[ab]##' %t.b/manifest.json > %t.b.json
// RUN: diff %t.a.json %t.b.json
// MLIR's pass-manager options work on npuc's pipeline:
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=schedule --mlir-print-ir-after=npu-schedule -o %t.c 2>&1 >/dev/null | FileCheck %s
// CHECK: IR Dump After NpuSchedule (npu-schedule)
// CHECK: call @npurt_matmul
