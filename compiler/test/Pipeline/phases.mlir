// `npuc --emit=<phase>` and `npuc-opt -npu-pipeline="to=<phase>"` build the
// same pipeline (npu/Pipeline/Pipeline.h): the IR is the same at every MLIR
// phase. npuc prints the module without the final newline mlir-opt adds.
// RUN: rm -rf %t && mkdir -p %t
// The tiny int8 MLP with the defaults.
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=verify > %t/int8.verify.npuc && echo >> %t/int8.verify.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=verify" > %t/int8.verify.opt
// RUN: diff %t/int8.verify.npuc %t/int8.verify.opt
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=plan > %t/int8.plan.npuc && echo >> %t/int8.plan.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=plan" > %t/int8.plan.opt
// RUN: diff %t/int8.plan.npuc %t/int8.plan.opt
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=bufferized > %t/int8.bufferized.npuc && echo >> %t/int8.bufferized.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=bufferized" > %t/int8.bufferized.opt
// RUN: diff %t/int8.bufferized.npuc %t/int8.bufferized.opt
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=tiled > %t/int8.tiled.npuc && echo >> %t/int8.tiled.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=tiled" > %t/int8.tiled.opt
// RUN: diff %t/int8.tiled.npuc %t/int8.tiled.opt
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=schedule > %t/int8.schedule.npuc && echo >> %t/int8.schedule.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=schedule" > %t/int8.schedule.opt
// RUN: diff %t/int8.schedule.npuc %t/int8.schedule.opt
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --emit=llvm-dialect > %t/int8.llvm-dialect.npuc && echo >> %t/int8.llvm-dialect.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg to=llvm-dialect" > %t/int8.llvm-dialect.opt
// RUN: diff %t/int8.llvm-dialect.npuc %t/int8.llvm-dialect.opt
// The tiny f32 MLP all in L3 (staging copies, DMA) with a config override.
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=verify > %t/f32.verify.npuc && echo >> %t/f32.verify.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=verify" > %t/f32.verify.opt
// RUN: diff %t/f32.verify.npuc %t/f32.verify.opt
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=plan > %t/f32.plan.npuc && echo >> %t/f32.plan.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=plan" > %t/f32.plan.opt
// RUN: diff %t/f32.plan.npuc %t/f32.plan.opt
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=bufferized > %t/f32.bufferized.npuc && echo >> %t/f32.bufferized.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=bufferized" > %t/f32.bufferized.opt
// RUN: diff %t/f32.bufferized.npuc %t/f32.bufferized.opt
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=tiled > %t/f32.tiled.npuc && echo >> %t/f32.tiled.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=tiled" > %t/f32.tiled.opt
// RUN: diff %t/f32.tiled.npuc %t/f32.tiled.opt
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=schedule > %t/f32.schedule.npuc && echo >> %t/f32.schedule.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=schedule" > %t/f32.schedule.opt
// RUN: diff %t/f32.schedule.npuc %t/f32.schedule.opt
// RUN: npuc %networks/mlp_tiny_f32.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --activation-mem-level=L3 --set=l1.size=64KiB --emit=llvm-dialect > %t/f32.llvm-dialect.npuc && echo >> %t/f32.llvm-dialect.npuc
// RUN: npuc-opt %networks/mlp_tiny_f32.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 activation-mem-level=L3 set=l1.size=64KiB to=llvm-dialect" > %t/f32.llvm-dialect.opt
// RUN: diff %t/f32.llvm-dialect.npuc %t/f32.llvm-dialect.opt
// An injected schedule fault changes the IR the same way in both.
// RUN: npuc %networks/mlp_tiny_int8.mlir --config %npuc_src/configs/gap9.cfg --default-mem-level=L3 --inject-fault=unchecked-l1-alloc --emit=schedule > %t/fault.npuc && echo >> %t/fault.npuc
// RUN: npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="config=%npuc_src/configs/gap9.cfg default-mem-level=L3 inject-fault=unchecked-l1-alloc to=schedule" > %t/fault.opt
// RUN: diff %t/fault.npuc %t/fault.opt
// RUN: not npuc-opt %networks/mlp_tiny_int8.mlir -npu-pipeline="to=elf" 2>&1 | FileCheck %s --check-prefix=NOTMLIR
// NOTMLIR: error: npu-pipeline: to=elf is not an MLIR phase
// The phases checked are the pipeline's, in order, each ending where --emit stops:
// RUN: FileCheck %s --check-prefix=VERIFY < %t/int8.verify.opt
// RUN: FileCheck %s --check-prefix=LLVM < %t/int8.llvm-dialect.opt
// VERIFY: linalg.matmul {npu.checkpoint = 0 : i64}
// VERIFY-NOT: npu.placement
// LLVM: llvm.func @npu_network_run()
// LLVM-NOT: npu.
