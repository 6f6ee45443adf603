#ifndef NPU_DIALECT_NPUATTRS_TD
#define NPU_DIALECT_NPUATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "npu/Dialect/Npu/NpuDialect.td"

def Npu_MemLevel : I32EnumAttr<"MemLevel", "memory level holding a tensor", [
    I32EnumAttrCase<"L2", 2, "L2">,
    I32EnumAttrCase<"L3", 3, "L3">
  ]> {
  let cppNamespace = "::mlir::npu";
  let genSpecializedAttr = 0;
}

// #npu.mem<L3>: the level a tensor is requested to live in (an override put
// on a weight by the user, or read by later stages).
def Npu_MemLevelAttr : EnumAttr<Npu_Dialect, Npu_MemLevel, "mem"> {
  let assemblyFormat = "`<` $value `>`";
}

// #npu.placement<L2, address = 0x1C000040, size = 1024>: the memory plan's
// decision for one tensor buffer. The address is absolute (region base +
// offset) because that is what DMA descriptors and reports use.
def Npu_PlacementAttr : AttrDef<Npu_Dialect, "Placement"> {
  let mnemonic = "placement";
  let summary = "memory level, absolute address and byte size of a tensor";
  let parameters = (ins
    EnumParameter<Npu_MemLevel>:$level,
    "uint64_t":$address,
    "uint64_t":$size
  );
  let hasCustomAssemblyFormat = 1;
}

// The target (#npu.target), in a file of its own.
include "npu/Dialect/Npu/NpuTarget.td"

#endif // NPU_DIALECT_NPUATTRS_TD
