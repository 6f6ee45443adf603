// npu-fuse-conv: one npu.conv_kernel per conv / depthwise / pooling layer,
// with the zero padding and the elementwise epilogue folded in, so the
// runtime kernel (npurt_conv.h) computes the layer in one call and the
// int32/f32 accumulator never leaves L1. Runs on tensors before the memory
// plan, so the plan sees one op reading the unpadded input, the weights and
// the epilogue's operands and writing the epilogue's output: no buffer for
// the padded input or the accumulator, and every input live until the call.
//
// The epilogue is matched against the form compiler/networks/gen_mlperf.py
// writes (the int8 requantisation of npurt_conv.h, op for op); anything
// else is an error at the op saying what did not match.
//
// npu-fuse-matmul, here too because it matches the same epilogues: a dense
// layer (linalg.matmul + its epilogue generic) becomes one npu.matmul_kernel,
// when the epilogue is one npurt_matmul_ep computes exactly (also
// gen_mlp.py's int8 form); a matmul can run unfused, so anything else is
// left as it is.
#include "OpRegistry.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::npu {
#define GEN_PASS_DEF_NPUFUSECONV
#define GEN_PASS_DEF_NPUFUSEMATMUL
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

std::optional<int64_t> constInt(Value v) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

bool isZeroConstant(Value v) {
  if (auto i = constInt(v))
    return *i == 0;
  FloatAttr f;
  return matchPattern(v, m_Constant(&f)) && f.getValue().isZero() &&
         !f.getValue().isNegative();
}

// The epilogue's body, ops in order without the constants.
SmallVector<StringRef> bodySequence(linalg::GenericOp generic) {
  SmallVector<StringRef> ops;
  for (Operation &op : *generic.getBody())
    if (!isa<arith::ConstantOp>(op))
      ops.push_back(op.getName().getStringRef());
  return ops;
}

bool sequenceIs(ArrayRef<StringRef> got, ArrayRef<const char *> want) {
  if (got.size() != want.size())
    return false;
  for (auto [g, w] : llvm::zip(got, want))
    if (g != w)
      return false;
  return true;
}

// The int8 epilogues of gen_mlperf.py (npurt_conv.h's requantisation).
constexpr const char *kRequant[] = {"arith.extsi",  "arith.muli", "arith.shli",
                                    "arith.shrsi",  "arith.addi", "arith.shrsi",
                                    "arith.trunci", "arith.extsi"};
constexpr const char *kClamp[] = {"arith.maxsi", "arith.minsi", "arith.trunci",
                                  "linalg.yield"};

struct Epilogue {
  Value bias, mult, shift, residual;
  int64_t actMin = -128, actMax = 127, resMult = 0, resShift = 0;
  int64_t poolMult = 0, poolShift = 0;
  float divisor = 1.0f;
  bool relu = false;
};

class Fuser {
public:
  explicit Fuser(Operation *layer) : layer(layer) {}

  // Fails (after an error at the layer) if it does not match.
  LogicalResult run() {
    Value result = layer->getResult(0);
    if (!result.hasOneUse())
      return failAtLayer("result must feed exactly one elementwise "
                         "epilogue linalg.generic for npuc to fuse it into "
                         "the kernel call");
    generic = dyn_cast<linalg::GenericOp>(result.use_begin()->getOwner());
    if (!generic || generic.getNumDpsInits() != 1 ||
        result.use_begin()->getOperandNumber() != 0)
      return failAtLayer("result must be the first input of an "
                         "elementwise linalg.generic epilogue");
    auto fill = cast<DestinationStyleOpInterface>(layer)
                    .getDpsInitOperand(0)
                    ->get()
                    .getDefiningOp<linalg::FillOp>();
    if (!fill || !isZeroConstant(fill.getDpsInputOperand(0)->get()) ||
        !fill->getResult(0).hasOneUse())
      return failAtLayer("must accumulate into a zero linalg.fill of its "
                         "own");
    this->fill = fill;
    Type acc = getElementTypeOrSelf(result.getType());
    f32 = acc.isF32();
    if (failed(classifyInputs()))
      return failure();
    if (!f32 && mlpForm && isMlpInt8())
      return matchMlpInt8();
    return f32 ? matchF32() : matchInt8();
  }

  Operation *layer;
  linalg::GenericOp generic;
  linalg::FillOp fill;
  bool f32 = false;
  bool pool = false;
  // npu-fuse-matmul: a mismatch is no error (the layer runs unfused), and
  // gen_mlp.py's int8 epilogue is accepted too.
  bool quiet = false, mlpForm = false;
  // gen_mlp.py's form: the requantisation's multiplier and shift constants.
  int64_t mlpMult = 0, mlpShift = 0;
  Epilogue e;
  BlockArgument argBias, argMult, argShift, argResidual;

  // The fused op takes the epilogue's place (and its checkpoint: the layer's
  // result npusim compares is the epilogue's); the layer, its fill and their
  // accumulator go.
  void replaceBy(Operation *fused) {
    NpuDialect::CheckpointAttrHelper checkpoint(fused->getContext());
    if (IntegerAttr id = checkpoint.getAttr(generic))
      checkpoint.setAttr(fused, id);
    generic->getResult(0).replaceAllUsesWith(fused->getResult(0));
    generic.erase();
    Value acc = fill.getDpsInitOperand(0)->get();
    layer->erase();
    fill.erase();
    if (acc.use_empty() && acc.getDefiningOp())
      acc.getDefiningOp()->erase();
  }

private:
  LogicalResult failAtLayer(const Twine &what) {
    if (quiet)
      return failure();
    return layer->emitOpError(what);
  }

  LogicalResult fail(const Twine &what) {
    if (quiet)
      return failure();
    return generic.emitOpError("epilogue of the layer at ")
           << layer->getLoc() << " cannot be fused: " << what;
  }

  // gen_mlp.py's int8 epilogue (compiler/networks/gen_mlp.py): acc + bias,
  // [maxsi 0], extsi, muli m, addi round, shrsi s, maxsi, minsi, trunci.
  bool isMlpInt8() {
    SmallVector<StringRef> seq = bodySequence(generic);
    SmallVector<const char *> want = {"arith.addi"};
    if (seq.size() > 1 && seq[1] == "arith.maxsi" && seq.size() == 10)
      want.push_back("arith.maxsi");
    want.append({"arith.extsi", "arith.muli", "arith.addi", "arith.shrsi",
                 "arith.maxsi", "arith.minsi", "arith.trunci", "linalg.yield"});
    return !argMult && !argShift && !argResidual && sequenceIs(seq, want);
  }

  // rq(max(a, 0)) clamped is rq(a) clamped at max(lo, 0) when m >= 0 (rq
  // is then monotonic and rq(0) = 0), and the i64 clamp equals npurt_conv.h's
  // i32 truncation then clamp when the result fits i32: s >= 31 makes it so
  // (|a * m| < 2^62). The round must be 2^(s-1), as in npurt_rq.
  LogicalResult matchMlpInt8() {
    Block *body = generic.getBody();
    SmallVector<Operation *> ops;
    for (Operation &op : *body)
      if (!isa<arith::ConstantOp>(op))
        ops.push_back(&op);
    auto add = cast<arith::AddIOp>(ops[0]);
    if (!argBias || add.getLhs() != body->getArgument(0) ||
        add.getRhs() != argBias)
      return fail("the first addi must be acc + bias");
    Value v = add;
    unsigned i = 1;
    if (auto relu = dyn_cast<arith::MaxSIOp>(ops[1])) {
      if (relu.getLhs() != v || !isZeroConstant(relu.getRhs()))
        return fail("a maxsi before the requantisation that is not a ReLU");
      e.relu = true;
      v = relu;
      i = 2;
    }
    auto ext = cast<arith::ExtSIOp>(ops[i]);
    auto mul = cast<arith::MulIOp>(ops[i + 1]);
    auto rnd = cast<arith::AddIOp>(ops[i + 2]);
    auto shr = cast<arith::ShRSIOp>(ops[i + 3]);
    auto mx = cast<arith::MaxSIOp>(ops[i + 4]);
    auto mn = cast<arith::MinSIOp>(ops[i + 5]);
    auto m = constInt(mul.getRhs()), r = constInt(rnd.getRhs()),
         sh = constInt(shr.getRhs()), lo = constInt(mx.getRhs()),
         hi = constInt(mn.getRhs());
    if (ext.getIn() != v || mul.getLhs() != ext || rnd.getLhs() != mul ||
        shr.getLhs() != rnd || mx.getLhs() != shr || mn.getLhs() != mx)
      return fail("the requantisation's ops are not one chain");
    if (!m || !r || !sh || !lo || !hi || *m < 0 || *m > INT32_MAX || *sh < 31 ||
        *sh > 62 || *r != (int64_t(1) << *sh) >> 1 || *lo < -128 || *hi > 127 ||
        *lo > *hi || (e.relu && *hi < 0))
      return fail("the requantisation needs constants 0 <= m < 2^31, "
                  "31 <= s <= 62, round 2^(s-1), clamp bounds in -128..127");
    mlpMult = *m;
    mlpShift = *sh;
    e.actMin = e.relu ? std::max<int64_t>(*lo, 0) : *lo;
    e.actMax = *hi;
    e.relu = false; // folded into actMin, as npurt_conv.h does for int8
    return success();
  }

  // Bias, multipliers, shifts: [c] vectors over the last loop; the residual
  // has the output's shape.
  LogicalResult classifyInputs() {
    auto outType =
        cast<RankedTensorType>(generic.getDpsInitOperand(0)->get().getType());
    unsigned rank = outType.getRank();
    for (OpOperand *in : generic.getDpsInputOperands()) {
      if (in->getOperandNumber() == 0)
        continue;
      auto type = dyn_cast<RankedTensorType>(in->get().getType());
      AffineMap map = generic.getMatchingIndexingMap(in);
      BlockArgument arg = generic.getMatchingBlockArgument(in);
      if (!type)
        return fail("a scalar input");
      if (type.getRank() == 1 && map.getNumResults() == 1 &&
          map.getResult(0) == getAffineDimExpr(rank - 1, map.getContext())) {
        Type et = type.getElementType();
        if (et.isInteger(64)) {
          (!argMult ? argMult : argShift) = arg;
          (!e.mult ? e.mult : e.shift) = in->get();
          if (argShift && e.shift != in->get())
            return fail("more than two i64 per-channel vectors");
        } else if (!argBias) {
          argBias = arg;
          e.bias = in->get();
        } else {
          return fail("two bias vectors");
        }
        continue;
      }
      if (type == outType && map.isIdentity() && !argResidual) {
        argResidual = arg;
        e.residual = in->get();
        continue;
      }
      return fail(
          "an input that is neither a per-channel vector nor a residual");
    }
    return success();
  }

  LogicalResult matchF32() {
    SmallVector<StringRef> seq = bodySequence(generic);
    if (pool) {
      arith::DivFOp div;
      for (Operation &op : *generic.getBody())
        if (!isa<arith::ConstantOp>(op)) {
          div = dyn_cast<arith::DivFOp>(op);
          break;
        }
      FloatAttr d;
      if (!sequenceIs(seq, {"arith.divf", "linalg.yield"}) || !div ||
          div.getLhs() != generic.getBody()->getArgument(0) ||
          !matchPattern(div.getRhs(), m_Constant(&d)))
        return fail("an f32 average must be one divf of the sum by a constant");
      e.divisor = static_cast<float>(d.getValueAsDouble());
      return success();
    }
    SmallVector<const char *> want;
    if (argBias)
      want.push_back("arith.addf");
    if (argResidual)
      want.push_back("arith.addf");
    bool relu = llvm::is_contained(seq, StringRef("arith.maximumf"));
    if (relu)
      want.push_back("arith.maximumf");
    want.push_back("linalg.yield");
    if (!sequenceIs(seq, want))
      return fail("the f32 epilogue must be (acc + bias) [+ residual] [max 0]");
    Value v = generic.getBody()->getArgument(0);
    auto ops = generic.getBody()->without_terminator();
    for (Operation &op : ops) {
      if (auto add = dyn_cast<arith::AddFOp>(op)) {
        BlockArgument other = argBias && v == generic.getBody()->getArgument(0)
                                  ? argBias
                                  : argResidual;
        if (add.getLhs() != v || add.getRhs() != other)
          return fail("an addf that is not acc + bias or + residual");
        v = add;
      } else if (auto max = dyn_cast<arith::MaximumFOp>(op)) {
        if (max.getLhs() != v || !isZeroConstant(max.getRhs()))
          return fail("a maximumf that is not a ReLU");
        v = max;
        e.relu = true;
      }
    }
    return success();
  }

  LogicalResult matchInt8() {
    SmallVector<StringRef> seq = bodySequence(generic);
    SmallVector<const char *> want;
    if (!pool)
      want.push_back("arith.addi");
    want.append(std::begin(kRequant), std::end(kRequant));
    if (argResidual) {
      want.append(std::begin(kRequant), std::end(kRequant));
      want.push_back("arith.addi");
    }
    want.append(std::begin(kClamp), std::end(kClamp));
    if (!sequenceIs(seq, want))
      return fail("the int8 epilogue must be the requantisation of "
                  "npurt_conv.h: [acc + bias], extsi, muli, round, shrsi, "
                  "trunci, extsi, [+ rescaled residual], maxsi, minsi, trunci");
    Block *body = generic.getBody();
    SmallVector<Operation *> ops;
    for (Operation &op : *body)
      if (!isa<arith::ConstantOp>(op))
        ops.push_back(&op);
    unsigned i = 0;
    if (!pool) {
      auto add = cast<arith::AddIOp>(ops[i++]);
      if (!argBias || add.getLhs() != body->getArgument(0) ||
          add.getRhs() != argBias)
        return fail("the first addi must be acc + bias");
    }
    // extsi x; muli x, m; shli 1, s; shrsi h, 1; addi p, h; shrsi q, s
    auto mul = cast<arith::MulIOp>(ops[i + 1]);
    auto shl = cast<arith::ShLIOp>(ops[i + 2]);
    auto shr = cast<arith::ShRSIOp>(ops[i + 5]);
    if (pool) {
      auto m = constInt(mul.getRhs()), s = constInt(shl.getRhs());
      if (!m || !s || shr.getRhs() != shl.getRhs() || *m < INT32_MIN ||
          *m > INT32_MAX || *s < 0 || *s > 62)
        return fail("the average's multiplier and shift must be constants "
                    "(an i32 multiplier, a shift of 0..62)");
      e.poolMult = *m;
      e.poolShift = *s;
    } else if (mul.getRhs() != argMult || shl.getRhs() != argShift ||
               shr.getRhs() != argShift) {
      return fail("the requantisation must use the per-channel i64 "
                  "multiplier and shift vectors");
    }
    i += 8;
    if (argResidual) {
      auto ext = cast<arith::ExtSIOp>(ops[i]);
      auto rmul = cast<arith::MulIOp>(ops[i + 1]);
      auto rshl = cast<arith::ShLIOp>(ops[i + 2]);
      auto rshr = cast<arith::ShRSIOp>(ops[i + 5]);
      auto rm = constInt(rmul.getRhs()), rs = constInt(rshl.getRhs());
      if (ext.getIn() != argResidual || !rm || !rs ||
          rshr.getRhs() != rshl.getRhs() || *rm < INT32_MIN ||
          *rm > INT32_MAX || *rs < 0 || *rs > 62)
        return fail("the residual's rescale must be rq(residual, m, s) with "
                    "constants (an i32 m, s in 0..62)");
      e.resMult = *rm;
      e.resShift = *rs;
      i += 9;
    }
    auto mx = cast<arith::MaxSIOp>(ops[i]);
    auto mn = cast<arith::MinSIOp>(ops[i + 1]);
    auto lo = constInt(mx.getRhs()), hi = constInt(mn.getRhs());
    if (!lo || !hi || *lo < -128 || *hi > 127 || *lo > *hi)
      return fail("the clamp bounds must be constants in -128..127");
    e.actMin = *lo;
    e.actMax = *hi;
    return success();
  }
};

// An i64 per-channel constant as the i32 vector the kernel reads. `at`
// null: a value that does not fit is no error (npu-fuse-matmul leaves the
// layer unfused), only `ok` = false.
Value narrowToI32(OpBuilder &b, Location loc, Value v, int64_t lo, int64_t hi,
                  Operation *at, StringRef what, bool &ok) {
  DenseIntElementsAttr values;
  if (!matchPattern(v, m_Constant(&values))) {
    if (at)
      at->emitOpError("the per-channel ") << what << " must be a constant";
    ok = false;
    return {};
  }
  SmallVector<int32_t> narrow;
  for (APInt x : values.getValues<APInt>()) {
    int64_t y = x.getSExtValue();
    if (y < lo || y > hi) {
      if (at)
        at->emitOpError("per-channel ")
            << what << " " << y << " is outside " << lo << ".." << hi;
      ok = false;
      return {};
    }
    narrow.push_back(static_cast<int32_t>(y));
  }
  auto type = RankedTensorType::get({static_cast<int64_t>(narrow.size())},
                                    b.getI32Type());
  return b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(narrow)));
}

LogicalResult fuse(Operation *layer) {
  Fuser f(layer);
  f.pool = isa<linalg::PoolingNhwcSumOp>(layer);
  if (failed(f.run()))
    return failure();
  auto dps = cast<DestinationStyleOpInterface>(layer);
  Value input = dps.getDpsInputOperand(0)->get();
  SmallVector<int64_t> padding = {0, 0, 0, 0};
  auto pad = input.getDefiningOp<tensor::PadOp>();
  if (pad) {
    // npu-verify-supported checked: zero, static, only along H and W.
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    padding = {low[1], low[2], high[1], high[2]};
    input = pad.getSource();
  }
  // Absent `strides`/`dilations` are the named ops' default, 1 along H and W
  // (the verifier accepts a conv or pool without them).
  auto attrValues = [](Attribute a) {
    auto dense = dyn_cast_or_null<DenseIntElementsAttr>(a);
    if (!dense)
      return SmallVector<int64_t>{1, 1};
    SmallVector<int64_t> out;
    for (APInt v : dense.getValues<APInt>())
      out.push_back(v.getSExtValue());
    return out;
  };
  SmallVector<int64_t> strides = attrValues(layer->getAttr("strides"));
  SmallVector<int64_t> dilations = attrValues(layer->getAttr("dilations"));
  Value weights;
  SmallVector<int64_t> window;
  auto wt = cast<RankedTensorType>(dps.getDpsInputOperand(1)->get().getType());
  window = {wt.getDimSize(0), wt.getDimSize(1)};
  if (!f.pool)
    weights = dps.getDpsInputOperand(1)->get();

  OpBuilder b(f.generic);
  Location loc = layer->getLoc();
  bool ok = true;
  Value mult, shift;
  if (!f.f32 && !f.pool) {
    mult = narrowToI32(b, loc, f.e.mult, 0, INT32_MAX, f.generic, "multiplier",
                       ok);
    if (ok)
      shift = narrowToI32(b, loc, f.e.shift, 0, 62, f.generic, "shift", ok);
    if (!ok)
      return failure();
  }
  StringRef kernel = f.pool ? "avgpool2d"
                     : isa<linalg::DepthwiseConv2DNhwcHwcOp>(layer) ? "dwconv2d"
                                                                    : "conv2d";
  if (kernel == "dwconv2d" && f.e.residual)
    return f.generic.emitOpError("npurt_dwconv2d has no residual input");
  Value init = f.generic.getDpsInitOperand(0)->get();
  SmallVector<Value> operands = {input};
  auto opt = [&](Value v) {
    if (v)
      operands.push_back(v);
    return v ? 1 : 0;
  };
  SmallVector<int32_t> segments = {1,         opt(weights), opt(f.e.bias),
                                   opt(mult), opt(shift),   opt(f.e.residual),
                                   1};
  operands.push_back(init);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr(segments)),
      b.getNamedAttr("kernel", b.getStringAttr(kernel)),
      b.getNamedAttr("window", b.getDenseI64ArrayAttr(window)),
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(strides)),
      b.getNamedAttr("dilations", b.getDenseI64ArrayAttr(dilations)),
      b.getNamedAttr("padding", b.getDenseI64ArrayAttr(padding)),
      b.getNamedAttr("act_min", b.getI64IntegerAttr(f.e.actMin)),
      b.getNamedAttr("act_max", b.getI64IntegerAttr(f.e.actMax)),
      b.getNamedAttr("res_mult", b.getI64IntegerAttr(f.e.resMult)),
      b.getNamedAttr("res_shift", b.getI64IntegerAttr(f.e.resShift)),
      b.getNamedAttr("pool_mult", b.getI64IntegerAttr(f.e.poolMult)),
      b.getNamedAttr("pool_shift", b.getI64IntegerAttr(f.e.poolShift)),
      b.getNamedAttr("divisor", b.getF32FloatAttr(f.e.divisor))};
  if (f.e.relu)
    attrs.push_back(b.getNamedAttr("relu", b.getUnitAttr()));
  auto fused = b.create<ConvKernelOp>(
      loc, TypeRange{f.generic->getResult(0).getType()}, operands, attrs);
  Value windowTensor = f.pool ? dps.getDpsInputOperand(1)->get() : Value();
  f.replaceBy(fused);
  for (Value dead : {windowTensor, Value(pad ? pad.getResult() : Value())})
    if (dead && dead.use_empty() && dead.getDefiningOp())
      dead.getDefiningOp()->erase();
  return success();
}

struct NpuFuseConvPass
    : public mlir::npu::impl::NpuFuseConvBase<NpuFuseConvPass> {
  void runOnOperation() override {
    SmallVector<Operation *> layers;
    getOperation().walk([&](Operation *op) {
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
              linalg::PoolingNhwcSumOp>(op))
        layers.push_back(op);
    });
    bool ok = true;
    for (Operation *layer : layers)
      ok &= succeeded(fuse(layer));
    if (!ok)
      signalPassFailure();
  }
};

// A dense layer's matmul and epilogue -> one npu.matmul_kernel, when the
// epilogue is one npurt_matmul_ep computes exactly; otherwise nothing
// changes (the matmul runs on the SA, the generic on the workers).
void fuseMatmul(linalg::MatmulOp mm) {
  Fuser f(mm);
  f.quiet = true;
  f.mlpForm = true;
  if (failed(f.run()) || f.e.residual)
    return;
  // npurt_matmul_ep computes i8 x i8 -> i8 and f32 x f32 -> f32: an epilogue
  // that keeps a wider result (an int8 requantisation into i32) stays
  // unfused.
  auto elementOf = [](Value v) { return getElementTypeOrSelf(v.getType()); };
  Type ta = elementOf(mm.getDpsInputOperand(0)->get()),
       tb = elementOf(mm.getDpsInputOperand(1)->get()),
       to = elementOf(f.generic->getResult(0));
  const bool i8 = ta.isInteger(8) && tb.isInteger(8) && to.isInteger(8);
  if (!(f.f32 ? ta.isF32() && tb.isF32() && to.isF32() : i8))
    return;
  OpBuilder b(f.generic);
  Location loc = mm.getLoc();
  Value mult, shift;
  if (!f.f32 && f.e.mult) {
    // Constants within what the kernel takes, or no fusion (quietly: an
    // unfused layer is no error).
    bool ok = true;
    mult = narrowToI32(b, loc, f.e.mult, 0, INT32_MAX, nullptr, "multiplier",
                       ok);
    if (ok)
      shift = narrowToI32(b, loc, f.e.shift, 0, 62, nullptr, "shift", ok);
    if (!ok) {
      if (mult)
        mult.getDefiningOp()->erase();
      return;
    }
  } else if (!f.f32) {
    auto scalar = [&](int64_t v) -> Value {
      auto type = RankedTensorType::get({1}, b.getI32Type());
      return b.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(
                   type, ArrayRef<int32_t>(static_cast<int32_t>(v))));
    };
    mult = scalar(f.mlpMult);
    shift = scalar(f.mlpShift);
  }
  Value init = f.generic.getDpsInitOperand(0)->get();
  SmallVector<Value> operands = {mm.getDpsInputOperand(0)->get(),
                                 mm.getDpsInputOperand(1)->get()};
  auto opt = [&](Value v) {
    if (v)
      operands.push_back(v);
    return v ? 1 : 0;
  };
  SmallVector<int32_t> segments = {1,         1,          opt(f.e.bias),
                                   opt(mult), opt(shift), 1};
  operands.push_back(init);
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr("operandSegmentSizes", b.getDenseI32ArrayAttr(segments)),
      b.getNamedAttr("act_min", b.getI64IntegerAttr(f.e.actMin)),
      b.getNamedAttr("act_max", b.getI64IntegerAttr(f.e.actMax))};
  if (f.e.relu)
    attrs.push_back(b.getNamedAttr("relu", b.getUnitAttr()));
  // A tile the user pinned on the matmul (npu.tiles) stays with the layer.
  if (Attribute tiles = mm->getAttr(NpuDialect::TilesAttrHelper::getNameStr()))
    attrs.push_back(
        b.getNamedAttr(NpuDialect::TilesAttrHelper::getNameStr(), tiles));
  f.replaceBy(b.create<MatmulKernelOp>(
      loc, TypeRange{f.generic->getResult(0).getType()}, operands, attrs));
}

struct NpuFuseMatmulPass
    : public mlir::npu::impl::NpuFuseMatmulBase<NpuFuseMatmulPass> {
  void runOnOperation() override {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp mm) { matmuls.push_back(mm); });
    for (linalg::MatmulOp mm : matmuls)
      fuseMatmul(mm);
  }
};

// One-shot bufferization of npu.conv_kernel and npu.matmul_kernel: the same
// op on the operands' buffers, writing its init's buffer in place.
template <typename OpTy>
struct KernelBufferization
    : public bufferization::DstBufferizableOpInterfaceExternalModel<
          KernelBufferization<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    // The output is overwritten, never read.
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult
  bufferize(Operation *op, RewriterBase &rewriter,
            const bufferization::BufferizationOptions &options) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      FailureOr<Value> buffer = bufferization::getBuffer(rewriter, v, options);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    Operation *memOp =
        Operation::create(op->getLoc(), op->getName(), TypeRange{}, operands,
                          NamedAttrList(op->getDiscardableAttrDictionary()),
                          op->getPropertiesStorage(), BlockRange{}, 0);
    rewriter.insert(memOp);
    bufferization::replaceOpWithBufferizedValues(rewriter, op, operands.back());
    return success();
  }
};

} // namespace

void mlir::npu::registerNpuBufferizationModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NpuDialect *) {
    ConvKernelOp::attachInterface<KernelBufferization<ConvKernelOp>>(*ctx);
    MatmulKernelOp::attachInterface<KernelBufferization<MatmulKernelOp>>(*ctx);
  });
  // The golden's loop over a training module's steps (scf.for on tensors,
  // npu-loop-training-steps).
  scf::registerBufferizableOpInterfaceExternalModels(registry);
}
