// npuc's command line and inputs refuse what they cannot use with one
// located line (docs/robustness.md), and the `npu` script exits 2 on a bad
// command line like npusim (README's exit-code table).
// RUN: not npuc %networks/mlp_tiny_int8.mlir --inject-fault= 2>&1 | FileCheck %s --check-prefix=EMPTYFAULT
// RUN: not npuc %networks/mlp_tiny_int8.mlir --opt=99 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not npuc %S 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not npuc /dev/zero 2>&1 | FileCheck %s --check-prefix=DEV
// RUN: not npuc %networks/mlp_tiny_int8.mlir --emit=tiled --set l1.size=16KiB 2>&1 | FileCheck %s --check-prefix=NOL1
// RUN: %python -c "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:]) != 2)" %python %npuc_src/npu run %t.nosuch.mlir 2>&1 | FileCheck %s --check-prefix=NPU

// EMPTYFAULT: npuc: error: --inject-fault needs a value
// OPT: npuc: error: --opt=99 is not an optimisation level (0-3)
// DIR: npuc: error: {{.*}}Npuc: is a directory, not a network file
// DEV: npuc: error: /dev/zero: is not a regular file
// NOL1: mlp_tiny_int8.mlir:20:11: error: L1 (16384 bytes) holds no tile buffers after the hart stacks (18432 bytes) and l1-reserve (1024 bytes): lower firmware.stack_size (npuc --set firmware.stack_size=...) or raise l1.size
// NPU: npu: error: no such network: {{.*}}nosuch.mlir
