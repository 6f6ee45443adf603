// npu-derive-training: from an f32 forward network (fully connected layers,
// or a convolutional network of batch 1, ending in logits) to a module that
// trains it: ONE SGD step, forward -> loss -> backward -> update, in plain
// linalg on tensors so the rest of npuc compiles it like any network and the
// golden runs the very same module on the host. The step takes every
// step's mini-batch and selects its own by a count of the steps done, which
// it keeps, like each step's loss, as state updated in place (StepState);
// npu-loop-training-steps then runs it `steps` times, on the device and for
// the golden, so the code and compile time do not grow with the steps.
//
// Everything is built from ops npuc already lowers, so each backward op runs
// on the engine its forward twin uses: every contraction (dW = X^T dY,
// dX = dY W^T, the bias gradient and the loss sums as products with a ones
// vector) is a linalg.matmul on the SA; the transposes, the softmax, the
// ReLU mask and the SGD update are elementwise generics on the workers.
// The SGD update is fused into the weight-gradient GEMM, W += (-lr X^T) dY,
// a matmul accumulating into the weight itself (npu.sgd_update: the memory
// plan gives its result the weight's buffer), so a training step holds no
// gradient or second copy of the weights. Convolutional networks: see
// ConvTrainer below.
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/MapVector.h"

#include <algorithm>
#include <limits>
#include <string>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUDERIVETRAINING
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

// One fully connected layer of the forward network.
struct Layer {
  DenseElementsAttr weight, bias; // K x N, N
  Location weightLoc, biasLoc, matmulLoc, epilogueLoc;
  bool relu = false;
  bool noBias = false; // the bias is the zeros of a layer without one
};

// The ONNX importer's notes on constants (OnnxImport.cpp): a zero bias that
// stands for a layer without one (Linear(bias=False)) is not trained, as
// PyTorch has no such parameter; and a weight several nodes read was
// imported as one constant per node, which training would update apart
// (untied), so it is refused.
constexpr char kNoBiasAttr[] = "onnx.no_bias";
constexpr char kSharedAttr[] = "onnx.shared";

bool isNoBias(arith::ConstantOp c) { return c && c->hasAttr(kNoBiasAttr); }

LogicalResult checkNotShared(arith::ConstantOp c) {
  if (auto note = c ? c->getAttrOfType<StringAttr>(kSharedAttr) : StringAttr())
    return c.emitError("training a weight used by more than one node is not "
                       "supported: ")
           << note.getValue();
  return success();
}

const char kRules[] =
    "(backward rules exist for: linalg.matmul of the previous activation "
    "with a constant f32 weight, followed by one elementwise linalg.generic "
    "adding a constant bias, optionally with ReLU)";

// The epilogue `a + bias` or `max(a + bias, 0)` (either operand order).
// Returns whether it is one, and sets `relu`.
bool matchEpilogue(linalg::GenericOp g, Value acc, bool &relu) {
  if (g.getNumDpsInputs() != 2 || g.getNumDpsInits() != 1 ||
      g.getDpsInputs()[0] != acc)
    return false;
  Block &body = *g.getBody();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Value out = yield.getOperand(0);
  relu = false;
  auto isZero = [](Value v) {
    auto c = v.getDefiningOp<arith::ConstantOp>();
    auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
    return f && f.getValue().isZero();
  };
  if (auto max = out.getDefiningOp<arith::MaximumFOp>()) {
    Value x = isZero(max.getRhs())   ? max.getLhs()
              : isZero(max.getLhs()) ? max.getRhs()
                                     : Value();
    if (!x)
      return false;
    relu = true;
    out = x;
  }
  auto add = out.getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  if (!((add.getLhs() == a && add.getRhs() == b) ||
        (add.getLhs() == b && add.getRhs() == a)))
    return false;
  // Nothing else in the body (constants aside).
  for (Operation &op : body)
    if (&op != add && &op != yield && !isa<arith::ConstantOp>(op) &&
        !(relu && isa<arith::MaximumFOp>(op)))
      return false;
  auto maps = g.getIndexingMapsArray();
  MLIRContext *ctx = g.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap col = AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
  return maps.size() == 3 && maps[0] == id && maps[1] == col && maps[2] == id;
}

using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;

Value cst(OpBuilder &nb, Location l, float v) {
  return nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(v));
}

// Creates @<forward>_train(args) -> results before `forward`, with `b` at
// the start of its body, which it returns.
Block *createTrainFunction(OpBuilder &b, func::FuncOp forward,
                           TypeRange args, TypeRange results) {
  auto train = b.create<func::FuncOp>(
      forward.getLoc(), (forward.getSymName() + "_train").str(),
      FunctionType::get(b.getContext(), args, results));
  Block *entry = train.addEntryBlock();
  b.setInsertionPointToStart(entry);
  return entry;
}

// Builds the training step's ops, all in forms npuc already lowers:
// linalg.matmul (the SA), elementwise or reducing linalg.generic (the
// workers), views, and the convolutions npu-fuse-conv turns into kernels.
struct Emitter {
  Emitter(OpBuilder &b, Value zero) : b(b), zero(zero) {}

  MLIRContext *ctx() { return b.getContext(); }
  Type f32() { return b.getF32Type(); }
  RankedTensorType t2(int64_t r, int64_t c) {
    return RankedTensorType::get({r, c}, f32());
  }

  // A generic writing a fresh tensor of `type` through the identity map,
  // every loop parallel.
  linalg::GenericOp gen(Location loc, ValueRange ins, ArrayRef<AffineMap> maps,
                        RankedTensorType type, BodyFn fn) {
    Value init = b.create<tensor::EmptyOp>(loc, type.getShape(), f32());
    SmallVector<AffineMap> all(maps.begin(), maps.end());
    all.push_back(AffineMap::getMultiDimIdentityMap(type.getRank(), ctx()));
    SmallVector<utils::IteratorType> iters(type.getRank(),
                                           utils::IteratorType::parallel);
    return b.create<linalg::GenericOp>(
        loc, TypeRange{type}, ins, ValueRange{init}, all, iters,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          nb.create<linalg::YieldOp>(l, fn(nb, l, args));
        });
  }
  Value filled(Location loc, ArrayRef<int64_t> shape) {
    Value empty = b.create<tensor::EmptyOp>(loc, shape, f32());
    return b.create<linalg::FillOp>(loc, zero, empty).getResult(0);
  }
  Value mm(Location loc, Value x, Value y) {
    auto tx = cast<RankedTensorType>(x.getType());
    auto ty = cast<RankedTensorType>(y.getType());
    auto type = t2(tx.getDimSize(0), ty.getDimSize(1));
    Value fill = filled(loc, type.getShape());
    return b
        .create<linalg::MatmulOp>(loc, TypeRange{type}, ValueRange{x, y},
                                  ValueRange{fill})
        .getResult(0);
  }
  Value transpose(Location loc, Value x) {
    auto tx = cast<RankedTensorType>(x.getType());
    AffineMap tr = AffineMap::get(
        2, 0, {getAffineDimExpr(1, ctx()), getAffineDimExpr(0, ctx())}, ctx());
    return gen(loc, {x}, {tr}, t2(tx.getDimSize(1), tx.getDimSize(0)),
               [](OpBuilder &, Location, ValueRange a) { return a[0]; })
        .getResult(0);
  }
  Value flatten(Location loc, Value x) {
    SmallVector<ReassociationIndices> all{{0, 1}};
    return b.create<tensor::CollapseShapeOp>(loc, x, all).getResult();
  }
  Value ones(Location loc, int64_t r, int64_t cols) {
    return b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(t2(r, cols), b.getF32FloatAttr(1.0f)));
  }
  // 0, 1, ..., C-1: compared with a label to select its class.
  Value classIds(Location loc, int64_t C) {
    SmallVector<int32_t> ids;
    for (int64_t k = 0; k < C; ++k)
      ids.push_back(static_cast<int32_t>(k));
    auto type = RankedTensorType::get({C}, b.getI32Type());
    return b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(type, ArrayRef<int32_t>(ids)));
  }
  // A training run's state besides the weights, trained in place like them
  // (npu.trainable, npu.sgd_update), in L2: the steps done so far, which
  // select each step's mini-batch, and each step's loss slot. Every
  // constant is distinct (the greedy rewriter merges equal ones): slot s
  // starts at -(s + 1), a value no loss takes, so a slot no step wrote
  // shows as such.
  struct StepState {
    Value done;
    SmallVector<Value> losses;
  };
  Value stateConstant(Location loc, float init) {
    auto c = b.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(t2(1, 1), b.getF32FloatAttr(init)));
    NpuDialect::TrainableAttrHelper(ctx()).setAttr(c, UnitAttr::get(ctx()));
    c->setAttr(kMemAttrName, MemLevelAttr::get(ctx(), MemLevel::L2));
    return c;
  }
  StepState stepState(Location loc, int64_t steps) {
    StepState st{stateConstant(loc, 0.0f), {}};
    for (int64_t s = 0; s < steps; ++s)
      st.losses.push_back(stateConstant(loc, -1.0f - static_cast<float>(s)));
    return st;
  }
  // state = fn(ins..., state), in place (npu.sgd_update).
  Value updateInPlace(Location loc, ValueRange ins, Value state, BodyFn fn) {
    auto type = cast<RankedTensorType>(state.getType());
    SmallVector<AffineMap> maps(
        ins.size() + 1, AffineMap::getMultiDimIdentityMap(2, ctx()));
    auto op = b.create<linalg::GenericOp>(
        loc, TypeRange{type}, ins, ValueRange{state}, maps,
        ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                      utils::IteratorType::parallel},
        [&](OpBuilder &nb, Location l, ValueRange args) {
          nb.create<linalg::YieldOp>(l, fn(nb, l, args));
        });
    NpuDialect::SgdUpdateAttrHelper(ctx()).setAttr(op, UnitAttr::get(ctx()));
    return op.getResult(0);
  }
  // The step's tensor among `perStep` (one per step, as the firmware's
  // inputs are), chosen by the steps done: the firmware runs one step body
  // `steps` times.
  Value selectStep(Location loc, Value done, ValueRange perStep) {
    if (perStep.size() == 1)
      return perStep.front();
    auto type = cast<RankedTensorType>(perStep.front().getType());
    unsigned rank = type.getRank();
    AffineExpr c0 = getAffineConstantExpr(0, ctx());
    SmallVector<AffineMap> maps{AffineMap::get(rank, 0, {c0, c0}, ctx())};
    maps.append(perStep.size() + 1,
                AffineMap::getMultiDimIdentityMap(rank, ctx()));
    SmallVector<Value> ins{done};
    ins.append(perStep.begin(), perStep.end());
    Value init = b.create<tensor::EmptyOp>(loc, type.getShape(),
                                           type.getElementType());
    SmallVector<utils::IteratorType> iters(rank,
                                           utils::IteratorType::parallel);
    return b
        .create<linalg::GenericOp>(
            loc, TypeRange{type}, ins, ValueRange{init}, maps, iters,
            [&](OpBuilder &nb, Location l, ValueRange a) {
              Value v = a[1];
              for (size_t s = 1; s < perStep.size(); ++s) {
                Value is = nb.create<arith::CmpFOp>(
                    l, arith::CmpFPredicate::OEQ, a[0],
                    cst(nb, l, static_cast<float>(s)));
                v = nb.create<arith::SelectOp>(l, is, a[1 + s], v);
              }
              nb.create<linalg::YieldOp>(l, v);
            })
        .getResult(0);
  }
  // Writes the step's loss into its slot, then counts the step (after the
  // last read of the count: the update is in place).
  void finishStep(Location loc, StepState &st, Value loss) {
    for (auto [s, slot] : llvm::enumerate(st.losses)) {
      float step = static_cast<float>(s);
      slot = updateInPlace(loc, {loss, st.done}, slot,
                           [step](OpBuilder &nb, Location l, ValueRange a) {
                             Value is = nb.create<arith::CmpFOp>(
                                 l, arith::CmpFPredicate::OEQ, a[1],
                                 cst(nb, l, step));
                             return nb.create<arith::SelectOp>(l, is, a[0], a[2])
                                 .getResult();
                           });
    }
    st.done = updateInPlace(loc, {}, st.done,
                            [](OpBuilder &nb, Location l, ValueRange a) {
                              return nb
                                  .create<arith::AddFOp>(l, a[0],
                                                         cst(nb, l, 1.0f))
                                  .getResult();
                            });
  }
  // The state's results and names, before the weights'.
  static void stateResults(StepState &st, SmallVectorImpl<Value> &results,
                           SmallVectorImpl<Attribute> &names, MLIRContext *c) {
    results.push_back(st.done);
    names.push_back(StringAttr::get(c, "steps.done"));
    for (auto [s, slot] : llvm::enumerate(st.losses)) {
      results.push_back(slot);
      names.push_back(StringAttr::get(c, "loss.step" + std::to_string(s)));
    }
  }
  void markKept(Value v) {
    if (Operation *def = v.getDefiningOp())
      NpuDialect::KeptForBackwardAttrHelper(ctx()).setAttr(
          def, UnitAttr::get(ctx()));
  }
  // W += a g on the SA, accumulating into the weight's own buffer
  // (npu.sgd_update: the memory plan gives the result W's buffer).
  Value sgdUpdate(Location loc, Value a, Value g, Value w) {
    auto ta = cast<RankedTensorType>(a.getType());
    auto tg = cast<RankedTensorType>(g.getType());
    auto op = b.create<linalg::MatmulOp>(
        loc, TypeRange{t2(ta.getDimSize(0), tg.getDimSize(1))},
        ValueRange{a, g}, ValueRange{w});
    NpuDialect::SgdUpdateAttrHelper(ctx()).setAttr(op, UnitAttr::get(ctx()));
    return op.getResult(0);
  }

  // The loss of logits (or a reconstruction) z per element, to be summed,
  // and its gradient dL/dz.
  std::pair<Value, Value> lossAndGradient(Location lloc, Value z, Value x,
                                          Value labels, Value classIds,
                                          Value onesOut, bool mse, int64_t B,
                                          int64_t C) {
    MLIRContext *c = ctx();
    AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, c);
    AffineMap row = AffineMap::get(2, 0, getAffineDimExpr(0, c));
    AffineMap col = AffineMap::get(2, 0, getAffineDimExpr(1, c));
    auto zType = cast<RankedTensorType>(z.getType());
    const float invB = 1.0f / static_cast<float>(B);
    const float invN = 1.0f / static_cast<float>(B * C);
    // The loss and its gradient dL/dz.
    Value perElement, dz;
    if (mse) {
      perElement =
          gen(lloc, {z, x}, {id2, id2}, zType,
              [&](OpBuilder &nb, Location lo, ValueRange a) {
                Value d = nb.create<arith::SubFOp>(lo, a[0], a[1]);
                Value sq = nb.create<arith::MulFOp>(lo, d, d);
                return nb.create<arith::MulFOp>(lo, sq, cst(nb, lo, invN))
                    .getResult();
              })
              .getResult(0);
      dz =
          gen(lloc, {z, x}, {id2, id2}, zType,
              [&](OpBuilder &nb, Location lo, ValueRange a) {
                Value d = nb.create<arith::SubFOp>(lo, a[0], a[1]);
                return nb.create<arith::MulFOp>(lo, d, cst(nb, lo, 2.0f * invN))
                    .getResult();
              })
              .getResult(0);
    } else {
      // softmax(z) = e / sum(e), e = exp(z - m), the row sums a matmul.
      // The shift m is the row's max (a reducing generic on the workers):
      // every term is <= 1 and the largest is exactly 1, so the sum neither
      // overflows nor underflows; equal logits give exactly ln C.
      const int64_t rows = zType.getDimSize(0);
      Value lowest = b.create<arith::ConstantOp>(
          lloc, b.getF32FloatAttr(std::numeric_limits<float>::lowest()));
      Value init =
          b.create<linalg::FillOp>(
               lloc, lowest,
               b.create<tensor::EmptyOp>(lloc, ArrayRef<int64_t>{rows}, f32())
                   .getResult())
              .getResult(0);
      Value rowMax =
          b.create<linalg::GenericOp>(
               lloc, TypeRange{init.getType()}, ValueRange{z}, ValueRange{init},
               ArrayRef<AffineMap>{id2, row},
               ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                             utils::IteratorType::reduction},
               [](OpBuilder &nb, Location lo, ValueRange a) {
                 nb.create<linalg::YieldOp>(
                     lo,
                     nb.create<arith::MaximumFOp>(lo, a[1], a[0]).getResult());
               })
              .getResult(0);
      Value e = gen(lloc, {z, rowMax}, {id2, row}, zType,
                    [&](OpBuilder &nb, Location lo, ValueRange a) {
                      Value v = nb.create<arith::SubFOp>(lo, a[0], a[1]);
                      return nb.create<math::ExpOp>(lo, v).getResult();
                    })
                    .getResult(0);
      Value sum = flatten(lloc, mm(lloc, e, onesOut)); // B
      auto isLabel = [&](OpBuilder &nb, Location lo, Value label, Value cls) {
        return nb.create<arith::CmpIOp>(lo, arith::CmpIPredicate::eq, label,
                                        cls);
      };
      // Per row: log(sum) + m - z[label], scaled by 1/B; zero elsewhere.
      perElement =
          gen(lloc, {z, sum, labels, classIds, rowMax},
              {id2, row, row, col, row}, zType,
              [&](OpBuilder &nb, Location lo, ValueRange a) {
                Value lse = nb.create<arith::AddFOp>(
                    lo, nb.create<math::LogOp>(lo, a[1]), a[4]);
                Value nll = nb.create<arith::SubFOp>(lo, lse, a[0]);
                Value scaled =
                    nb.create<arith::MulFOp>(lo, nll, cst(nb, lo, invB));
                return nb
                    .create<arith::SelectOp>(lo, isLabel(nb, lo, a[2], a[3]),
                                             scaled, cst(nb, lo, 0.0f))
                    .getResult();
              })
              .getResult(0);
      // dL/dz = (softmax(z) - onehot(label)) / B.
      dz = gen(lloc, {e, sum, labels, classIds}, {id2, row, row, col}, zType,
               [&](OpBuilder &nb, Location lo, ValueRange a) {
                 Value p = nb.create<arith::DivFOp>(lo, a[0], a[1]);
                 Value t = nb.create<arith::SelectOp>(
                     lo, isLabel(nb, lo, a[2], a[3]), cst(nb, lo, 1.0f),
                     cst(nb, lo, 0.0f));
                 Value d = nb.create<arith::SubFOp>(lo, p, t);
                 return nb.create<arith::MulFOp>(lo, d, cst(nb, lo, invB))
                     .getResult();
               })
               .getResult(0);
    }
    return {perElement, dz};
  }

  OpBuilder &b;
  Value zero;
};

// ---------------------------------------------------------------------------
// Convolutional networks (gen_mlperf.py's DS-CNN and ResNet-8): the forward
// ops are cloned as they are (so npu-fuse-conv fuses them like inference)
// and the backward walks them in reverse, one rule per op:
//   epilogue    y = [relu](acc [+ bias] [+ residual]): the ReLU mask, the
//               bias update (a matmul with a -lr row on the SA), the
//               gradient to acc and to the residual;
//   scale       y = x / c (the average's divide): dx = dy / c;
//   conv        dX = conv(pad(dilate(dY)), flip(W)^T) on the SA (a stride-1
//               conv npu-fuse-conv folds the padding into); the SGD update
//               fused into the weight-gradient GEMM,
//               W += (-lr im2col(X)^T) dY, accumulating into W's buffer;
//   depthwise   dX = dwconv(pad(dilate(dY)), flip(W)); W += -lr sum X dY,
//               a reducing generic on the workers accumulating into W;
//   pooling     (sum) dX = dwconv(pad(dilate(dY)), ones); (max, window ==
//               stride) dY routed to each window's first max, see maxPool;
//   pad         folded into the rule of the convolution it feeds;
//   matmul      dX = dY W^T, W += (-lr X^T) dY (as for dense networks);
//   reshape     the inverse reshape.
// Batch 1: the conv kernels run batch 1 (the mini-batch is one sample, as
// in PULP-TrainLib's training step).

const char kConvRules[] =
    "(backward rules exist for: linalg.conv_2d_nhwc_hwcf and "
    "linalg.depthwise_conv_2d_nhwc_hwc with a constant f32 weight and "
    "dilation 1, linalg.pooling_nhwc_sum, linalg.pooling_nhwc_max with its "
    "window equal to its stride and tiling its input, a zero tensor.pad "
    "feeding a convolution or sum pooling, linalg.matmul with a constant weight, elementwise linalg.generic "
    "epilogues (acc [+ bias] [+ residual] [ReLU]) and divisions by a "
    "constant, tensor.collapse_shape / expand_shape)";

// The largest im2col chunk of a weight-gradient GEMM.
constexpr int64_t kIm2colBytes = 64 * 1024;

bool isConvNetwork(func::FuncOp f) {
  bool conv = false;
  f.walk([&](Operation *op) {
    conv |= isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
                linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp,
                tensor::PadOp>(op);
  });
  return conv;
}

// y = [max](acc [+ bias] [+ residual], 0), or y = acc * scale.
struct Pointwise {
  Value acc, bias, residual;
  bool relu = false;
  float scale = 1.0f;
};

std::optional<Pointwise> matchPointwise(linalg::GenericOp g) {
  if (g.getNumDpsInits() != 1 || g.getNumDpsInputs() < 1 ||
      g.getNumReductionLoops() != 0)
    return std::nullopt;
  auto outType = cast<RankedTensorType>(g.getResult(0).getType());
  unsigned rank = outType.getRank();
  MLIRContext *ctx = g.getContext();
  AffineMap id = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap last = AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx));
  Pointwise p;
  Block &body = *g.getBody();
  BlockArgument argBias, argRes;
  for (OpOperand *in : g.getDpsInputOperands()) {
    AffineMap map = g.getMatchingIndexingMap(in);
    Type type = in->get().getType();
    if (in->getOperandNumber() == 0) {
      if (map != id || type != outType)
        return std::nullopt;
      p.acc = in->get();
    } else if (map == last && !argBias) {
      p.bias = in->get();
      argBias = g.getMatchingBlockArgument(in);
    } else if (map == id && type == outType && !argRes) {
      p.residual = in->get();
      argRes = g.getMatchingBlockArgument(in);
    } else {
      return std::nullopt;
    }
  }
  if (g.getIndexingMapsArray().back() != id)
    return std::nullopt;
  auto constant = [](Value v) -> std::optional<float> {
    FloatAttr f;
    if (matchPattern(v, m_Constant(&f)))
      return static_cast<float>(f.getValueAsDouble());
    return std::nullopt;
  };
  Value v = body.getArgument(0);
  bool usedBias = false, usedRes = false, scaled = false;
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ConstantOp>(op))
      continue;
    if (p.relu || scaled)
      return std::nullopt; // the ReLU or the scale ends the body
    if (auto add = dyn_cast<arith::AddFOp>(op)) {
      Value other = add.getLhs() == v   ? add.getRhs()
                    : add.getRhs() == v ? add.getLhs()
                                        : Value();
      if (other && other == argBias && !usedBias)
        usedBias = true;
      else if (other && other == argRes && !usedRes)
        usedRes = true;
      else
        return std::nullopt;
      v = add;
    } else if (auto max = dyn_cast<arith::MaximumFOp>(op)) {
      std::optional<float> c =
          max.getLhs() == v ? constant(max.getRhs()) : std::nullopt;
      if (!c || *c != 0.0f)
        return std::nullopt;
      p.relu = true;
      v = max;
    } else if (isa<arith::DivFOp, arith::MulFOp>(op) && !usedBias && !usedRes) {
      std::optional<float> c =
          op.getOperand(0) == v ? constant(op.getOperand(1)) : std::nullopt;
      if (!c || *c == 0.0f)
        return std::nullopt;
      p.scale = isa<arith::DivFOp>(op) ? 1.0f / *c : *c;
      scaled = true;
      v = op.getResult(0);
    } else {
      return std::nullopt;
    }
  }
  if (body.getTerminator()->getOperand(0) != v || usedBias != !!argBias ||
      usedRes != !!argRes)
    return std::nullopt;
  return p;
}

// A 2-D conv's or pool's `strides`/`dilations` along H and W; absent is the
// named ops' default, 1 and 1 (the verifier accepts an op without them).
SmallVector<int64_t> intsOf(Operation *op, StringRef name) {
  auto a = op->getAttrOfType<DenseIntElementsAttr>(name);
  if (!a)
    return {1, 1};
  SmallVector<int64_t> out;
  for (APInt v : a.getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

class ConvTrainer {
public:
  ConvTrainer(func::FuncOp forward, int64_t steps, double lr)
      : forward(forward), steps(steps), lr(lr) {}

  // Checks every op has a rule; fails after an error at the first that
  // has none.
  LogicalResult match() {
    if (forward.getNumArguments() != 1)
      return forward.emitError("npu-derive-training needs a network with "
                               "one input (the data), got ")
             << forward.getNumArguments();
    input = forward.getArgument(0);
    Block &body = forward.getBody().front();
    auto constantWeight = [&](Operation *op, Value w) -> LogicalResult {
      auto c = w.getDefiningOp<arith::ConstantOp>();
      if (!c)
        return op->emitOpError("has a weight that is not a constant: no "
                               "backward rule ")
               << kConvRules;
      if (failed(checkNotShared(c)))
        return failure();
      layers.push_back({op, c, nullptr});
      return success();
    };
    for (Operation &op : body) {
      if (isa<tensor::EmptyOp, linalg::FillOp, tensor::CollapseShapeOp,
              tensor::ExpandShapeOp>(op))
        continue;
      if (auto c = dyn_cast<arith::ConstantOp>(op)) {
        if (!getElementTypeOrSelf(c.getType()).isF32())
          return op.emitOpError("has element type ")
                 << getElementTypeOrSelf(c.getType())
                 << ": integer networks cannot be trained (f32 only)";
        continue;
      }
      if (auto pad = dyn_cast<tensor::PadOp>(op)) {
        Operation *user = pad->hasOneUse() ? *pad->getUsers().begin() : nullptr;
        if (!user ||
            !isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
                 linalg::PoolingNhwcSumOp>(user) ||
            user->getOperand(0) != pad.getResult())
          return op.emitOpError("has no backward rule unless it pads the "
                                "input of one convolution or pooling ")
                 << kConvRules;
        continue;
      }
      if (auto pool = dyn_cast<linalg::PoolingNhwcMaxOp>(op)) {
        if (failed(checkMaxPool(pool)))
          return failure();
        continue;
      }
      if (isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
              linalg::PoolingNhwcSumOp>(op)) {
        if (llvm::any_of(intsOf(&op, "dilations"),
                         [](int64_t d) { return d != 1; }))
          return op.emitOpError("is dilated: no backward rule ") << kConvRules;
        if (!isa<linalg::PoolingNhwcSumOp>(op) &&
            failed(constantWeight(&op, op.getOperand(1))))
          return failure();
        continue;
      }
      if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
        if (failed(constantWeight(&op, mm.getDpsInputs()[1])))
          return failure();
        continue;
      }
      if (auto g = dyn_cast<linalg::GenericOp>(op)) {
        std::optional<Pointwise> p = matchPointwise(g);
        if (!p)
          return op.emitOpError("has no backward rule in this form ")
                 << kConvRules;
        // A layer without a bias adds the importer's zeros: a constant of
        // the forward, not trained.
        if (p->bias && !isNoBias(p->bias.getDefiningOp<arith::ConstantOp>())) {
          auto c = p->bias.getDefiningOp<arith::ConstantOp>();
          if (c && failed(checkNotShared(c)))
            return failure();
          Operation *layer = p->acc.getDefiningOp();
          auto it = llvm::find_if(
              layers, [&](const ConvLayer &l) { return l.op == layer; });
          if (!c || it == layers.end() || it->bias)
            return op.emitOpError("adds a bias that is not a constant of the "
                                  "layer it follows: no backward rule ")
                   << kConvRules;
          it->bias = c;
        }
        continue;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        auto type =
            ret.getNumOperands() == 1
                ? dyn_cast<RankedTensorType>(ret.getOperand(0).getType())
                : RankedTensorType();
        if (!type || type.getRank() != 2 || type.getDimSize(0) != 1 ||
            type.getDimSize(1) < 2)
          return op.emitOpError("must return the logits (1 x classes, "
                                "classes >= 2): the only loss shape of a "
                                "convolutional network (softmax "
                                "cross-entropy)");
        logits = ret.getOperand(0);
        continue;
      }
      return op.emitOpError("has no backward rule ") << kConvRules;
    }
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    if (!inType || inType.getRank() != 4 || inType.getDimSize(0) != 1 ||
        !inType.getElementType().isF32())
      return forward.emitError("npu-derive-training needs the f32 input of a "
                               "convolutional network to be 1 x H x W x C "
                               "(the conv kernels run batch 1), got ")
             << input.getType();
    return success();
  }

  // Builds @<net>_train before the forward function (which the caller
  // erases), appending the trained tensors' names to `names`.
  LogicalResult build(SmallVectorImpl<Attribute> &names, int64_t &classes) {
    MLIRContext *ctx = forward.getContext();
    Type i32 = IntegerType::get(ctx, 32);
    auto logitsType = cast<RankedTensorType>(logits.getType());
    const int64_t C = logitsType.getDimSize(1);
    classes = C;
    SmallVector<Type> argTypes, resultTypes;
    for (int64_t s = 0; s < steps; ++s) {
      argTypes.push_back(input.getType());
      argTypes.push_back(RankedTensorType::get({1}, i32));
    }
    for (int64_t s = 0; s <= steps; ++s) // steps.done, then the losses
      resultTypes.push_back(
          RankedTensorType::get({1, 1}, logitsType.getElementType()));
    for (ConvLayer &l : layers) {
      resultTypes.push_back(l.weight.getType());
      if (l.bias)
        resultTypes.push_back(l.bias.getType());
    }
    Location floc = forward.getLoc();
    OpBuilder b(forward);
    Block *entry = createTrainFunction(b, forward, argTypes, resultTypes);
    Value zero = b.create<arith::ConstantOp>(floc, b.getF32FloatAttr(0.0f));
    Emitter em(b, zero);
    this->em = &em;
    Emitter::StepState state = em.stepState(floc, steps);

    for (ConvLayer &l : layers)
      for (arith::ConstantOp c : {l.weight, l.bias})
        if (c) {
          Operation *copy = b.clone(*c);
          NpuDialect::TrainableAttrHelper(ctx).setAttr(copy,
                                                       UnitAttr::get(ctx));
          current[c.getResult()] = copy->getResult(0);
        }
    Value onesRow = em.ones(floc, 1, 1);
    Value onesOut = em.ones(floc, C, 1);
    Value classIds = em.classIds(floc, C);

    Block &body = forward.getBody().front();
    SmallVector<Value> data, labelInputs;
    for (int64_t s = 0; s < steps; ++s) {
      data.push_back(entry->getArgument(2 * s));
      labelInputs.push_back(entry->getArgument(2 * s + 1));
    }
    // One step: the firmware runs it `steps` times (npu-loop-training-
    // steps), each on the mini-batch the steps done select.
    Value x = em.selectStep(floc, state.done, data);
    Value labels = em.selectStep(floc, state.done, labelInputs);
    // Forward: the network's ops as they are, reading the current weights.
    map.map(input, x);
    for (auto &[orig, now] : current)
      map.map(orig, now);
    for (Operation &op : body.without_terminator())
      if (!current.count(op.getNumResults() ? op.getResult(0) : Value()))
        b.clone(op, map);
    Value z = map.lookup(logits);
    Location lloc = logits.getDefiningOp()->getLoc();
    Value perElement, dz;
    std::tie(perElement, dz) = em.lossAndGradient(
        lloc, z, x, labels, classIds, onesOut, /*mse=*/false, 1, C);
    Value loss = em.mm(lloc, onesRow, em.mm(lloc, perElement, onesOut));
    grads[logits] = dz;
    // Backward, last op first.
    for (Operation &op : llvm::reverse(body.without_terminator()))
      if (op.getNumResults() == 1 && grads.count(op.getResult(0)) &&
          failed(backward(&op, grads.lookup(op.getResult(0)))))
        return failure();
    em.finishStep(lloc, state, loss);
    SmallVector<Value> results;
    Emitter::stateResults(state, results, names, ctx);
    for (auto [k, l] : llvm::enumerate(layers)) {
      std::string name = "layer" + std::to_string(k + 1);
      results.push_back(current.lookup(l.weight.getResult()));
      names.push_back(b.getStringAttr(name + ".weight"));
      if (l.bias) {
        results.push_back(current.lookup(l.bias.getResult()));
        names.push_back(b.getStringAttr(name + ".bias"));
      }
    }
    b.create<func::ReturnOp>(floc, results);
    return success();
  }

private:
  struct ConvLayer {
    Operation *op;
    arith::ConstantOp weight, bias;
  };

  OpBuilder &b() { return em->b; }
  RankedTensorType tensorOf(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, b().getF32Type());
  }
  AffineExpr d(unsigned i) { return getAffineDimExpr(i, b().getContext()); }
  AffineMap mapOf(unsigned dims, ArrayRef<AffineExpr> results) {
    return AffineMap::get(dims, 0, results, b().getContext());
  }

  void addGrad(Value orig, Value g, Location loc) {
    if (orig == input)
      return;
    auto it = grads.find(orig);
    if (it == grads.end()) {
      grads[orig] = g;
      return;
    }
    auto type = cast<RankedTensorType>(g.getType());
    AffineMap id =
        AffineMap::getMultiDimIdentityMap(type.getRank(), b().getContext());
    it->second =
        em->gen(loc, {it->second, g}, {id, id}, type,
                [](OpBuilder &nb, Location l, ValueRange a) {
                  return nb.create<arith::AddFOp>(l, a[0], a[1]).getResult();
                })
            .getResult(0);
  }

  Value constantOf(RankedTensorType type, ArrayRef<float> values,
                   Location loc) {
    return b().create<arith::ConstantOp>(loc,
                                         DenseElementsAttr::get(type, values));
  }

  // A conv / depthwise conv / pooling writing a fresh [1, H, W, C] tensor,
  // then the identity epilogue npu-fuse-conv fuses it with.
  Value convLayer(Location loc, StringRef kind, Value in, Value w,
                  ArrayRef<int64_t> outShape, ArrayRef<int64_t> strides) {
    Value fill = em->filled(loc, outShape);
    RankedTensorType type = tensorOf(outShape);
    auto s = b().getI64TensorAttr(strides);
    auto dil = b().getI64TensorAttr({1, 1});
    Value acc;
    if (kind == "conv")
      acc = b().create<linalg::Conv2DNhwcHwcfOp>(loc, TypeRange{type},
                                                 ValueRange{in, w},
                                                 ValueRange{fill}, s, dil)
                .getResult(0);
    else
      acc = b().create<linalg::DepthwiseConv2DNhwcHwcOp>(
                   loc, TypeRange{type}, ValueRange{in, w}, ValueRange{fill}, s,
                   dil)
                .getResult(0);
    AffineMap id = AffineMap::getMultiDimIdentityMap(4, b().getContext());
    return em
        ->gen(loc, {acc}, {id}, type,
              [](OpBuilder &, Location, ValueRange a) { return a[0]; })
        .getResult(0);
  }

  Value padded(Location loc, Value x, ArrayRef<int64_t> low,
               ArrayRef<int64_t> high) {
    if (llvm::all_of(low, [](int64_t v) { return v == 0; }) &&
        llvm::all_of(high, [](int64_t v) { return v == 0; }))
      return x;
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(type.getShape());
    SmallVector<OpFoldResult> lo, hi;
    for (unsigned i = 0; i < shape.size(); ++i) {
      shape[i] += low[i] + high[i];
      lo.push_back(b().getIndexAttr(low[i]));
      hi.push_back(b().getIndexAttr(high[i]));
    }
    return b().create<tensor::PadOp>(loc, tensorOf(shape), x, lo, hi, em->zero);
  }

  // The gradient of a convolution's (padded) input, as the stride-1
  // convolution of dY, dilated by the stride and padded, with the flipped
  // weights `wf`: dX[h] = sum_k D[h + k] wf[k] over D = pad(dilate(dY)).
  // The forward padding's low side shifts the window, so dX has the
  // unpadded input's shape (the pad's own backward, a slice, folds in).
  FailureOr<Value> inputGrad(Operation *op, StringRef kind, Value dy, Value wf,
                             ArrayRef<int64_t> window, ArrayRef<int64_t> lowPad,
                             RankedTensorType xType) {
    Location loc = op->getLoc();
    SmallVector<int64_t> strides = intsOf(op, "strides");
    auto dyType = cast<RankedTensorType>(dy.getType());
    int64_t oh = dyType.getDimSize(1), ow = dyType.getDimSize(2),
            ch = dyType.getDimSize(3);
    Value dil = dy;
    if (strides[0] != 1 || strides[1] != 1) {
      // [1, OH, sh, OW, sw, C] = dY x (a one at [0, 0] of each sh x sw
      // block), collapsed to [1, OH sh, OW sw, C]: the zero-inserted dY.
      int64_t sh = strides[0], sw = strides[1];
      SmallVector<float> one(sh * sw, 0.0f);
      one[0] = 1.0f;
      Value mask = constantOf(tensorOf({sh, sw}), one, loc);
      Value g6 =
          em->gen(loc, {dy, mask},
                  {mapOf(6, {d(0), d(1), d(3), d(5)}), mapOf(6, {d(2), d(4)})},
                  tensorOf({1, oh, sh, ow, sw, ch}),
                  [](OpBuilder &nb, Location l, ValueRange a) {
                    return nb.create<arith::MulFOp>(l, a[0], a[1]).getResult();
                  })
              .getResult(0);
      SmallVector<ReassociationIndices> r{{0}, {1, 2}, {3, 4}, {5}};
      dil = b().create<tensor::CollapseShapeOp>(loc, g6, r);
    }
    SmallVector<int64_t> low{0, 0, 0, 0}, high{0, 0, 0, 0};
    for (unsigned i = 0; i < 2; ++i) {
      int64_t len = (i ? ow : oh) * strides[i];
      low[i + 1] = window[i] - 1 - lowPad[i];
      high[i + 1] = xType.getDimSize(i + 1) + lowPad[i] - len;
      if (low[i + 1] < 0 || high[i + 1] < 0)
        return op->emitOpError("has no backward rule for this padding ")
               << "(low " << lowPad[i] << ", window " << window[i]
               << ", stride " << strides[i] << ") " << kConvRules;
    }
    Value in = padded(loc, dil, low, high);
    SmallVector<int64_t> outShape(xType.getShape());
    return convLayer(loc, kind, in, wf, outShape, {1, 1});
  }

  // The forward padding of a convolution's input, materialised (a 1x1
  // depthwise conv with ones the padding folds into) for im2col.
  Value paddedInput(Location loc, Value x, tensor::PadOp pad) {
    if (!pad)
      return x;
    Value p = padded(loc, x, pad.getStaticLow(), pad.getStaticHigh());
    auto type = cast<RankedTensorType>(p.getType());
    int64_t c = type.getDimSize(3);
    Value ones =
        constantOf(tensorOf({1, 1, c}), SmallVector<float>(c, 1.0f), loc);
    return convLayer(loc, "dw", p, ones, type.getShape(), {1, 1});
  }

  void updateBias(Location loc, Value orig, Value g) {
    Value bias = current.lookup(orig);
    auto gType = cast<RankedTensorType>(g.getType());
    int64_t n = gType.getShape().back();
    int64_t rows = gType.getNumElements() / n;
    if (gType.getRank() != 2) {
      ReassociationIndices lead;
      for (int64_t i = 0; i + 1 < gType.getRank(); ++i)
        lead.push_back(i);
      SmallVector<ReassociationIndices> r{lead, {gType.getRank() - 1}};
      g = b().create<tensor::CollapseShapeOp>(loc, g, r);
    }
    Value negRate =
        constantOf(em->t2(1, rows),
                   SmallVector<float>(rows, static_cast<float>(-lr)), loc);
    SmallVector<ReassociationIndices> all{{0, 1}};
    Value b2 = b().create<tensor::ExpandShapeOp>(loc, em->t2(1, n), bias, all);
    current[orig] = em->flatten(loc, em->sgdUpdate(loc, negRate, g, b2));
  }

  // Max pooling's rule needs disjoint windows that tile the input (the
  // PyTorch default MaxPool2d(k), stride k): each input element then has at
  // most one window, so dX is dY's window-wise scatter, a reshape.
  LogicalResult checkMaxPool(linalg::PoolingNhwcMaxOp pool) {
    SmallVector<int64_t> strides = intsOf(pool, "strides");
    auto window = cast<RankedTensorType>(pool.getDpsInputs()[1].getType());
    auto in = cast<RankedTensorType>(pool.getDpsInputs()[0].getType());
    auto out = cast<RankedTensorType>(pool.getResult(0).getType());
    if (llvm::any_of(intsOf(pool, "dilations"),
                     [](int64_t d) { return d != 1; }) ||
        !in.hasStaticShape() || window.getDimSize(0) != strides[0] ||
        window.getDimSize(1) != strides[1] ||
        in.getDimSize(1) != out.getDimSize(1) * strides[0] ||
        in.getDimSize(2) != out.getDimSize(2) * strides[1])
      return pool.emitOpError("has no backward rule for this window (")
             << window.getDimSize(0) << "x" << window.getDimSize(1)
             << ", stride " << strides[0] << "x" << strides[1] << ", input "
             << in.getDimSize(1) << "x" << in.getDimSize(2) << ") "
             << kConvRules;
    return success();
  }

  // dX of y = maxpool(x), windows kh x kw at stride (kh, kw): each window's
  // dY goes to its first maximum in row-major order (PyTorch's tie rule).
  // On the workers: the position of that maximum, a reducing generic (the
  // least position k = i kw + j whose x equals y), then dX viewed as
  // [1, OH, kh, OW, kw, C] = (position == k) ? dY : 0, collapsed to x's
  // shape.
  Value maxPool(linalg::PoolingNhwcMaxOp pool, Value g) {
    Location loc = pool.getLoc();
    Value x = map.lookup(pool.getDpsInputs()[0]);
    Value y = map.lookup(pool.getResult(0));
    em->markKept(x);
    em->markKept(y);
    auto window = cast<RankedTensorType>(pool.getDpsInputs()[1].getType());
    auto gType = cast<RankedTensorType>(g.getType());
    int64_t kh = window.getDimSize(0), kw = window.getDimSize(1);
    int64_t oh = gType.getDimSize(1), ow = gType.getDimSize(2),
            c = gType.getDimSize(3);
    SmallVector<float> k(kh * kw);
    for (int64_t i = 0; i < kh * kw; ++i)
      k[i] = static_cast<float>(i);
    Value positions = constantOf(tensorOf({kh, kw}), k, loc);
    Value none = b().create<arith::ConstantOp>(
        loc, b().getF32FloatAttr(static_cast<float>(kh * kw)));
    Value init =
        b().create<linalg::FillOp>(
               loc, none,
               b().create<tensor::EmptyOp>(loc, gType.getShape(),
                                           b().getF32Type())
                   .getResult())
            .getResult(0);
    auto par = utils::IteratorType::parallel,
         red = utils::IteratorType::reduction;
    Value first =
        b().create<linalg::GenericOp>(
               loc, TypeRange{gType}, ValueRange{x, y, positions},
               ValueRange{init},
               ArrayRef<AffineMap>{
                   mapOf(6, {d(0), d(1) * kh + d(4), d(2) * kw + d(5), d(3)}),
                   mapOf(6, {d(0), d(1), d(2), d(3)}),
                   mapOf(6, {d(4), d(5)}), mapOf(6, {d(0), d(1), d(2), d(3)})},
               ArrayRef<utils::IteratorType>{par, par, par, par, red, red},
               [](OpBuilder &nb, Location l, ValueRange a) {
                 Value isMax = nb.create<arith::CmpFOp>(
                     l, arith::CmpFPredicate::OEQ, a[0], a[1]);
                 Value earlier = nb.create<arith::CmpFOp>(
                     l, arith::CmpFPredicate::OLT, a[2], a[3]);
                 Value take = nb.create<arith::AndIOp>(l, isMax, earlier);
                 nb.create<linalg::YieldOp>(
                     l, nb.create<arith::SelectOp>(l, take, a[2], a[3])
                            .getResult());
               })
            .getResult(0);
    Value g6 =
        em->gen(loc, {g, first, positions},
                {mapOf(6, {d(0), d(1), d(3), d(5)}),
                 mapOf(6, {d(0), d(1), d(3), d(5)}), mapOf(6, {d(2), d(4)})},
                tensorOf({1, oh, kh, ow, kw, c}),
                [](OpBuilder &nb, Location l, ValueRange a) {
                  Value hit = nb.create<arith::CmpFOp>(
                      l, arith::CmpFPredicate::OEQ, a[1], a[2]);
                  return nb
                      .create<arith::SelectOp>(l, hit, a[0], cst(nb, l, 0.0f))
                      .getResult();
                })
            .getResult(0);
    SmallVector<ReassociationIndices> r{{0}, {1, 2}, {3, 4}, {5}};
    return b().create<tensor::CollapseShapeOp>(loc, g6, r);
  }

  LogicalResult backward(Operation *op, Value g) {
    Location loc = op->getLoc();
    float rate = static_cast<float>(lr);
    if (auto pool = dyn_cast<linalg::PoolingNhwcMaxOp>(op)) {
      if (pool.getDpsInputs()[0] != input)
        addGrad(pool.getDpsInputs()[0], maxPool(pool, g), loc);
      return success();
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      Pointwise p = *matchPointwise(generic);
      auto type = cast<RankedTensorType>(g.getType());
      AffineMap id =
          AffineMap::getMultiDimIdentityMap(type.getRank(), b().getContext());
      if (p.relu) {
        Value out = map.lookup(op->getResult(0));
        em->markKept(out);
        g = em->gen(loc, {g, out}, {id, id}, type,
                    [](OpBuilder &nb, Location l, ValueRange v) {
                      Value pos = nb.create<arith::CmpFOp>(
                          l, arith::CmpFPredicate::OGT, v[1], cst(nb, l, 0.0f));
                      return nb
                          .create<arith::SelectOp>(l, pos, v[0],
                                                   cst(nb, l, 0.0f))
                          .getResult();
                    })
                .getResult(0);
      }
      if (p.scale != 1.0f) {
        float scale = p.scale;
        g = em->gen(loc, {g}, {id}, type,
                    [&](OpBuilder &nb, Location l, ValueRange v) {
                      return nb
                          .create<arith::MulFOp>(l, v[0], cst(nb, l, scale))
                          .getResult();
                    })
                .getResult(0);
      }
      if (p.bias && current.count(p.bias))
        updateBias(loc, p.bias, g);
      if (p.residual)
        addGrad(p.residual, g, loc);
      addGrad(p.acc, g, loc);
      return success();
    }
    if (auto c = dyn_cast<tensor::CollapseShapeOp>(op)) {
      addGrad(c.getSrc(),
              b().create<tensor::ExpandShapeOp>(loc, c.getSrcType(), g,
                                                c.getReassociationIndices()),
              loc);
      return success();
    }
    if (auto e = dyn_cast<tensor::ExpandShapeOp>(op)) {
      addGrad(e.getSrc(),
              b().create<tensor::CollapseShapeOp>(loc, g,
                                                  e.getReassociationIndices()),
              loc);
      return success();
    }
    if (auto mmOp = dyn_cast<linalg::MatmulOp>(op)) {
      Value xOrig = mmOp.getDpsInputs()[0];
      Value wOrig = mmOp.getDpsInputs()[1];
      Value w = current.lookup(wOrig);
      // dX = dY W^T reads the weight before its update.
      if (xOrig != input)
        addGrad(xOrig, em->mm(loc, g, em->transpose(loc, w)), loc);
      Value xv = map.lookup(xOrig);
      em->markKept(xv);
      auto xType = cast<RankedTensorType>(xv.getType());
      AffineMap tr = mapOf(2, {d(1), d(0)});
      Value negXt =
          em->gen(loc, {xv}, {tr},
                  em->t2(xType.getDimSize(1), xType.getDimSize(0)),
                  [&](OpBuilder &nb, Location l, ValueRange a) {
                    return nb.create<arith::MulFOp>(l, a[0], cst(nb, l, -rate))
                        .getResult();
                  })
              .getResult(0);
      current[wOrig] = em->sgdUpdate(loc, negXt, g, w);
      return success();
    }
    if (!isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
             linalg::PoolingNhwcSumOp>(op))
      return success(); // constants, fills, pads: nothing flows back
    Value inOrig = op->getOperand(0);
    auto pad = inOrig.getDefiningOp<tensor::PadOp>();
    Value xOrig = pad ? pad.getSource() : inOrig;
    SmallVector<int64_t> lowPad{0, 0};
    if (pad)
      lowPad = {pad.getStaticLow()[1], pad.getStaticLow()[2]};
    auto xType = cast<RankedTensorType>(xOrig.getType());
    auto wType = cast<RankedTensorType>(op->getOperand(1).getType());
    int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1);
    SmallVector<int64_t> strides = intsOf(op, "strides");
    auto gType = cast<RankedTensorType>(g.getType());
    int64_t oh = gType.getDimSize(1), ow = gType.getDimSize(2);
    AffineExpr flipH = getAffineConstantExpr(kh - 1, b().getContext()) - d(0);
    AffineExpr flipW = getAffineConstantExpr(kw - 1, b().getContext()) - d(1);

    if (isa<linalg::PoolingNhwcSumOp>(op)) {
      int64_t c = xType.getDimSize(3);
      Value ones = constantOf(tensorOf({kh, kw, c}),
                              SmallVector<float>(kh * kw * c, 1.0f), loc);
      FailureOr<Value> dx =
          inputGrad(op, "dw", g, ones, {kh, kw}, lowPad, xType);
      if (failed(dx))
        return failure();
      addGrad(xOrig, *dx, loc);
      return success();
    }
    Value wOrig = op->getOperand(1);
    Value w = current.lookup(wOrig);
    bool depthwise = isa<linalg::DepthwiseConv2DNhwcHwcOp>(op);
    // dX first: it reads the weight before its in-place update.
    if (xOrig != input) {
      Value wf;
      if (depthwise)
        wf = em->gen(loc, {w}, {mapOf(3, {flipH, flipW, d(2)})}, wType,
                     [](OpBuilder &, Location, ValueRange a) { return a[0]; })
                 .getResult(0);
      else
        wf = em->gen(
                   loc, {w}, {mapOf(4, {flipH, flipW, d(3), d(2)})},
                   tensorOf({kh, kw, wType.getDimSize(3), wType.getDimSize(2)}),
                   [](OpBuilder &, Location, ValueRange a) { return a[0]; })
                 .getResult(0);
      FailureOr<Value> dx = inputGrad(op, depthwise ? "dw" : "conv", g, wf,
                                      {kh, kw}, lowPad, xType);
      if (failed(dx))
        return failure();
      addGrad(xOrig, *dx, loc);
    }
    Value xv = map.lookup(xOrig);
    em->markKept(xv);
    Value xp = paddedInput(loc, xv, pad);
    // Input rows and columns each (kernel row, output row) reads.
    AffineMap patch =
        mapOf(5, {getAffineConstantExpr(0, b().getContext()),
                  d(3) * strides[0] + d(0), d(4) * strides[1] + d(1), d(2)});
    if (depthwise) {
      // W[kh, kw, c] += -lr sum_{oh, ow} Xp[oh s + kh, ow s + kw, c]
      // dY[oh, ow, c]: reduced on the workers into the weight's buffer.
      auto par = utils::IteratorType::parallel,
           red = utils::IteratorType::reduction;
      auto upd = b().create<linalg::GenericOp>(
          loc, TypeRange{wType}, ValueRange{xp, g}, ValueRange{w},
          ArrayRef<AffineMap>{
              patch,
              mapOf(5, {getAffineConstantExpr(0, b().getContext()), d(3), d(4),
                        d(2)}),
              mapOf(5, {d(0), d(1), d(2)})},
          ArrayRef<utils::IteratorType>{par, par, par, red, red},
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value p = nb.create<arith::MulFOp>(l, a[0], a[1]);
            Value s = nb.create<arith::MulFOp>(l, p, cst(nb, l, -rate));
            nb.create<linalg::YieldOp>(
                l, nb.create<arith::AddFOp>(l, a[2], s).getResult());
          });
      NpuDialect::SgdUpdateAttrHelper(b().getContext())
          .setAttr(upd, UnitAttr::get(b().getContext()));
      current[wOrig] = upd.getResult(0);
      return success();
    }
    // W += (-lr im2col(Xp)^T) dY, the weight viewed as (kh kw c) x f: a
    // matmul on the SA accumulating into the weight's buffer, in chunks of
    // output rows so the im2col buffer stays within kIm2colBytes (one
    // im2col of ResNet-8's first stage alone would be 576 KiB of L2).
    int64_t c = wType.getDimSize(2), f = wType.getDimSize(3);
    int64_t rowBytes = kh * kw * c * ow * 4;
    int64_t chunk = std::clamp<int64_t>(kIm2colBytes / rowBytes, 1, oh);
    SmallVector<ReassociationIndices> r5{{0, 1, 2}, {3, 4}}, r4{{0, 1, 2}, {3}};
    Value upd = b().create<tensor::CollapseShapeOp>(loc, w, r4);
    for (int64_t r0 = 0; r0 < oh; r0 += chunk) {
      int64_t n = std::min(chunk, oh - r0);
      AffineExpr row = d(3) + r0;
      AffineMap rows =
          mapOf(5, {getAffineConstantExpr(0, b().getContext()),
                    row * strides[0] + d(0), d(4) * strides[1] + d(1), d(2)});
      Value cols =
          em->gen(loc, {xp}, {rows}, tensorOf({kh, kw, c, n, ow}),
                  [&](OpBuilder &nb, Location l, ValueRange a) {
                    return nb.create<arith::MulFOp>(l, a[0], cst(nb, l, -rate))
                        .getResult();
                  })
              .getResult(0);
      Value gRows;
      if (n == oh) {
        gRows = b().create<tensor::CollapseShapeOp>(loc, g, r4);
      } else {
        // dY's rows r0..r0+n; the unit loop d0 keeps the row index a sum
        // (a bare d1 would make linalg infer the rows from dY's height).
        Value part =
            em->gen(loc, {g}, {mapOf(4, {d(0), d(0) + d(1) + r0, d(2), d(3)})},
                    tensorOf({1, n, ow, f}),
                    [](OpBuilder &, Location, ValueRange a) { return a[0]; })
                .getResult(0);
        gRows = b().create<tensor::CollapseShapeOp>(loc, part, r4);
      }
      Value colsT = b().create<tensor::CollapseShapeOp>(loc, cols, r5);
      upd = em->sgdUpdate(loc, colsT, gRows, upd);
    }
    current[wOrig] = b().create<tensor::ExpandShapeOp>(loc, wType, upd, r4);
    return success();
  }

  func::FuncOp forward;
  int64_t steps;
  double lr;
  Value input, logits;
  SmallVector<ConvLayer> layers;
  // Per forward constant: its current (trained) value.
  llvm::MapVector<Value, Value> current;
  IRMapping map;
  DenseMap<Value, Value> grads;
  Emitter *em = nullptr;
};

struct DeriveTrainingPass
    : public mlir::npu::impl::NpuDeriveTrainingBase<DeriveTrainingPass> {
  using NpuDeriveTrainingBase::NpuDeriveTrainingBase;

  // The layers of `func`, or failure after an error at the op that has no
  // backward rule.
  FailureOr<SmallVector<Layer>> matchNetwork(func::FuncOp func) {
    SmallVector<Layer> layers;
    if (func.getNumArguments() != 1)
      return func.emitError("npu-derive-training needs a network with one "
                            "input (the data), got ")
             << func.getNumArguments();
    Value act = func.getArgument(0);
    Block &body = func.getBody().front();
    for (Operation &op : body) {
      if (isa<tensor::EmptyOp, linalg::FillOp>(op))
        continue;
      if (auto c = dyn_cast<arith::ConstantOp>(op)) {
        if (!getElementTypeOrSelf(c.getType()).isF32())
          return op.emitOpError("has element type ")
                 << getElementTypeOrSelf(c.getType())
                 << ": integer networks cannot be trained (f32 only)";
        continue;
      }
      if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
        auto w = mm.getDpsInputs()[1].getDefiningOp<arith::ConstantOp>();
        auto init = mm.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
        if (!getElementTypeOrSelf(mm.getDpsInputs()[0].getType()).isF32())
          return op.emitOpError("is an integer matmul: integer networks "
                                "cannot be trained (f32 only)");
        if (mm.getDpsInputs()[0] != act || !w || !init || !mm->hasOneUse())
          return op.emitOpError("has no backward rule in this form ") << kRules;
        if (failed(checkNotShared(w)))
          return failure();
        auto g = dyn_cast<linalg::GenericOp>(*mm->getUsers().begin());
        Layer layer{cast<DenseElementsAttr>(w.getValue()),
                    {},
                    w.getLoc(),
                    w.getLoc(),
                    mm.getLoc(),
                    mm.getLoc()};
        if (!g || !matchEpilogue(g, mm.getResult(0), layer.relu))
          return op.emitOpError("is not followed by a bias add (+ ReLU) "
                                "epilogue with a backward rule ")
                 << kRules;
        auto b = g.getDpsInputs()[1].getDefiningOp<arith::ConstantOp>();
        if (!b)
          return g.emitOpError("adds a bias that is not a constant: no "
                               "backward rule ")
                 << kRules;
        if (failed(checkNotShared(b)))
          return failure();
        layer.bias = cast<DenseElementsAttr>(b.getValue());
        layer.biasLoc = b.getLoc();
        layer.noBias = isNoBias(b);
        layer.epilogueLoc = g.getLoc();
        layers.push_back(layer);
        act = g.getResult(0);
        continue;
      }
      if (auto g = dyn_cast<linalg::GenericOp>(op)) {
        if (!layers.empty() && g.getResult(0) == act)
          continue; // the epilogue matched with its matmul
        return op.emitOpError("has no backward rule ") << kRules;
      }
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        if (ret.getNumOperands() != 1 || ret.getOperand(0) != act ||
            layers.empty())
          return op.emitOpError("must return the last layer's output (the "
                                "logits) and nothing else");
        continue;
      }
      return op.emitOpError("has no backward rule ") << kRules;
    }
    // After the ops, so an integer or convolutional network is named by
    // its first op without a rule rather than by its input.
    auto inType = dyn_cast<RankedTensorType>(func.getArgument(0).getType());
    if (!inType || inType.getRank() != 2 || !inType.getElementType().isF32())
      return func.emitError("npu-derive-training needs an f32 input of "
                            "shape batch x features, got ")
             << func.getArgument(0).getType();
    return layers;
  }

  // What the driver names the interface by (the manifest's `training`).
  void setTrainingAttr(ModuleOp module, int64_t B, bool mse, int64_t C,
                       ArrayRef<Attribute> names) {
    Builder b(module.getContext());
    SmallVector<NamedAttribute> desc{
        b.getNamedAttr("steps", b.getI64IntegerAttr(steps)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(B)),
        b.getNamedAttr("lr", b.getF64FloatAttr(lr)),
        b.getNamedAttr("loss", b.getStringAttr(mse ? "mse" : "cross-entropy")),
        b.getNamedAttr("classes", b.getI64IntegerAttr(mse ? 0 : C)),
        b.getNamedAttr("data_inputs", b.getI64IntegerAttr(mse ? 1 : 2)),
        b.getNamedAttr("outputs", b.getArrayAttr(names))};
    NpuDialect::TrainingAttrHelper(module.getContext())
        .setAttr(module, b.getDictionaryAttr(desc));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (steps < 1 || steps > 64 || batch < 0 || batch > 256 ||
        !(lr > 0.0 && lr <= 10.0)) {
      module.emitError("npu-derive-training: steps must be 1..64, batch "
                       "1..256 and lr in (0, 10], got steps=")
          << static_cast<int64_t>(steps)
          << " batch=" << static_cast<int64_t>(batch)
          << " lr=" << static_cast<double>(lr);
      return signalPassFailure();
    }
    // The step runs in f32: a rate below f32's smallest normal number is 0
    // (or a denormal) there, and training would leave every weight as it was.
    if (static_cast<float>(lr) < std::numeric_limits<float>::min()) {
      module.emitError("npu-derive-training: lr=")
          << static_cast<double>(lr)
          << " is 0 in f32, the precision the step runs in (the smallest "
             "normal f32 is 1.17549e-38)";
      return signalPassFailure();
    }
    func::FuncOp forward;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal()) {
        if (forward) {
          f.emitError("npu-derive-training handles one function per module");
          return signalPassFailure();
        }
        forward = f;
      }
    if (!forward) {
      module.emitError("npu-derive-training: no function with a body");
      return signalPassFailure();
    }
    if (isConvNetwork(forward)) {
      if (batch > 1) {
        forward.emitError("a convolutional network trains on mini-batches "
                          "of one sample (the conv kernels run batch 1): "
                          "batch must be 1, got ")
            << static_cast<int64_t>(batch);
        return signalPassFailure();
      }
      ConvTrainer trainer(forward, steps, lr);
      SmallVector<Attribute> names;
      int64_t classes = 0;
      if (failed(trainer.match()) || failed(trainer.build(names, classes)))
        return signalPassFailure();
      setTrainingAttr(module, 1, /*mse=*/false, classes, names);
      forward.erase();
      return;
    }
    FailureOr<SmallVector<Layer>> matched = matchNetwork(forward);
    if (failed(matched))
      return signalPassFailure();
    SmallVector<Layer> layers = std::move(*matched);
    const int64_t features =
        cast<RankedTensorType>(forward.getArgument(0).getType()).getDimSize(1);
    const int64_t outWidth =
        cast<RankedTensorType>(layers.back().weight.getType()).getDimSize(1);
    // The loss: an output as wide as the input reconstructs it (the
    // autoencoder's MSE); otherwise the output is the logits of a
    // classifier (softmax cross-entropy against integer labels).
    const bool mse = outWidth == features;
    if (!mse && outWidth < 2) {
      forward.emitError("the network's output (width ")
          << outWidth
          << ") is not a supported loss shape: logits of >= 2 classes "
             "(softmax cross-entropy) or a reconstruction of the input (MSE)";
      return signalPassFailure();
    }
    // Batch 0: the default, 4 rows.
    const int64_t B = batch ? batch : 4, C = outWidth;

    Type f32 = Float32Type::get(ctx);
    Type i32 = IntegerType::get(ctx, 32);
    auto t2 = [&](int64_t r, int64_t c) {
      return RankedTensorType::get({r, c}, f32);
    };
    const int64_t dataInputs = mse ? 1 : 2;
    SmallVector<Type> argTypes, resultTypes;
    for (int64_t s = 0; s < steps; ++s) {
      argTypes.push_back(t2(B, features));
      if (!mse)
        argTypes.push_back(RankedTensorType::get({B}, i32));
    }
    for (int64_t s = 0; s <= steps; ++s) // steps.done, then the losses
      resultTypes.push_back(t2(1, 1));
    for (const Layer &l : layers) {
      resultTypes.push_back(l.weight.getType());
      if (!l.noBias)
        resultTypes.push_back(l.bias.getType());
    }

    Location floc = forward.getLoc();
    OpBuilder b(forward);
    Block *entry = createTrainFunction(b, forward, argTypes, resultTypes);
    Value zero = b.create<arith::ConstantOp>(floc, b.getF32FloatAttr(0.0f));

    Emitter em(b, zero);
    MLIRContext *c = ctx;
    AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, c);
    AffineMap col = AffineMap::get(2, 0, getAffineDimExpr(1, c));
    AffineMap tr = AffineMap::get(
        2, 0, {getAffineDimExpr(1, c), getAffineDimExpr(0, c)}, c);

    Emitter::StepState state = em.stepState(floc, steps);
    // The trainable weights: the forward network's constants, now updated.
    SmallVector<Value> weights, biases;
    for (const Layer &l : layers) {
      auto w = b.create<arith::ConstantOp>(l.weightLoc, l.weight);
      auto bb = b.create<arith::ConstantOp>(l.biasLoc, l.bias);
      NpuDialect::TrainableAttrHelper(ctx).setAttr(w, UnitAttr::get(ctx));
      if (!l.noBias)
        NpuDialect::TrainableAttrHelper(ctx).setAttr(bb, UnitAttr::get(ctx));
      weights.push_back(w);
      biases.push_back(bb);
    }
    Value onesRow = em.ones(floc, 1, B); // sums over the batch
    Value negRate = b.create<arith::ConstantOp>(
        floc, DenseElementsAttr::get(
                  t2(1, B), b.getF32FloatAttr(static_cast<float>(-lr))));
    Value onesOut = em.ones(floc, C, 1); // sums over the output's columns
    Value classIds = mse ? Value() : em.classIds(floc, C);
    const float rate = static_cast<float>(lr);

    // One step: the firmware runs it `steps` times (npu-loop-training-
    // steps), each on the mini-batch the steps done select.
    SmallVector<Value> data, labelInputs;
    for (int64_t s = 0; s < steps; ++s) {
      data.push_back(entry->getArgument(s * dataInputs));
      if (!mse)
        labelInputs.push_back(entry->getArgument(s * dataInputs + 1));
    }
    Value x = em.selectStep(floc, state.done, data);
    Value labels = mse ? Value() : em.selectStep(floc, state.done, labelInputs);
    // Forward, keeping every layer's input for the backward.
    SmallVector<Value> acts{x};
    for (auto [k, l] : llvm::enumerate(layers)) {
      Value acc = em.mm(l.matmulLoc, acts.back(), weights[k]);
      auto type = cast<RankedTensorType>(acc.getType());
      bool relu = l.relu;
      Value out =
          em.gen(l.epilogueLoc, {acc, biases[k]}, {id2, col}, type,
                 [&](OpBuilder &nb, Location lo, ValueRange a) -> Value {
                   Value v = nb.create<arith::AddFOp>(lo, a[0], a[1]);
                   if (relu)
                     v = nb.create<arith::MaximumFOp>(lo, v,
                                                      cst(nb, lo, 0.0f));
                   return v;
                 })
              .getResult(0);
      acts.push_back(out);
    }
    for (size_t k = 0; k + 1 < acts.size(); ++k)
      em.markKept(acts[k]);
    Value z = acts.back();
    Location lloc = layers.back().epilogueLoc;

    Value perElement, dz;
    std::tie(perElement, dz) =
        em.lossAndGradient(lloc, z, x, labels, classIds, onesOut, mse, B, C);
    Value loss = em.mm(lloc, onesRow, em.mm(lloc, perElement, onesOut));

    // Backward, last layer first; each layer's weights are updated after
    // its dX used them (the same order as autograd + SGD).
    for (int64_t k = static_cast<int64_t>(layers.size()) - 1; k >= 0; --k) {
      const Layer &l = layers[k];
      if (l.relu) {
        Value a = acts[k + 1];
        auto type = cast<RankedTensorType>(a.getType());
        em.markKept(a);
        dz = em.gen(l.epilogueLoc, {dz, a}, {id2, id2}, type,
                    [&](OpBuilder &nb, Location lo, ValueRange v) {
                      Value pos = nb.create<arith::CmpFOp>(
                          lo, arith::CmpFPredicate::OGT, v[1],
                          cst(nb, lo, 0.0f));
                      return nb
                          .create<arith::SelectOp>(lo, pos, v[0],
                                                   cst(nb, lo, 0.0f))
                          .getResult();
                    })
                 .getResult(0);
      }
      // dX = dY W^T reads the weights before their update.
      Value dx;
      if (k > 0)
        dx = em.mm(l.matmulLoc, dz, em.transpose(l.matmulLoc, weights[k]));
      // SGD fused into the weight-gradient GEMM: W += (-lr X^T) dY and
      // b += (-lr 1^T) dY, each a matmul accumulating into the weight's
      // own buffer on the SA; no gradient buffer as large as W is needed.
      auto aType = cast<RankedTensorType>(acts[k].getType());
      Value negXt =
          em.gen(l.matmulLoc, {acts[k]}, {tr},
                 t2(aType.getDimSize(1), aType.getDimSize(0)),
                 [&](OpBuilder &nb, Location lo, ValueRange a) {
                   return nb
                       .create<arith::MulFOp>(lo, a[0], cst(nb, lo, -rate))
                       .getResult();
                 })
              .getResult(0);
      weights[k] = em.sgdUpdate(l.weightLoc, negXt, dz, weights[k]);
      if (!l.noBias) {
        int64_t n = cast<RankedTensorType>(biases[k].getType()).getDimSize(0);
        SmallVector<ReassociationIndices> all{{0, 1}};
        Value b2 = b.create<tensor::ExpandShapeOp>(l.biasLoc, t2(1, n),
                                                   biases[k], all);
        biases[k] =
            em.flatten(l.biasLoc, em.sgdUpdate(l.biasLoc, negRate, dz, b2));
      }
      dz = dx;
    }
    em.finishStep(layers.back().epilogueLoc, state, loss);

    SmallVector<Value> results;
    SmallVector<Attribute> names;
    Emitter::stateResults(state, results, names, ctx);
    for (size_t k = 0; k < layers.size(); ++k) {
      std::string layer = "layer" + std::to_string(k + 1);
      results.push_back(weights[k]);
      names.push_back(b.getStringAttr(layer + ".weight"));
      if (layers[k].noBias)
        continue;
      results.push_back(biases[k]);
      names.push_back(b.getStringAttr(layer + ".bias"));
    }
    b.create<func::ReturnOp>(floc, results);

    setTrainingAttr(module, B, mse, C, names);
    forward.erase();
  }
};

} // namespace
