// -npu-attach-target reads the platform config once and attaches it to the
// module as #npu.target; the memory plan, tiling and schedule read it from
// there and fail without it.
// RUN: npuc-opt %s -npu-attach-target | FileCheck %s --check-prefix=GAP9
// RUN: npuc-opt %s '-npu-attach-target=config=%npuc_src/configs/siracusa.cfg set=l1.size=64KiB,sa.rows=8' | FileCheck %s --check-prefix=SET
// RUN: not npuc-opt %s '-npu-attach-target=config=%S/no-such.cfg' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not npuc-opt %s '-npu-attach-target=set=l1.size=banana' 2>&1 | FileCheck %s --check-prefix=BADSET
// RUN: not npuc-opt %s '-npu-attach-target=set=firmware.code_region=l1' 2>&1 | FileCheck %s --check-prefix=CODEL1
// RUN: not npuc-opt %s '-npu-attach-target=set=cluster.workers=0' 2>&1 | FileCheck %s --check-prefix=NOWORKERS
// RUN: not npuc-opt %s -npu-memory-plan 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not npuc-opt %s -npu-tile 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not npuc-opt %s -npu-schedule 2>&1 | FileCheck %s --check-prefix=NOTARGET
// The attribute round-trips.
// RUN: npuc-opt %s -npu-attach-target | npuc-opt | FileCheck %s --check-prefix=GAP9

// GAP9: module attributes {npu.target = #npu.target<config = "", overrides = [], fingerprint = {{[0-9]+}}, l1_base = 268435456, l1_size = 131072, l2_base = 469762048, l2_size = 1572864, l3_base = 2147483648, l3_size = 8388608, sa_rows = 16, sa_cols = 16, workers = 8, stack_size = 2048>}
// SET: #npu.target<config = "{{.*}}siracusa.cfg", overrides = ["l1.size=64KiB", "sa.rows=8"], {{.*}}, l1_size = 65536, {{.*}}, sa_rows = 8,
// MISSING: error: cannot read the platform config: {{.*}}no-such.cfg
// BADSET: error: cannot read the platform config: {{.*}}l1.size
// CODEL1: error: firmware.code_region = l1: npuc links the program into l2 (its plan uses all of L1 but the hart stacks for tiles); compile with firmware.code_region = l2
// NOWORKERS: error: cluster.workers = 0: npuc's kernels run on the cluster's workers
// NOTARGET: error: no platform: run -npu-attach-target first
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
