// npuc's --emit stages on the tiny int8 MLP: planned tensors, bufferized IR
// at the planned addresses (each layer one fused npu.matmul_kernel), the
// schedule (SA calls with their tiles, no worker function: the epilogues
// run inside npurt_matmul_ep), LLVM IR for riscv32/ilp32f, an RV32 object with the
// single-float ABI, and a linked firmware with its manifest.
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=plan | FileCheck %s --check-prefix=PLAN
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=bufferized | FileCheck %s --check-prefix=BUF
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=tiled | FileCheck %s --check-prefix=TILED
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=schedule | FileCheck %s --check-prefix=SCHED
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=llvm-ir | FileCheck %s --check-prefix=IR
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=llvm-ir --opt=0 | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && npuc %networks/mlp_tiny_int8.mlir --emit=obj -o %t
// RUN: llvm-readelf -h -s %t/network.o | FileCheck %s --check-prefix=OBJ
// RUN: not npuc %networks/mlp_tiny_int8.mlir --emit=nonsense 2>&1 | FileCheck %s --check-prefix=BADEMIT
// RUN: not npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L1 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: not npuc %networks/mlp_tiny_int8.mlir --inject-fault=typo 2>&1 | FileCheck %s --check-prefix=BADFAULT
// RUN: not npuc %networks/mlp_tiny_int8.mlir --inject-fault=l3-as-l2 -o %t.f 2>&1 | FileCheck %s --check-prefix=NOL3
// RUN: not npuc %s 2>&1 | FileCheck %s --check-prefix=BADOP
// RUN: not npuc %networks/mlp_tiny_int8.mlir --config %t.missing.cfg 2>&1 | FileCheck %s --check-prefix=BADCFG
// RUN: not npuc %networks/mlp_tiny_int8.mlir --set l1.size=banana 2>&1 | FileCheck %s --check-prefix=BADSET
// Weights in L3: a full build; the plan's sections land in L3 and the
// manifest records every tensor's level and address.
// RUN: rm -rf %t.l3 && npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L3 -o %t.l3
// RUN: FileCheck %s --check-prefix=L3LD < %t.l3/plan.ld
// RUN: FileCheck %s --check-prefix=L3MAN < %t.l3/manifest.json
// RUN: llvm-readelf -S %t.l3/firmware.elf | FileCheck %s --check-prefix=L3ELF

// PLAN: npu.placement = #npu.placement<L2

// BUF: func.func @npu_network_run() {
// BUF: memref.get_global @npu_buf_{{[0-9]+}} : memref<4x16xi8>
// BUF: memref.get_global @npu_weight_0 : memref<16x32xi8>
// BUF: "npu.matmul_kernel"(%{{.*}}) <{act_max = 127 : i64, act_min = 0 : i64, {{.*}} : (memref<4x16xi8>, memref<16x32xi8>, memref<32xi32>, memref<1xi32>, memref<1xi32>, memref<4x32xi8>) -> ()
// BUF-NOT: linalg.generic
// BUF-NOT: memref.alloc
// BUF: memref.global "public" @npu_buf_0 : memref<4x16xi8> {npu.placement = #npu.placement<L2
// BUF: memref.global "public" constant @npu_weight_0 : memref<16x32xi8> = dense<{{.*}}> {alignment = 64 : i64, npu.placement = #npu.placement<L2, {{.*}}, npu.section = ".npu.plan.npu_weight_0"}

// TILED: "npu.matmul_kernel"({{.*}}npu.l1_bytes = 2560 : i64, {{.*}}npu.tiles = array<i64: 4, 32, 16>}

// SCHED: func.func @npu_network_run() {
// SCHED: call @npurt_region_begin(
// SCHED: call @npurt_matmul_ep({{.*}}) {npu.l1_budget = 111616 : i64, npu.l1_bytes = 2560 : i64, npu.sa = array<i64: 16, 16>, npu.tiles = array<i64: 4, 32, 16>}
// SCHED-NOT: linalg.fill
// SCHED-NOT: npu_worker_

// IR: target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
// IR: target triple = "riscv32-unknown-elf"
// IR: @npu_weight_0 = {{.*}}constant [16 x [32 x i8]] {{.*}}, section ".npu.plan.npu_weight_0", align 64
// IR: @llvm.used =
// IR: define void @npu_network_run()
// IR: call void @npurt_matmul_ep(
// IR: !"target-abi", !"ilp32f"

// OBJ: Class: ELF32
// OBJ: Machine: RISC-V
// OBJ: Flags: 0x{{[23]}}, {{(RVC, )?}}single-float ABI
// OBJ-DAG: FUNC GLOBAL DEFAULT {{.*}} npu_network_run
// OBJ-DAG: OBJECT GLOBAL DEFAULT {{.*}} npu_weight_0
// OBJ-DAG: NOTYPE GLOBAL DEFAULT UND npu_buf_0

// L3LD: .npu.plan.npu_weight_0 0x80000000 : AT(0x80000000) { KEEP(*(.npu.plan.npu_weight_0)) } >L3
// L3LD: INSERT AFTER .l3.data;
// L3MAN: "format": "npuc-manifest/1"
// L3MAN: "kind": "weight"
// L3MAN-NEXT: "level": "L3"
// L3MAN: "kind": "staging"
// L3ELF: .npu.plan.npu_weight_0 PROGBITS 80000000

// NOL3: error: inject-fault=l3-as-l2 needs a matmul weight in L3 (compile with --default-mem-level=L3)
// BADFAULT: npuc: error: unknown --inject-fault=typo
// BADSET: npuc: error: cannot read the platform config: {{.*}}l1.size
// BADCFG: npuc: error: cannot read the platform config: {{.*}}missing.cfg: cannot open config file
// BADEMIT: npuc: error: unknown --emit=nonsense
// BADLEVEL: npuc: error: --default-mem-level must be L2 or L3, not 'L1'

// An op npuc does not support is a diagnostic at its location (from
// -npu-verify-supported) and a non-zero exit, before any codegen.
func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> {
  // BADOP: stages.mlir:[[# @LINE + 1]]:8: error: 'math.exp' op is not supported by npuc
  %y = math.exp %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
