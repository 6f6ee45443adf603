// npuc's --emit stages on the tiny int8 MLP: bufferized IR with the C entry,
// LLVM IR for riscv32/ilp32f, and an RV32 ELF object with the single-float ABI.
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=bufferized | FileCheck %s --check-prefix=BUF
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=llvm-ir | FileCheck %s --check-prefix=IR
// RUN: npuc %networks/mlp_tiny_int8.mlir --emit=llvm-ir --opt=0 | FileCheck %s --check-prefix=IR
// RUN: rm -rf %t && npuc %networks/mlp_tiny_int8.mlir --emit=obj -o %t
// RUN: llvm-readelf -h -s %t/network.o | FileCheck %s --check-prefix=OBJ
// RUN: not npuc %networks/mlp_tiny_int8.mlir --emit=nonsense 2>&1 | FileCheck %s --check-prefix=BADEMIT
// RUN: not npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L1 2>&1 | FileCheck %s --check-prefix=BADLEVEL
// RUN: not npuc %s 2>&1 | FileCheck %s --check-prefix=BADOP
// RUN: not npuc %networks/mlp_tiny_int8.mlir --config %t.missing.cfg 2>&1 | FileCheck %s --check-prefix=BADCFG
// RUN: not npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L3 -o %t.l3 2>&1 | FileCheck %s --check-prefix=L3
// RUN: npuc %networks/mlp_tiny_int8.mlir --default-mem-level=L3 --emit=plan | FileCheck %s --check-prefix=L3PLAN

// BUF: memref.global "public" @npu_input : memref<64xi8>
// BUF: memref.global "public" @npu_output : memref<32xi8> = uninitialized
// BUF: memref.global "public" constant @npu_output_size : memref<i32> = dense<32>
// BUF: func.func @mlp_tiny_int8(%{{.*}}: memref<4x16xi8>) -> memref<4x8xi8>
// BUF: func.func @npu_network_run()
// BUF: memref.view
// BUF: call @mlp_tiny_int8
// BUF: memref.copy

// IR: target datalayout = "e-m:e-p:32:32-i64:64-n32-S128"
// IR: target triple = "riscv32-unknown-elf"
// IR: @npu_output = {{.*}}global [32 x i8]
// IR: define void @npu_network_run()
// IR: !"target-abi", !"ilp32f"

// OBJ: Class: ELF32
// OBJ: Machine: RISC-V
// OBJ: Flags: 0x2, single-float ABI
// OBJ-DAG: FUNC GLOBAL DEFAULT {{.*}} npu_network_run
// OBJ-DAG: OBJECT GLOBAL DEFAULT {{.*}} npu_output

// L3: mlp_tiny_int8.mlir:7:26: error: tensor planned in L3: this codegen slice runs on the cores only and has no DMA staging yet
// L3PLAN: npu.placement = #npu.placement<L3

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
