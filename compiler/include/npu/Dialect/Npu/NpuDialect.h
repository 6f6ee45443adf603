// The npu dialect: its attributes (NpuAttrs.td: placement, memory level,
// target) and one op, npu.conv_kernel (NpuOps.td: a conv layer with its
// epilogue fused, lowered to one runtime call).
#ifndef NPU_DIALECT_NPU_NPUDIALECT_H
#define NPU_DIALECT_NPU_NPUDIALECT_H

#include "mlir/IR/Attributes.h"
#include <string>
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

// The attributes first: the dialect's discardable-attribute helpers
// (NpuDialect.td) take and return them.
#include "npu/Dialect/Npu/NpuEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "npu/Dialect/Npu/NpuAttrs.h.inc"

#include "npu/Dialect/Npu/NpuDialect.h.inc"

#define GET_OP_CLASSES
#include "npu/Dialect/Npu/NpuOps.h.inc"

namespace mlir::npu {

// Names of the attributes also set on function arguments (which the per-op
// helpers NpuDialect::*AttrHelper do not reach) or looked up in dictionaries;
// spelled by the generated helpers, so there is one source of each name.
inline constexpr llvm::StringLiteral kMemAttrName =
    NpuDialect::MemAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kPlacementAttrName =
    NpuDialect::PlacementAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kMemoryUsageAttrName =
    NpuDialect::MemoryUsageAttrHelper::getNameStr();
inline constexpr llvm::StringLiteral kRegionsAttrName =
    NpuDialect::RegionsAttrHelper::getNameStr();

} // namespace mlir::npu

#endif // NPU_DIALECT_NPU_NPUDIALECT_H
