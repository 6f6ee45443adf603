#ifndef NPU_DIALECT_NPUDIALECT_TD
#define NPU_DIALECT_NPUDIALECT_TD

include "mlir/IR/OpBase.td"

def Npu_Dialect : Dialect {
  let name = "npu";
  let cppNamespace = "::mlir::npu";
  let summary = "Placement and scheduling vocabulary of the npusim NPU";
  let description = [{
    Attributes that describe where tensors live
    in the NPU memory hierarchy (L2, L3) and how they move. The platform
    facts behind them (region bases and sizes) come from the shared config
    library, never from constants in the compiler.
  }];
  let useDefaultAttributePrinterParser = 1;
  // The pass-to-pass contracts: every `npu.*` discardable attribute a pass
  // writes or reads, with its type. Each gets a generated helper on the
  // dialect (e.g. `NpuDialect::TilesAttrHelper`: getName, getAttr, setAttr,
  // isAttrPresent, removeAttr), so no pass spells an attribute name.
  let discardableAttrs = (ins
    // Inputs and the memory plan (npu-memory-plan).
    "::mlir::npu::MemLevelAttr":$mem,             // requested level (user)
    "::mlir::npu::PlacementAttr":$placement,      // planned buffer
    "::mlir::DictionaryAttr":$memory_usage,       // {l2, l3}: peak bytes
    "::mlir::DictionaryAttr":$regions,            // {l2, l3}: [base, size]
    "::mlir::UnitAttr":$staging,                  // DMA copy between levels
    // The materialized plan (npu-materialize-plan).
    "::mlir::StringAttr":$network,                // the network's function
    "::mlir::ArrayAttr":$inputs,                  // #npu.placement per input
    "::mlir::ArrayAttr":$outputs,                 // #npu.placement per output
    "::mlir::StringAttr":$section,                // linker section of a global
    // Tiling (npu-tile) and the schedule (npu-schedule).
    "::mlir::DenseI64ArrayAttr":$tiles,           // [tm, tn, tk]
    "::mlir::UnitAttr":$params_in_l2,             // a fused layer's epilogue parameters stay in L2
    "::mlir::IntegerAttr":$l1_bytes,              // double-buffered working set
    "::mlir::IntegerAttr":$l1_budget,             // L1 bytes the tiles may use
    "::mlir::DenseI64ArrayAttr":$sa,              // [rows, cols]
    "::mlir::IntegerAttr":$b_panels,              // constant weights stored in column panels this wide
    "::mlir::IntegerAttr":$split_dim,             // loop the workers split
    "::mlir::UnitAttr":$zero_init,                // first SA job overwrites C
    "::mlir::StringAttr":$region,                 // region marker's name
    "::mlir::IntegerAttr":$macs,                  // MACs of a region's layer
    // Layer results npusim compares with the golden (npuc).
    "::mlir::IntegerAttr":$checkpoint,
    // Training (npu-derive-training): the module's step description
    // {steps, batch, lr, loss, classes, data_inputs, outputs}, an in-place
    // SGD update of a trainable weight (its result takes the weight's
    // buffer), a weight the SGD updates, an activation the backward reads.
    "::mlir::DictionaryAttr":$training,
    "::mlir::UnitAttr":$sgd_update,
    "::mlir::UnitAttr":$trainable,
    "::mlir::UnitAttr":$kept_for_backward
  );
  // The `npu.*` discardable attributes are checked here so a misspelt or
  // mistyped override is an error at its op instead of being ignored.
  let hasOperationAttrVerify = 1;
}

#endif // NPU_DIALECT_NPUDIALECT_TD
