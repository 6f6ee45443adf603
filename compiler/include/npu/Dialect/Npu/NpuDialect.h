// The npu dialect: its attributes (NpuAttrs.td: placement, memory level,
// target). It has no ops: the schedule calls the runtime kernels.
#ifndef NPU_DIALECT_NPU_NPUDIALECT_H
#define NPU_DIALECT_NPU_NPUDIALECT_H

#include "mlir/IR/Attributes.h"
#include <string>
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "npu/Dialect/Npu/NpuDialect.h.inc"
#include "npu/Dialect/Npu/NpuEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "npu/Dialect/Npu/NpuAttrs.h.inc"

namespace mlir::npu {

// Discardable attribute names, shared by the verifier and the passes.
inline constexpr llvm::StringLiteral kMemAttrName = "npu.mem";
inline constexpr llvm::StringLiteral kPlacementAttrName = "npu.placement";
inline constexpr llvm::StringLiteral kMemoryUsageAttrName = "npu.memory_usage";
// {l2 = array<i64: base, size>, l3 = ...}: the regions the plan was made for.
inline constexpr llvm::StringLiteral kRegionsAttrName = "npu.regions";


} // namespace mlir::npu

#endif // NPU_DIALECT_NPU_NPUDIALECT_H
