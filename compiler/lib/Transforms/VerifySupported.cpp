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

#include <cmath>

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
  return type.isSignlessInteger(1) || type.isSignlessInteger(8) ||
         type.isSignlessInteger(32) || type.isSignlessInteger(64) ||
         type.isF32();
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
  // Integer division and remainder are left out: division by zero traps on
  // the host running the golden.
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AddFOp,
             arith::SubFOp, arith::MulFOp, arith::DivFOp, arith::NegFOp,
             arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
             arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
             arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::ShRSIOp,
             arith::ShRUIOp, arith::ShLIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp, arith::CmpIOp, arith::CmpFOp, arith::SelectOp,
             arith::ConstantOp,
             // Worker code: F-extension instructions or picolibc's libm.
             math::ExpOp, math::LogOp, math::AbsFOp, math::SqrtOp,
             math::RsqrtOp, math::CeilOp, math::FloorOp, math::RoundOp,
             math::TanhOp, math::ErfOp, math::PowFOp, linalg::YieldOp>(op);
}

// Whether `v` is provably within [lo, hi]: a constant, or clamped by
// maximumf/maxnumf and minimumf/minnumf with constant bounds (in either
// order; a rounding op in between keeps integral bounds).
bool isClampedTo(Value v, double lo, double hi) {
  auto constant = [](Value x) -> std::optional<double> {
    FloatAttr attr;
    if (matchPattern(x, m_Constant(&attr)))
      return attr.getValueAsDouble();
    return std::nullopt;
  };
  bool below = false, above = false;
  for (int depth = 0; depth < 6 && v; ++depth) {
    if (std::optional<double> c = constant(v))
      return *c >= lo && *c <= hi;
    Operation *def = v.getDefiningOp();
    if (!def)
      return false;
    if (isa<math::RoundOp, math::FloorOp, math::CeilOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(def);
    bool isMin = isa<arith::MinimumFOp, arith::MinNumFOp>(def);
    if (!isMax && !isMin)
      return false;
    Value next;
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<double> c = constant(def->getOperand(i))) {
        if (isMax && *c >= lo)
          below = true;
        if (isMin && *c <= hi)
          above = true;
        next = def->getOperand(1 - i);
      }
    if (below && above)
      return true;
    v = next;
  }
  return false;
}

} // namespace

class mlir::npu::SupportChecker {
  // No tensor larger than the device's address space: the plan's sizes and
  // the manifest's byte counts are computed in 64 bits and would wrap (a
  // tensor<4294967296x4294967296xf32> was planned as 0 bytes).
  static constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 32;

  // The tensor's bytes, or nullopt if the product overflows 64 bits.
  static std::optional<uint64_t> byteSize(RankedTensorType type) {
    unsigned bits = type.getElementType().getIntOrFloatBitWidth();
    uint64_t bytes = bits >= 8 ? bits / 8 : 1;
    for (int64_t d : type.getShape())
      if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes))
        return std::nullopt;
    return bytes;
  }

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
            << " is not supported (supported: i1, i8, i32, i64, f32)";
      else if (tensorType.getEncoding())
        fail(loc, "tensor encodings are not supported");
      else if (std::optional<uint64_t> bytes = byteSize(tensorType);
               !bytes || *bytes > kMaxTensorBytes)
        fail(loc, "tensor type ")
            << type << " needs "
            << (bytes ? std::to_string(*bytes) + " bytes"
                      : std::string("more than 2^64 bytes"))
            << ", more than the device's 32-bit address space holds "
               "(at most 4 GiB)";
      else if (llvm::is_contained(tensorType.getShape(), 0))
        fail(loc, "tensor type ")
            << type << " has no elements; npuc needs non-empty tensors";
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
    for (Type type : llvm::concat<const Type>(func.getArgumentTypes(),
                                              func.getResultTypes())) {
      if (getElementTypeOrSelf(type).isInteger(1)) {
        fail(func.getLoc(), "i1 tensors are supported inside the network "
                            "(masks), not as its inputs or outputs");
        continue;
      }
      checkType(type, func.getLoc(), /*insideBody=*/false);
    }
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

  // A linalg.generic the workers run: elementwise, or with reduction loops
  // (row sums and maxima, the softmax's steps, batched matmuls, max
  // pooling). Each worker takes a slice of one parallel loop (npu-tile's
  // choice, workerSplitDim) and runs the reductions of its slice in program
  // order; with no loop to split, one worker runs it all.
  void checkElementwise(linalg::GenericOp generic) {
    if (!checkValueTypes(generic, /*insideBody=*/false))
      return;
    for (OpOperand &operand : generic->getOpOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      bool isInit = generic.isDpsInit(&operand);
      // Inputs may broadcast, transpose or slide a window (pooling);
      // outputs are written along the loops, reduced loops left out.
      // An output may also be written at an offset (d + c: a padded
      // tensor's interior, npu-legalize-linalg's standalone pads and
      // concatenation parts; d mod c: a concatenation's first part).
      auto offsetDim = [](AffineExpr e) {
        if (isa<AffineDimExpr>(e))
          return true;
        auto bin = dyn_cast<AffineBinaryOpExpr>(e);
        return bin &&
               (bin.getKind() == AffineExprKind::Add ||
                bin.getKind() == AffineExprKind::Mod) &&
               isa<AffineDimExpr>(bin.getLHS()) &&
               isa<AffineConstantExpr>(bin.getRHS());
      };
      bool ok = isInit
                    ? llvm::all_of(map.getResults(), offsetDim) &&
                          map.getNumResults() ==
                              static_cast<unsigned>(generic.getRank(&operand))
                    : map.getNumSymbols() == 0;
      if (!ok) {
        generic.emitOpError("indexing map ")
            << AffineMapAttr::get(map) << " of operand #"
            << operand.getOperandNumber()
            << " is not supported (inputs: affine maps of the loops, "
               "outputs: loops, or loops plus constants)";
        failed = true;
        return;
      }
    }
    for (BlockArgument arg : generic.getBody()->getArguments())
      checkType(arg.getType(), generic.getLoc(), /*insideBody=*/true);
    for (Operation &bodyOp : *generic.getBody()) {
      if (!isSupportedBodyOp(&bodyOp)) {
        fail(bodyOp.getLoc(), "'")
            << bodyOp.getName()
            << "' op is not supported inside a linalg.generic (the workers "
               "run arith and math ops)";
        continue;
      }
      if (auto toInt = dyn_cast<arith::FPToSIOp>(bodyOp))
        warnUnclampedConversion(toInt);
      checkValueTypes(&bodyOp, /*insideBody=*/true);
    }
  }

  // An f32 -> int conversion of a value out of the integer's range is
  // poison in LLVM: the host golden and the device may legitimately give
  // different integers. Not an error (the values may stay in range), a
  // warning at the conversion unless its operand is clamped first.
  void warnUnclampedConversion(arith::FPToSIOp op) {
    auto type = dyn_cast<IntegerType>(op.getType());
    if (!type || type.getWidth() > 64)
      return;
    unsigned w = type.getWidth();
    double lo = -std::ldexp(1.0, w - 1), hi = std::ldexp(1.0, w - 1) - 1;
    if (isClampedTo(op.getIn(), lo, hi))
      return;
    emitWarning(op->getLoc(), "'")
        << op->getName() << "' op converts f32 to "
        << type << " without clamping to ["
        << APInt::getSignedMinValue(w).getSExtValue() << ", "
        << APInt::getSignedMaxValue(w).getSExtValue()
        << "] first: an out-of-range value converts to poison in LLVM, so "
           "the host golden and the device may differ there (clamp with "
           "arith.maximumf / arith.minimumf first)";
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

void mlir::npu::verifyLegalized(SupportChecker &checker, Operation *op) {
  checker.fail(op->getLoc(), "'")
      << op->getName()
      << "' is compiled after npu-legalize-linalg rewrites it; run that pass "
         "first (npuc does)";
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
