// Region bases and sizes come from the config file: on siracusa (2 MiB L2)
// the 1.56 MiB input that overflows gap9's L2 fits.
// RUN: npuc-opt %s '-npu-attach-target=config=%npuc_src/configs/siracusa.cfg' -npu-memory-plan | FileCheck %s
// RUN: not npuc-opt %s '-npu-attach-target=config=%npuc_src/configs/gap9.cfg' -npu-memory-plan 2>&1 | FileCheck %s --check-prefix=GAP9
// RUN: not npuc-opt %s '-npu-attach-target=config=%S/no-such.cfg' -npu-memory-plan 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: npu.memory_usage = {l2 = 1638400 : i64, l3 = 0 : i64}
// GAP9: error: model does not fit in L2: needs 1638400 bytes, the region holds 1572864 bytes (65536 bytes over)
// MISSING: error: cannot read the platform config: {{.*}}no-such.cfg
func.func @big(%x: tensor<1024x1600xi8>) -> tensor<1024x1600xi8> {
  return %x : tensor<1024x1600xi8>
}
