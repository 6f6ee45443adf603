// npuc --march: extensions npusim does not run, and an ISA without f (the
// runtime's ilp32f ABI needs it: rv32i printed an empty "npuc: error: ",
// rv32im LLVM's warning and then linked two ABIs), are refused by name.
// RUN: not npuc %s --march=rv32i -o %t.i 2>&1 | FileCheck %s --check-prefix=NOF
// RUN: not npuc %s --march=rv32im -o %t.im 2>&1 | FileCheck %s --check-prefix=NOF
// RUN: not npuc %s --march=rv32imafv -o %t.v 2>&1 | FileCheck %s --check-prefix=EXT
// RUN: not npuc %s --march=rv64imaf -o %t.64 2>&1 | FileCheck %s --check-prefix=RV64
// RUN: npuc %s --march=rv32imf_xcvmem -o %t.ok 2>&1 | FileCheck %s --check-prefix=OK

// NOF: npuc: error: -march 'rv32i{{m?}}' has no 'f': npuc's code and the firmware runtime use the ilp32f ABI
// EXT: npuc: error: -march 'rv32imafv': extension 'v' is not one npusim runs
// RV64: npuc: error: -march 'rv64imaf' does not start with rv32i
// OK: npuc: net -> {{.*}}firmware.elf

func.func @net(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.add ins(%a, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
