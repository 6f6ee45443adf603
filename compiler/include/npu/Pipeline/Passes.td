#ifndef NPU_PIPELINE_PASSES_TD
#define NPU_PIPELINE_PASSES_TD

include "mlir/Pass/PassBase.td"

// The module-level rewrites around the npu passes that npuc once did by hand
// in its driver. buildNpuPipeline (npu/Pipeline/Pipeline.h) places them.

def NpuAttachTarget : Pass<"npu-attach-target", "ModuleOp"> {
  let summary = "Read the platform config once and attach it as #npu.target";
  let description = [{
    Phase `verify`, first. Loads the config (common/config: the file, then
    the `set=` overrides, as npusim does) and sets the module attribute
    `npu.target = #npu.target<...>`: the L1/L2/L3 regions, the SA shape,
    the worker count and stack size, the config path, overrides and
    fingerprint. -npu-memory-plan, -npu-tile and -npu-schedule read the
    platform from it and fail without it. A bad file or override is an
    error naming it.
  }];
  let dependentDialects = ["::mlir::npu::NpuDialect"];
  let options = [
    Option<"configPath", "config", "std::string", /*default=*/"\"\"",
           "Platform config file (INI); empty = the built-in defaults (gap9)">,
    ListOption<"configOverrides", "set", "std::string",
               "Config overrides key=value (as npusim --key=value)">
  ];
}

def NpuTagCheckpoints : Pass<"npu-tag-checkpoints", "ModuleOp"> {
  let summary = "Mark the per-layer results npusim checks against the golden";
  let description = [{
    Phase `verify`, before anything else (the golden reference is cloned
    after it, so the host computes the same checkpoints). Every linalg
    result (not a `linalg.fill`) with one statically shaped int/float
    tensor result that another op reads other than as the buffer it
    accumulates into, and that is not returned, gets
    `npu.checkpoint = <n>`, numbered in walk order. npusim reads each on
    the device when the region of its op ends (docs/bug-classes.md, item 6: errors per
    layer, not only per output).
  }];
}

def NpuReturnCheckpoints : Pass<"npu-return-checkpoints", "ModuleOp"> {
  let summary = "Return the checkpointed results after the outputs (golden)";
  let description = [{
    For the host golden reference: the network function returns, after its
    outputs, the result of every op tagged `npu.checkpoint`, in checkpoint
    order, so golden.bin holds them after the outputs.
  }];
}

def NpuInputGlobals : Pass<"npu-input-globals", "ModuleOp"> {
  let summary = "Add the deterministic input data at the inputs' planned addresses";
  let description = [{
    Phase `bufferize`, after -npu-materialize-plan. For input k (placement
    `npu.inputs[k]`) a public constant `memref.global @npu_input_<k>` of
    bytes holding the documented input pattern (docs/compiler.md), with
    `npu.section = ".npu.plan.npu_input_<k>"` and the input's placement:
    the linker puts it at the planned address like a weight.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"inputFile", "input-file", "std::string", /*default=*/"\"\"",
           "Input 0's data (.npy or raw .bin of the input's type and size) "
           "instead of the pattern">
  ];
}

def NpuCheckNoAlloc : Pass<"npu-check-no-alloc", "ModuleOp"> {
  let summary = "Fail on a memref.alloc left by bufferization";
  let description = [{
    After one-shot bufferization every buffer must be one the memory plan
    holds; a `memref.alloc` means bufferization needed another one, which
    npuc cannot place. Each is an error at its location.
  }];
}

def NpuStripAttributes : Pass<"npu-strip-attributes", "ModuleOp"> {
  let summary = "Drop every npu.* discardable attribute before the LLVM lowering";
  let description = [{
    Phase `llvm-dialect`, first: the lowering and the LLVM IR translation
    see plain upstream IR. What the driver needs from the plan is gathered
    before (npu::collectScheduledPlan).
  }];
}

def NpuHostEntry : Pass<"npu-host-entry", "ModuleOp"> {
  let summary = "Wrap the bufferized network in npu_network_run() for the host";
  let description = [{
    For the golden reference, on the bufferized unplanned network (identity
    layouts at the function boundary): adds `npu_input` (the input pattern,
    every input 16-byte aligned), `npu_output`, `npu_input_size`,
    `npu_output_size` and `npu_network_run()`, which calls the network on
    views of npu_input and copies its results into npu_output.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"inputFile", "input-file", "std::string", /*default=*/"\"\"",
           "Input 0's data (.npy or raw .bin of the input's type and size) "
           "instead of the pattern">
  ];
}

#endif // NPU_PIPELINE_PASSES_TD
