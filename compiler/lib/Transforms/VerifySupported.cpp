// npu-verify-supported: the gate in front of the pipeline. Everything later
// stages cannot compile is rejected here with a diagnostic at the op that
// uses it, so no later pass has to defend against surprising input. Which
// ops are accepted, and how each is checked, is the op registry's
// (OpRegistry.cpp); the checks themselves are here.
#include "OpRegistry.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::npu {
#define GEN_PASS_DEF_NPUVERIFYSUPPORTED
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

// Element types the DMA/SA/worker kernels will exist for. i64 tensors are
// the per-channel requantisation multipliers and shifts of int8 networks
// (constants read by the workers' epilogues).
bool isSupportedElementType(Type type) {
  return type.isSignlessInteger(8) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64) || type.isF32();
}

// Scalars inside elementwise bodies: requantization needs i64 products and
// i1 comparisons besides the tensor element types.
bool isSupportedScalarType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, intType.getWidth());
  return type.isF32() || type.isIndex();
}

bool isSupportedBodyOp(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AddFOp,
             arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::MaxSIOp,
             arith::MinSIOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::ExtSIOp,
             arith::TruncIOp, arith::SIToFPOp, arith::FPToSIOp, arith::ShRSIOp,
             arith::ShLIOp, arith::AndIOp, arith::CmpIOp, arith::CmpFOp,
             arith::SelectOp, arith::ConstantOp, math::ExpOp, math::LogOp,
             linalg::YieldOp>(op);
}

} // namespace

class mlir::npu::SupportChecker {
public:
  // Returns false (after emitting at `loc`) if `type` is not accepted.
  bool checkType(Type type, Location loc, bool insideBody) {
    if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
      if (insideBody)
        fail(loc, "tensor values inside an elementwise body are not "
                  "supported");
      else if (!tensorType.hasStaticShape())
        fail(loc, "tensor type ")
            << type << " has a dynamic shape; npuc needs static shapes";
      else if (!isSupportedElementType(tensorType.getElementType()))
        fail(loc, "element type ")
            << tensorType.getElementType()
            << " is not supported (supported: i8, i32, i64, f32)";
      else if (tensorType.getEncoding())
        fail(loc, "tensor encodings are not supported");
      else
        return true;
      return false;
    }
    if (isa<UnrankedTensorType>(type))
      fail(loc, "unranked tensors are not supported");
    else if (isa<BaseMemRefType>(type))
      fail(loc, "memref values are not supported: npuc takes a tensor-level "
                "module and does its own placement");
    else if (!isSupportedScalarType(type))
      fail(loc, "type ") << type << " is not supported";
    else
      return true;
    return false;
  }

  bool checkValueTypes(Operation *op, bool insideBody) {
    bool ok = true;
    for (Type type : op->getOperandTypes())
      ok &= checkType(type, op->getLoc(), insideBody);
    for (Type type : op->getResultTypes())
      ok &= checkType(type, op->getLoc(), insideBody);
    return ok;
  }

  void checkFunction(func::FuncOp func) {
    if (func.isExternal()) {
      fail(func.getLoc(), "function declarations are not supported; the "
                          "network must be one function with a body");
      return;
    }
    for (Type type : func.getArgumentTypes())
      checkType(type, func.getLoc(), /*insideBody=*/false);
    for (Type type : func.getResultTypes())
      checkType(type, func.getLoc(), /*insideBody=*/false);
    if (!func.getBody().hasOneBlock()) {
      fail(func.getLoc(), "functions with control flow (several blocks) are "
                          "not supported");
      return;
    }
    for (Operation &op : func.getBody().front())
      checkTopLevelOp(&op);
  }

  void checkTopLevelOp(Operation *op) {
    const OpEntry *entry = lookupOp(op);
    if (entry && entry->verify) {
      entry->verify(*this, op);
      return;
    }
    op->emitOpError("is not supported by npuc (supported: ")
        << supportedOpList() << ")";
    failed = true;
  }

  void checkMatmul(linalg::MatmulOp matmul) {
    if (!checkValueTypes(matmul, /*insideBody=*/false))
      return;
    auto elementOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
    Type a = elementOf(matmul.getDpsInputs()[0]);
    Type b = elementOf(matmul.getDpsInputs()[1]);
    Type c = elementOf(matmul.getDpsInits()[0]);
    bool int8 = a.isSignlessInteger(8) && b.isSignlessInteger(8) &&
                c.isSignlessInteger(32);
    bool fp32 = a.isF32() && b.isF32() && c.isF32();
    if (!int8 && !fp32) {
      matmul.emitOpError("operand types ")
          << a << " x " << b << " -> " << c
          << " are not supported (supported: i8 x i8 -> i32, f32 x f32 -> "
             "f32)";
      failed = true;
    }
    // linalg.matmul's default body is a plain multiply-add; a cast attribute
    // (unsigned extension) would change its meaning for int8.
    if (matmul->hasAttr("cast")) {
      matmul.emitOpError("with a cast attribute is not supported");
      failed = true;
    }
  }

  void checkElementwise(linalg::GenericOp generic) {
    if (!checkValueTypes(generic, /*insideBody=*/false))
      return;
    if (llvm::any_of(generic.getIteratorTypesArray(),
                     [](utils::IteratorType t) {
                       return t != utils::IteratorType::parallel;
                     })) {
      generic.emitOpError("with a reduction loop is not supported (only "
                          "elementwise generics: all loops parallel)");
      failed = true;
      return;
    }
    for (OpOperand &operand : generic->getOpOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      bool isInit = generic.isDpsInit(&operand);
      // Inputs may broadcast (bias over rows); outputs are written densely.
      if (isInit ? !map.isIdentity() : !map.isProjectedPermutation()) {
        generic.emitOpError("indexing map ")
            << AffineMapAttr::get(map) << " of operand #"
            << operand.getOperandNumber()
            << " is not supported (inputs: projected permutations, "
               "outputs: identity)";
        failed = true;
        return;
      }
    }
    for (BlockArgument arg : generic.getBody()->getArguments())
      checkType(arg.getType(), generic.getLoc(), /*insideBody=*/true);
    for (Operation &bodyOp : *generic.getBody()) {
      if (!isSupportedBodyOp(&bodyOp)) {
        bodyOp.emitOpError("is not supported inside an elementwise "
                           "linalg.generic");
        failed = true;
        continue;
      }
      checkValueTypes(&bodyOp, /*insideBody=*/true);
    }
  }

  // Convolutions, depthwise convolutions and sum pooling (NHWC, batch 1):
  // what npurt_conv2d / npurt_dwconv2d / npurt_pool2d run. npu-fuse-conv
  // then checks that each accumulates into a zero fill and feeds one
  // epilogue it can fold into the call.
  void checkConvLike(linalg::LinalgOp op) {
    if (!checkValueTypes(op, /*insideBody=*/false))
      return;
    auto elementOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
    Type in = elementOf(op.getDpsInputs()[0]),
         out = elementOf(op.getDpsInits()[0]);
    bool pool = isa<linalg::PoolingNhwcSumOp>(op);
    Type w = pool ? in : elementOf(op.getDpsInputs()[1]);
    bool int8 = in.isSignlessInteger(8) && w.isSignlessInteger(8) &&
                out.isSignlessInteger(32);
    bool fp32 = in.isF32() && w.isF32() && out.isF32();
    if (!int8 && !fp32) {
      op->emitOpError("operand types ")
          << in << " x " << w << " -> " << out
          << " are not supported (supported: i8 x i8 -> i32, f32 x f32 -> f32)";
      failed = true;
      return;
    }
    auto input = cast<RankedTensorType>(op.getDpsInputs()[0].getType());
    if (input.getDimSize(0) != 1) {
      op->emitOpError("batch ")
          << input.getDimSize(0)
          << " is not supported (the conv kernels run batch 1)";
      failed = true;
    }
    for (StringRef name : {"strides", "dilations"}) {
      auto attr = op->getAttrOfType<DenseIntElementsAttr>(name);
      if (!attr)
        continue;
      for (APInt v : attr.getValues<APInt>())
        if (v.getSExtValue() < 1 || v.getSExtValue() > 255) {
          op->emitOpError(name)
              << " " << v.getSExtValue() << " is not supported (1..255)";
          failed = true;
        }
    }
    if (pool) {
      auto dil = op->getAttrOfType<DenseIntElementsAttr>("dilations");
      if (dil && llvm::any_of(dil.getValues<APInt>(),
                              [](APInt v) { return v != 1; })) {
        op->emitOpError(
            "dilated pooling is not supported (npurt_pool2d: dilation 1)");
        failed = true;
      }
    }
  }

  // A zero padding along H and W, read only by convolutions (npu-fuse-conv
  // folds it into the kernel call's padding; nothing pads on its own).
  void checkPad(tensor::PadOp pad) {
    if (!checkValueTypes(pad, /*insideBody=*/false))
      return;
    Value value = pad.getConstantPaddingValue();
    auto isZero = [](Value v) {
      Attribute a;
      if (!v || !matchPattern(v, m_Constant(&a)))
        return false;
      if (auto i = dyn_cast<IntegerAttr>(a))
        return i.getValue().isZero();
      if (auto f = dyn_cast<FloatAttr>(a))
        return f.getValue().isZero() && !f.getValue().isNegative();
      return false;
    };
    if (!isZero(value)) {
      pad.emitOpError("only zero padding is supported (the padding value "
                      "must be a constant 0)");
      failed = true;
    }
    if (!pad.getLow().empty() || !pad.getHigh().empty()) {
      pad.emitOpError("dynamic padding amounts are not supported");
      failed = true;
      return;
    }
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    if (low.size() != 4 || low[0] || low[3] || high[0] || high[3]) {
      pad.emitOpError("only padding along H and W of an NHWC tensor is "
                      "supported (it becomes the convolution's padding)");
      failed = true;
    }
    for (Operation *user : pad->getUsers())
      if (!isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp>(
              user)) {
        pad.emitOpError("is read by '")
            << user->getName()
            << "': a tensor.pad is supported only as the input of a "
               "convolution (folded into its padding)";
        failed = true;
        return;
      }
  }

  InFlightDiagnostic fail(Location loc, const Twine &message) {
    failed = true;
    return emitError(loc, message);
  }

  bool failed = false;
};

void mlir::npu::verifyFunction(SupportChecker &checker, Operation *op) {
  checker.checkFunction(cast<func::FuncOp>(op));
}

void mlir::npu::verifyValueTypes(SupportChecker &checker, Operation *op) {
  checker.checkValueTypes(op, /*insideBody=*/false);
}

void mlir::npu::verifyMatmul(SupportChecker &checker, Operation *op) {
  checker.checkMatmul(cast<linalg::MatmulOp>(op));
}

void mlir::npu::verifyElementwise(SupportChecker &checker, Operation *op) {
  checker.checkElementwise(cast<linalg::GenericOp>(op));
}

void mlir::npu::verifyConvLike(SupportChecker &checker, Operation *op) {
  checker.checkConvLike(cast<linalg::LinalgOp>(op));
}

void mlir::npu::verifyPad(SupportChecker &checker, Operation *op) {
  checker.checkPad(cast<tensor::PadOp>(op));
}

namespace {

struct NpuVerifySupportedPass
    : public mlir::npu::impl::NpuVerifySupportedBase<NpuVerifySupportedPass> {
  void runOnOperation() override {
    SupportChecker checker;
    ModuleOp module = getOperation();
    for (Operation &op : module.getBody()->getOperations())
      checker.checkTopLevelOp(&op);
    if (checker.failed)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
