// The op registry (OpRegistry.h). To compile a new op: add an entry here,
// with a verify hook (its type and shape rules, VerifySupported.cpp) and a
// lowering hook (the engine that runs it, Schedule.cpp), and a lit test of
// each.
#include "OpRegistry.h"
#include "npu/Dialect/Npu/NpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::npu;

namespace {

template <typename... Ops> bool is(Operation *op) { return isa<Ops...>(op); }

const OpEntry kOps[] = {
    {"func.func", is<func::FuncOp>, verifyFunction, nullptr},
    {"func.return", is<func::ReturnOp>, verifyValueTypes, nullptr},
    {"linalg.matmul", is<linalg::MatmulOp>, verifyMatmul, lowerToSystolicArray,
     /*startsLayer=*/true},
    // Convolution layers: npu-fuse-conv folds the padding and the epilogue
    // into one npu.conv_kernel, which npu-schedule lowers to one runtime
    // call (npurt_conv2d on the SA, npurt_dwconv2d / npurt_pool2d on the
    // workers).
    {"linalg.conv_2d_nhwc_hwcf", is<linalg::Conv2DNhwcHwcfOp>, verifyConvLike,
     nullptr},
    {"linalg.depthwise_conv_2d_nhwc_hwc", is<linalg::DepthwiseConv2DNhwcHwcOp>,
     verifyConvLike, nullptr},
    {"linalg.pooling_nhwc_sum", is<linalg::PoolingNhwcSumOp>, verifyConvLike,
     nullptr},
    {"tensor.pad (zero, into a convolution)", is<tensor::PadOp>, verifyPad,
     nullptr},
    {"npu.conv_kernel", is<ConvKernelOp>, nullptr, lowerConvKernel,
     /*startsLayer=*/true},
    // Views: the same buffer under another shape (flattening before the
    // fully connected layer).
    {"tensor.collapse_shape", is<tensor::CollapseShapeOp>, verifyValueTypes,
     nullptr},
    {"tensor.expand_shape", is<tensor::ExpandShapeOp>, verifyValueTypes,
     nullptr},
    {"linalg.fill", is<linalg::FillOp>, verifyValueTypes, lowerToWorkers},
    {"elementwise linalg.generic", is<linalg::GenericOp>, verifyElementwise,
     lowerToWorkers},
    {"tensor.empty", is<tensor::EmptyOp>, verifyValueTypes, nullptr},
    {"arith.constant", is<arith::ConstantOp>, verifyValueTypes, nullptr},
    // npu-memory-plan's staging copies between levels and
    // npu-materialize-plan's copies into a result's own buffer.
    {"linalg.copy", is<linalg::CopyOp>, nullptr, lowerCopy},
};

} // namespace

ArrayRef<OpEntry> mlir::npu::opRegistry() { return kOps; }

const OpEntry *mlir::npu::lookupOp(Operation *op) {
  for (const OpEntry &entry : kOps)
    if (entry.matches(op))
      return &entry;
  return nullptr;
}

const std::string &mlir::npu::supportedOpList() {
  static const std::string list = [] {
    std::string text;
    for (const OpEntry &entry : kOps) {
      if (!entry.verify)
        continue;
      if (!text.empty())
        text += ", ";
      text += entry.name.str();
    }
    return text;
  }();
  return list;
}
