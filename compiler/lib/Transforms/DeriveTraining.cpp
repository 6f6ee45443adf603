// npu-derive-training: from an f32 forward network (fully connected layers
// ending in logits) to a module that trains it: `steps` SGD steps unrolled
// in one function, each forward -> loss -> backward -> update, in plain
// linalg on tensors so the rest of npuc compiles it like any network and the
// golden runs the very same module on the host.
//
// Everything is built from ops npuc already lowers, so each backward op runs
// on the engine its forward twin uses: every contraction (dW = X^T dY,
// dX = dY W^T, the bias gradient and the loss sums as products with a ones
// vector) is a linalg.matmul on the SA; the transposes, the softmax, the
// ReLU mask and the SGD update are elementwise generics on the workers.
// The SGD update is fused into the weight-gradient GEMM, W += (-lr X^T) dY,
// a matmul accumulating into the weight itself (npu.sgd_update: the memory
// plan gives its result the weight's buffer), so a training step holds no
// gradient or second copy of the weights.
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

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
};

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
        layer.bias = cast<DenseElementsAttr>(b.getValue());
        layer.biasLoc = b.getLoc();
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

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (steps < 1 || steps > 64 || batch < 1 || batch > 256 ||
        !(lr > 0.0 && lr <= 10.0)) {
      module.emitError("npu-derive-training: steps must be 1..64, batch "
                       "1..256 and lr in (0, 10], got steps=")
          << static_cast<int64_t>(steps)
          << " batch=" << static_cast<int64_t>(batch)
          << " lr=" << static_cast<double>(lr);
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
    const int64_t B = batch, C = outWidth;

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
    for (int64_t s = 0; s < steps; ++s)
      resultTypes.push_back(t2(1, 1));
    for (const Layer &l : layers) {
      resultTypes.push_back(l.weight.getType());
      resultTypes.push_back(l.bias.getType());
    }

    Location floc = forward.getLoc();
    OpBuilder b(forward);
    auto train =
        b.create<func::FuncOp>(floc, (forward.getSymName() + "_train").str(),
                               FunctionType::get(ctx, argTypes, resultTypes));
    Block *entry = train.addEntryBlock();
    b.setInsertionPointToStart(entry);
    Value zero = b.create<arith::ConstantOp>(floc, b.getF32FloatAttr(0.0f));

    MLIRContext *c = ctx;
    AffineMap id2 = AffineMap::getMultiDimIdentityMap(2, c);
    AffineMap id1 = AffineMap::getMultiDimIdentityMap(1, c);
    AffineMap row = AffineMap::get(2, 0, getAffineDimExpr(0, c));
    AffineMap col = AffineMap::get(2, 0, getAffineDimExpr(1, c));
    AffineMap tr = AffineMap::get(
        2, 0, {getAffineDimExpr(1, c), getAffineDimExpr(0, c)}, c);

    using BodyFn = function_ref<Value(OpBuilder &, Location, ValueRange)>;
    // An elementwise generic writing a fresh tensor of `type`.
    auto gen = [&](Location loc, ValueRange ins, ArrayRef<AffineMap> maps,
                   RankedTensorType type, BodyFn fn) -> linalg::GenericOp {
      Value init = b.create<tensor::EmptyOp>(loc, type.getShape(), f32);
      SmallVector<AffineMap> all(maps.begin(), maps.end());
      all.push_back(type.getRank() == 2 ? id2 : id1);
      SmallVector<utils::IteratorType> iters(type.getRank(),
                                             utils::IteratorType::parallel);
      return b.create<linalg::GenericOp>(
          loc, TypeRange{type}, ins, ValueRange{init}, all, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            nb.create<linalg::YieldOp>(l, fn(nb, l, args));
          });
    };
    auto mm = [&](Location loc, Value x, Value y) -> Value {
      auto tx = cast<RankedTensorType>(x.getType());
      auto ty = cast<RankedTensorType>(y.getType());
      auto type = t2(tx.getDimSize(0), ty.getDimSize(1));
      Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(), f32);
      Value fill = b.create<linalg::FillOp>(loc, zero, empty).getResult(0);
      return b
          .create<linalg::MatmulOp>(loc, TypeRange{type}, ValueRange{x, y},
                                    ValueRange{fill})
          .getResult(0);
    };
    auto transpose = [&](Location loc, Value x) -> Value {
      auto tx = cast<RankedTensorType>(x.getType());
      return gen(loc, {x}, {tr}, t2(tx.getDimSize(1), tx.getDimSize(0)),
                 [](OpBuilder &, Location, ValueRange a) { return a[0]; })
          .getResult(0);
    };
    auto flatten = [&](Location loc, Value x) -> Value {
      SmallVector<ReassociationIndices> all{{0, 1}};
      return b.create<tensor::CollapseShapeOp>(loc, x, all).getResult();
    };
    auto cst = [](OpBuilder &nb, Location l, float v) -> Value {
      return nb.create<arith::ConstantOp>(l, nb.getF32FloatAttr(v));
    };
    auto ones = [&](Location loc, int64_t r, int64_t cols) -> Value {
      auto type = t2(r, cols);
      return b.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(type, b.getF32FloatAttr(1.0f)));
    };
    auto markKept = [&](Value v) {
      if (Operation *def = v.getDefiningOp())
        NpuDialect::KeptForBackwardAttrHelper(ctx).setAttr(def,
                                                           UnitAttr::get(ctx));
    };

    // The trainable weights: the forward network's constants, now updated.
    SmallVector<Value> weights, biases;
    for (const Layer &l : layers) {
      auto w = b.create<arith::ConstantOp>(l.weightLoc, l.weight);
      auto bb = b.create<arith::ConstantOp>(l.biasLoc, l.bias);
      NpuDialect::TrainableAttrHelper(ctx).setAttr(w, UnitAttr::get(ctx));
      NpuDialect::TrainableAttrHelper(ctx).setAttr(bb, UnitAttr::get(ctx));
      weights.push_back(w);
      biases.push_back(bb);
    }
    Value onesRow = ones(floc, 1, B); // sums over the batch
    Value negRate = b.create<arith::ConstantOp>(
        floc, DenseElementsAttr::get(
                  t2(1, B), b.getF32FloatAttr(static_cast<float>(-lr))));
    Value onesOut = ones(floc, C, 1); // sums over the output's columns
    Value classIds;
    if (!mse) {
      SmallVector<int32_t> ids;
      for (int64_t k = 0; k < C; ++k)
        ids.push_back(static_cast<int32_t>(k));
      auto type = RankedTensorType::get({C}, i32);
      classIds = b.create<arith::ConstantOp>(
          floc, DenseElementsAttr::get(type, ArrayRef<int32_t>(ids)));
    }
    const float invB = 1.0f / static_cast<float>(B);
    const float invN = 1.0f / static_cast<float>(B * C);
    const float rate = static_cast<float>(lr);

    SmallVector<Value> losses;
    for (int64_t s = 0; s < steps; ++s) {
      Value x = entry->getArgument(s * dataInputs);
      Value labels = mse ? Value() : entry->getArgument(s * dataInputs + 1);
      // Forward, keeping every layer's input for the backward.
      SmallVector<Value> acts{x};
      for (auto [k, l] : llvm::enumerate(layers)) {
        Value acc = mm(l.matmulLoc, acts.back(), weights[k]);
        auto type = cast<RankedTensorType>(acc.getType());
        bool relu = l.relu;
        Value out =
            gen(l.epilogueLoc, {acc, biases[k]}, {id2, col}, type,
                [&](OpBuilder &nb, Location lo, ValueRange a) -> Value {
                  Value v = nb.create<arith::AddFOp>(lo, a[0], a[1]);
                  if (relu)
                    v = nb.create<arith::MaximumFOp>(lo, v, cst(nb, lo, 0.0f));
                  return v;
                })
                .getResult(0);
        acts.push_back(out);
      }
      for (size_t k = 0; k + 1 < acts.size(); ++k)
        markKept(acts[k]);
      Value z = acts.back();
      Location lloc = layers.back().epilogueLoc;
      auto zType = cast<RankedTensorType>(z.getType());

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
        dz = gen(lloc, {z, x}, {id2, id2}, zType,
                 [&](OpBuilder &nb, Location lo, ValueRange a) {
                   Value d = nb.create<arith::SubFOp>(lo, a[0], a[1]);
                   return nb
                       .create<arith::MulFOp>(lo, d, cst(nb, lo, 2.0f * invN))
                       .getResult();
                 })
                 .getResult(0);
      } else {
        // softmax(z) = e / sum(e), e = exp(z - m), the row sums a matmul.
        // The shift m must keep exp from overflowing; a row max would be a
        // reduction, so m is the row's log-mean-exp at temperature T,
        // m = T (log sum exp(z / T) - log C), which lies in
        // [max z - T ln C, max z]: the largest term exp(z - m) is >= 1 (the
        // sum cannot underflow) and every term <= C^T (no overflow for
        // C <= 10^4), for logits within +-88 T. Equal logits give m = z
        // exactly, so all-zero weights give exactly ln C.
        constexpr float kT = 8.0f;
        Value soft = gen(lloc, {z}, {id2}, zType,
                         [&](OpBuilder &nb, Location lo, ValueRange a) {
                           Value v = nb.create<arith::MulFOp>(
                               lo, a[0], cst(nb, lo, 1.0f / kT));
                           return nb.create<math::ExpOp>(lo, v).getResult();
                         })
                         .getResult(0);
        Value softSum = flatten(lloc, mm(lloc, soft, onesOut)); // B
        auto shift = [&](OpBuilder &nb, Location lo, Value rowSum) -> Value {
          Value logMean = nb.create<arith::SubFOp>(
              lo, nb.create<math::LogOp>(lo, rowSum),
              nb.create<math::LogOp>(lo, cst(nb, lo, static_cast<float>(C))));
          return nb.create<arith::MulFOp>(lo, logMean, cst(nb, lo, kT));
        };
        Value e = gen(lloc, {z, softSum}, {id2, row}, zType,
                      [&](OpBuilder &nb, Location lo, ValueRange a) {
                        Value v = nb.create<arith::SubFOp>(lo, a[0],
                                                           shift(nb, lo, a[1]));
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
            gen(lloc, {z, sum, labels, classIds, softSum},
                {id2, row, row, col, row}, zType,
                [&](OpBuilder &nb, Location lo, ValueRange a) {
                  Value lse = nb.create<arith::AddFOp>(
                      lo, nb.create<math::LogOp>(lo, a[1]),
                      shift(nb, lo, a[4]));
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
      losses.push_back(mm(lloc, onesRow, mm(lloc, perElement, onesOut)));

      // Backward, last layer first; each layer's weights are updated after
      // its dX used them (the same order as autograd + SGD).
      for (int64_t k = static_cast<int64_t>(layers.size()) - 1; k >= 0; --k) {
        const Layer &l = layers[k];
        if (l.relu) {
          Value a = acts[k + 1];
          auto type = cast<RankedTensorType>(a.getType());
          markKept(a);
          dz = gen(l.epilogueLoc, {dz, a}, {id2, id2}, type,
                   [&](OpBuilder &nb, Location lo, ValueRange v) {
                     Value pos =
                         nb.create<arith::CmpFOp>(lo, arith::CmpFPredicate::OGT,
                                                  v[1], cst(nb, lo, 0.0f));
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
          dx = mm(l.matmulLoc, dz, transpose(l.matmulLoc, weights[k]));
        // SGD fused into the weight-gradient GEMM: W += (-lr X^T) dY and
        // b += (-lr 1^T) dY, each a matmul accumulating into the weight's
        // own buffer on the SA; no gradient buffer as large as W is needed.
        auto update = [&](Location loc, Value a, Value g, Value w) -> Value {
          auto ta = cast<RankedTensorType>(a.getType());
          auto tg = cast<RankedTensorType>(g.getType());
          auto op = b.create<linalg::MatmulOp>(
              loc, TypeRange{t2(ta.getDimSize(0), tg.getDimSize(1))},
              ValueRange{a, g}, ValueRange{w});
          NpuDialect::SgdUpdateAttrHelper(ctx).setAttr(op, UnitAttr::get(ctx));
          return op.getResult(0);
        };
        auto aType = cast<RankedTensorType>(acts[k].getType());
        Value negXt =
            gen(l.matmulLoc, {acts[k]}, {tr},
                t2(aType.getDimSize(1), aType.getDimSize(0)),
                [&](OpBuilder &nb, Location lo, ValueRange a) {
                  return nb.create<arith::MulFOp>(lo, a[0], cst(nb, lo, -rate))
                      .getResult();
                })
                .getResult(0);
        weights[k] = update(l.weightLoc, negXt, dz, weights[k]);
        int64_t n = cast<RankedTensorType>(biases[k].getType()).getDimSize(0);
        SmallVector<ReassociationIndices> all{{0, 1}};
        Value b2 = b.create<tensor::ExpandShapeOp>(l.biasLoc, t2(1, n),
                                                   biases[k], all);
        biases[k] = flatten(l.biasLoc, update(l.biasLoc, negRate, dz, b2));
        dz = dx;
      }
    }

    SmallVector<Value> results(losses);
    SmallVector<Attribute> names;
    for (int64_t s = 0; s < steps; ++s)
      names.push_back(b.getStringAttr("loss.step" + std::to_string(s)));
    for (size_t k = 0; k < layers.size(); ++k) {
      results.push_back(weights[k]);
      results.push_back(biases[k]);
      std::string layer = "layer" + std::to_string(k + 1);
      names.push_back(b.getStringAttr(layer + ".weight"));
      names.push_back(b.getStringAttr(layer + ".bias"));
    }
    b.create<func::ReturnOp>(floc, results);

    SmallVector<NamedAttribute> desc{
        b.getNamedAttr("steps", b.getI64IntegerAttr(steps)),
        b.getNamedAttr("batch", b.getI64IntegerAttr(B)),
        b.getNamedAttr("lr", b.getF64FloatAttr(lr)),
        b.getNamedAttr("loss", b.getStringAttr(mse ? "mse" : "cross-entropy")),
        b.getNamedAttr("classes", b.getI64IntegerAttr(mse ? 0 : C)),
        b.getNamedAttr("data_inputs", b.getI64IntegerAttr(dataInputs)),
        b.getNamedAttr("outputs", b.getArrayAttr(names))};
    NpuDialect::TrainingAttrHelper(ctx).setAttr(module,
                                                b.getDictionaryAttr(desc));
    forward.erase();
  }
};

} // namespace
