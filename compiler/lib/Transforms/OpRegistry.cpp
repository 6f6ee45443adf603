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
#include "mlir/IR/BuiltinTypes.h"

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
    // A dense layer with its epilogue (npu-fuse-matmul): npurt_matmul_ep.
    {"npu.matmul_kernel", is<MatmulKernelOp>, nullptr, lowerToSystolicArray,
     /*startsLayer=*/true},
    // Views: the same buffer under another shape (flattening before the
    // fully connected layer).
    {"tensor.collapse_shape", is<tensor::CollapseShapeOp>, verifyValueTypes,
     nullptr},
    {"tensor.expand_shape", is<tensor::ExpandShapeOp>, verifyValueTypes,
     nullptr},
    {"linalg.fill", is<linalg::FillOp>, verifyValueTypes, lowerToWorkers},
    {"linalg.generic (elementwise or reducing, arith/math body)",
     is<linalg::GenericOp>, verifyElementwise, lowerToWorkers},
    // Rewritten by npu-legalize-linalg (the first pass) into the forms
    // above; listed so the diagnostic names everything npuc takes.
    {"linalg.matmul_transpose_a/_b, batch_matmul, conv_2d_nchw_fchw, "
     "softmax, transpose, broadcast, reduce, map, the named elementwise ops, "
     "pooling_nhwc_max/min (via npu-legalize-linalg)",
     is<linalg::MatmulTransposeAOp, linalg::MatmulTransposeBOp,
        linalg::BatchMatmulOp, linalg::Conv2DNchwFchwOp, linalg::SoftmaxOp,
        linalg::TransposeOp, linalg::BroadcastOp, linalg::ReduceOp,
        linalg::MapOp, linalg::ElemwiseUnaryOp, linalg::ElemwiseBinaryOp,
        linalg::ExpOp, linalg::LogOp, linalg::AbsOp, linalg::CeilOp,
        linalg::FloorOp, linalg::NegFOp, linalg::ReciprocalOp, linalg::RoundOp,
        linalg::SqrtOp, linalg::RsqrtOp, linalg::SquareOp, linalg::TanhOp,
        linalg::ErfOp, linalg::AddOp, linalg::SubOp, linalg::MulOp,
        linalg::DivOp, linalg::DivUnsignedOp, linalg::MaxOp, linalg::MinOp,
        linalg::PowFOp, linalg::SelectOp, linalg::PoolingNhwcMaxOp,
        linalg::PoolingNhwcMinOp, linalg::PoolingNhwcMaxUnsignedOp,
        linalg::PoolingNhwcMinUnsignedOp>,
     verifyLegalized, nullptr},
    // Concatenation: each part a copy into its slice of the result, on the
    // workers.
    {"tensor.concat, tensor.insert_slice (via npu-legalize-linalg)",
     is<tensor::ConcatOp, tensor::InsertSliceOp>, verifyLegalized, nullptr},
    {"tensor.empty", is<tensor::EmptyOp>, verifyValueTypes, nullptr},
    {"arith.constant", is<arith::ConstantOp>, verifyValueTypes, nullptr},
    // npu-memory-plan's staging copies between levels and
    // npu-materialize-plan's copies into a result's own buffer.
    {"linalg.copy", is<linalg::CopyOp>, nullptr, lowerCopy},
};

} // namespace

ArrayRef<OpEntry> mlir::npu::opRegistry() { return kOps; }

std::optional<unsigned> mlir::npu::workerSplitDim(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> best;
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (iterators[d] != utils::IteratorType::parallel)
      continue;
    bool ok = true;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = op.getMatchingIndexingMap(&operand);
      unsigned plain = 0, inside = 0;
      for (AffineExpr e : map.getResults()) {
        if (e == getAffineDimExpr(d, op->getContext()))
          ++plain;
        else if (e.isFunctionOfDim(d))
          ++inside;
      }
      if (inside || plain > 1 || (op.isDpsInit(&operand) && plain != 1))
        ok = false;
    }
    if (ok && (!best || ranges[d] > ranges[*best]))
      best = d;
  }
  return best;
}

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
