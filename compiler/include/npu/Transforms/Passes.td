#ifndef NPU_TRANSFORMS_PASSES_TD
#define NPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NpuVerifySupported : Pass<"npu-verify-supported", "ModuleOp"> {
  let summary = "Reject every op and type npuc cannot compile";
  let description = [{
    Stage 1 of the pipeline. Accepts one or more `func.func` bodies made of
    `linalg.matmul` (i8 x i8 -> i32 or f32), elementwise `linalg.generic`
    (all loops parallel, projected-permutation maps: bias add, ReLU/clamp,
    int8 requantization) over `arith` ops, `linalg.fill`, `tensor.empty`
    and `arith.constant` (weights, scalars). Tensors must be statically
    shaped with element type i8, i32 or f32. Every violation is reported at
    the offending op's location; the pass then fails. It never asserts on
    bad input.
  }];
}

def NpuMemoryPlan : Pass<"npu-memory-plan", "ModuleOp"> {
  let summary = "Place every weight and activation in L2 or L3";
  let description = [{
    Stage 2 of the pipeline. Reads the platform config, treats every tensor
    buffer (function argument, weight constant, `tensor.empty` root; a DPS
    result shares its init's buffer) as an interval [first def, last use],
    and packs the buffers of each level by greedy first-fit (largest
    first) so buffers with disjoint lifetimes may share bytes. Weights are
    live for the whole function. Every tensor-producing op gets
    `npu.placement = #npu.placement<level, address = ..., size = ...>`,
    function arguments get it as an argument attribute, and the module gets
    `npu.memory_usage`. If a level overflows, the error says by how many
    bytes.
  }];
  // The plan is written as #npu.placement attributes.
  let dependentDialects = ["::mlir::npu::NpuDialect"];
  let options = [
    Option<"configPath", "config", "std::string", /*default=*/"\"\"",
           "Platform config file (INI); empty = the built-in defaults (gap9)">,
    Option<"defaultMemLevel", "default-mem-level", "std::string",
           /*default=*/"\"L2\"",
           "Level for tensors without an npu.mem override: L2 or L3">,
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "Byte alignment of every buffer (a power of two)">,
    Option<"l2Reserve", "l2-reserve", "uint64_t", /*default=*/"0",
           "Bytes at the start of L2 kept free for the firmware image">
  ];
}

def NpuPrintMemoryPlan : Pass<"npu-print-memory-plan", "ModuleOp"> {
  let summary = "Print the memory plan as a table (stdout)";
  let description = [{
    Reads the `npu.placement` attributes left by -npu-memory-plan and prints
    one row per planned tensor: level, address, bytes, kind (input, weight,
    activation, output), type and the op and location that produce it,
    sorted by level and address, then each level's peak. tensor.empty rows
    are left out: their buffer is listed under the op that writes it. The
    IR is not changed. A function without a plan is an error.
  }];
}

#endif // NPU_TRANSFORMS_PASSES_TD
