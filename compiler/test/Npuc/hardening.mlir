// npuc's command line and inputs refuse what they cannot use with one
// located line (docs/robustness.md), and the `npu` script exits 2 on a bad
// command line like npusim (README's exit-code table).
// RUN: not npuc %networks/mlp_tiny_int8.mlir --inject-fault= 2>&1 | FileCheck %s --check-prefix=EMPTYFAULT
// RUN: not npuc %networks/mlp_tiny_int8.mlir --opt=99 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not npuc %S 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not npuc /dev/zero 2>&1 | FileCheck %s --check-prefix=DEV
// RUN: not npuc %networks/mlp_tiny_int8.mlir --emit=tiled --set l1.size=16KiB 2>&1 | FileCheck %s --check-prefix=NOL1
// A program that runs into the memory plan at the top of L2: npuc's message once, not lld's repeated
// assertion and the section overlaps it causes.
// RUN: not npuc %networks/mlp_int8.mlir -o %t.l2small --set l2.size=256KiB 2>&1 | FileCheck %s --check-prefix=L2SMALL
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]) != 2)" %python %npuc_src/npu run %t.nosuch.mlir 2>&1 | FileCheck %s --check-prefix=NPU

// EMPTYFAULT: npuc: error: --inject-fault needs a value
// OPT: npuc: error: --opt=99 is not an optimisation level (0-3)
// DIR: npuc: error: {{.*}}Npuc: is a directory, not a network file
// DEV: npuc: error: /dev/zero: is not a regular file
// NOL1: mlp_tiny_int8.mlir:20:11: error: L1 (16384 bytes) holds no tile buffers after the hart stacks (18432 bytes) and l1-reserve (1024 bytes): lower firmware.stack_size (npuc --set firmware.stack_size=...) or raise l1.size
// L2SMALL: npuc: error: the program's code and data do not fit in L2 below npuc's memory plan, which starts at 0x{{[0-9a-f]+}}
// L2SMALL-SAME: place the weights in L3 (--default-mem-level=L3)
// L2SMALL-NOT: ld.lld
// L2SMALL-NOT: overlaps
// NPU: npu: error: no such network: {{.*}}nosuch.mlir
