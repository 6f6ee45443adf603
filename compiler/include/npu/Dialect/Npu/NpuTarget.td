#ifndef NPU_DIALECT_NPUTARGET_TD
#define NPU_DIALECT_NPUTARGET_TD

include "mlir/IR/AttrTypeBase.td"
include "npu/Dialect/Npu/NpuDialect.td"

// #npu.target<...>: the platform a module is compiled for, attached once as
// the module attribute `npu.target` by -npu-attach-target from the config
// (common/config) so no later pass reads the config file again.
def Npu_TargetAttr : AttrDef<Npu_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the platform config facts the npu passes use";
  let description = [{
    Memory regions as base + size (absolute addresses, from the config's
    memory map), the systolic array's rows x cols, the worker harts (the
    cluster controller is one more) and each hart's stack, plus the config
    file, its overrides and the fingerprint of the effective config, which
    the manifest records.

    ```mlir
    module attributes {npu.target = #npu.target<config = "configs/gap9.cfg",
        overrides = [], fingerprint = 123, l1_base = 268435456, ...>}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"config file (empty: the built-in defaults)">:$config,
    "ArrayAttr":$overrides,
    "uint64_t":$fingerprint,
    "uint64_t":$l1_base,
    "uint64_t":$l1_size,
    "uint64_t":$l2_base,
    "uint64_t":$l2_size,
    "uint64_t":$l3_base,
    "uint64_t":$l3_size,
    "uint64_t":$sa_rows,
    "uint64_t":$sa_cols,
    "uint64_t":$workers,
    "uint64_t":$stack_size
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let extraClassDeclaration = [{
    // The module attribute name.
    static constexpr ::llvm::StringLiteral kAttrName = "npu.target";
    // The target of `op`'s module (or `op` itself if it is one), or null.
    static TargetAttr lookup(::mlir::Operation *op);
    // The stacks of every hart: the workers and the cluster controller.
    uint64_t getStacksBytes() const { return (getWorkers() + 1) * getStackSize(); }
  }];
}

#endif // NPU_DIALECT_NPUTARGET_TD
