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
  // The `npu.*` discardable attributes are checked here so a misspelt or
  // mistyped override is an error at its op instead of being ignored.
  let hasOperationAttrVerify = 1;
}

#endif // NPU_DIALECT_NPUDIALECT_TD
