// The npuc passes, declared in Passes.td.
#ifndef NPU_TRANSFORMS_PASSES_H
#define NPU_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "npu/Dialect/Npu/NpuDialect.h"

#include <memory>

namespace mlir::npu {

#define GEN_PASS_DECL
#include "npu/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "npu/Transforms/Passes.h.inc"

// One-shot bufferization of npu.conv_kernel (FuseConv.cpp).
void registerNpuBufferizationModels(DialectRegistry &registry);

} // namespace mlir::npu

#endif // NPU_TRANSFORMS_PASSES_H
