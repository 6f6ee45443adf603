// npu-legalize-linalg: rewrites the linalg ops that have no engine of their
// own into the forms the rest of npuc compiles, before anything checks or
// plans the network (and before the golden's copy of it is taken, so host
// and device run the same ops):
//
//   * constants given as `dense_resource` blobs become `dense` constants;
//   * `linalg.matmul_transpose_a/_b` become a transpose (folded at compile
//     time when the transposed operand is a constant) + `linalg.matmul`, so
//     the product still runs on the systolic array;
//   * `linalg.conv_2d_nchw_fchw` becomes the NHWC convolution between
//     transposes (constant weights permuted at compile time; the epilogue
//     generic, if any, is moved into NHWC so npu-fuse-conv folds it);
//   * `linalg.softmax` becomes max / exp(x - max) / sum / divide generics
//     (the form upstream's decomposition produces, each result in a buffer
//     of its own);
//   * transposes, broadcasts, reductions, the named elementwise ops, batched
//     matmuls and max/min pooling become `linalg.generic`, which the workers
//     run (npu-tile picks the loop they split);
//   * `tensor.concat` becomes `tensor.insert_slice`s into a `tensor.empty`
//     (upstream's decomposition), and each `tensor.insert_slice` (the ONNX
//     importer's Concat) a copy generic whose output map is offset by the
//     slice's position: the workers copy the source into its slice of the
//     destination's buffer, in place.
//
// What is left is checked by npu-verify-supported as before.
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::npu {
#define GEN_PASS_DEF_NPULEGALIZELINALG
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

// `dense_resource<blob>` -> `dense<...>` with the blob's bytes (the plan,
// the linker and the golden all read DenseElementsAttr).
LogicalResult inlineResource(arith::ConstantOp constant) {
  auto attr = dyn_cast<DenseResourceElementsAttr>(constant.getValue());
  if (!attr)
    return success();
  const AsmResourceBlob *blob = attr.getRawHandle().getBlob();
  if (!blob)
    return constant.emitOpError("dense_resource blob '")
           << attr.getRawHandle().getKey()
           << "' has no data (elided or missing from the file's "
              "dialect_resources)";
  ArrayRef<char> data = blob->getData();
  ShapedType type = attr.getType();
  bool splat = false;
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementType().isInteger(1) ||
      !DenseElementsAttr::isValidRawBuffer(type, data, splat))
    return constant.emitOpError("dense_resource blob '")
           << attr.getRawHandle().getKey() << "' holds " << data.size()
           << " bytes, not the " << type << " it is declared as";
  constant.setValueAttr(DenseElementsAttr::getFromRawBuffer(type, data));
  return success();
}

// The constant `attr` with its dimensions permuted: result dim i is source
// dim perm[i] (linalg.transpose's convention).
DenseElementsAttr permuteConstant(DenseElementsAttr attr,
                                  ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.reshape(resultType);
  size_t width = (type.getElementTypeBitWidth() + 7) / 8;
  ArrayRef<char> src = attr.getRawData();
  std::vector<char> dst(src.size());
  int64_t rank = type.getRank(), count = type.getNumElements();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * type.getDimSize(d + 1);
  SmallVector<int64_t> index(rank, 0); // over the result's dimensions
  for (int64_t i = 0; i < count; ++i) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += index[d] * srcStrides[perm[d]];
    std::memcpy(&dst[i * width], &src[from * width], width);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(resultType, dst);
}

// `value` transposed by `perm`: a constant folded now, anything else a
// linalg.transpose (generalized below, run by the workers).
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> perm) {
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return b.create<arith::ConstantOp>(loc, permuteConstant(attr, perm));
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = b.create<tensor::EmptyOp>(loc, shape, type.getElementType());
  return b.create<linalg::TransposeOp>(loc, value, init, perm)->getResult(0);
}

// A*B^T and A^T*B -> transpose + linalg.matmul (the SA's op).
template <typename OpTy>
void rewriteTransposedMatmul(OpTy op, unsigned transposedOperand) {
  OpBuilder b(op);
  SmallVector<Value> inputs(op.getDpsInputs());
  inputs[transposedOperand] =
      transposed(b, op.getLoc(), inputs[transposedOperand], {1, 0});
  auto mm = b.create<linalg::MatmulOp>(op.getLoc(), op->getResultTypes(),
                                       inputs, op.getDpsInits());
  op->replaceAllUsesWith(mm);
  op->erase();
}

// One reduction of `input` over its last dimension `dim` (the others kept)
// into `init`, combining with `combine`: upstream's softmax decomposition,
// spelled out.
Value reduceRows(
    OpBuilder &b, Location loc, Value input, Value init, int64_t dim,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == dim ? utils::IteratorType::reduction
                                 : utils::IteratorType::parallel);
    if (d != dim)
      kept.push_back(b.getAffineDimExpr(d));
  }
  AffineMap in = b.getMultiDimIdentityMap(rank);
  AffineMap out = AffineMap::get(rank, 0, kept, b.getContext());
  return b
      .create<linalg::GenericOp>(
          loc, init.getType(), input, init, ArrayRef<AffineMap>{in, out},
          iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            nb.create<linalg::YieldOp>(nl, combine(nb, nl, args[0], args[1]));
          })
      .getResult(0);
}

// x, r (r reduced over `dim`) -> f(x, r) elementwise into `init`.
Value rowwise(OpBuilder &b, Location loc, Value x, Value r, Value init,
              int64_t dim,
              function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (d != dim)
      kept.push_back(b.getAffineDimExpr(d));
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap red = AffineMap::get(rank, 0, kept, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return b
      .create<linalg::GenericOp>(
          loc, init.getType(), ValueRange{x, r}, init,
          ArrayRef<AffineMap>{id, red, id}, iterators,
          [&](OpBuilder &nb, Location nl, ValueRange args) {
            nb.create<linalg::YieldOp>(nl, fn(nb, nl, args[0], args[1]));
          })
      .getResult(0);
}

// softmax(x) = exp(x - max) / sum(exp(x - max)) along `dimension`.
LogicalResult rewriteSoftmax(linalg::SoftmaxOp op) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  if (!type.getElementType().isF32())
    return op.emitOpError("softmax of ")
           << type.getElementType() << " is not supported (f32 only)";
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t dim = op.getDimension();
  SmallVector<int64_t> reducedShape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (d != dim)
      reducedShape.push_back(type.getDimSize(d));
  Type f32 = b.getF32Type();
  auto filled = [&](arith::AtomicRMWKind kind) {
    Value empty = b.create<tensor::EmptyOp>(loc, reducedShape, f32);
    Value identity = arith::getIdentityValue(kind, f32, b, loc,
                                             /*useOnlyFiniteValue=*/true);
    return b.create<linalg::FillOp>(loc, identity, empty).getResult(0);
  };
  Value max = reduceRows(
      b, loc, op.getInput(), filled(arith::AtomicRMWKind::maximumf), dim,
      [](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
        return nb.create<arith::MaxNumFOp>(nl, x, acc);
      });
  Value expInit = b.create<tensor::EmptyOp>(loc, type.getShape(), f32);
  Value numerator = rowwise(
      b, loc, op.getInput(), max, expInit, dim,
      [](OpBuilder &nb, Location nl, Value x, Value m) -> Value {
        return nb.create<math::ExpOp>(nl, nb.create<arith::SubFOp>(nl, x, m));
      });
  Value sum =
      reduceRows(b, loc, numerator, filled(arith::AtomicRMWKind::addf), dim,
                 [](OpBuilder &nb, Location nl, Value x, Value acc) -> Value {
                   return nb.create<arith::AddFOp>(nl, x, acc);
                 });
  Value result =
      rowwise(b, loc, numerator, sum, op.getOutput(), dim,
              [](OpBuilder &nb, Location nl, Value e, Value s) -> Value {
                return nb.create<arith::DivFOp>(nl, e, s);
              });
  op->replaceAllUsesWith(ValueRange{result});
  op->erase();
  return success();
}

// conv_2d_nchw_fchw -> transposes around conv_2d_nhwc_hwcf. A zero tensor.pad
// of the input moves to NHWC; the accumulator's zero fill is rebuilt in
// NHWC; an elementwise epilogue generic reading the result is re-indexed to
// run in NHWC (so npu-fuse-conv folds it) and its result transposed back.
LogicalResult rewriteNchwConv(linalg::Conv2DNchwFchwOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  const int64_t toNhwc[] = {0, 2, 3, 1}, toNchw[] = {0, 3, 1, 2},
                toHwcf[] = {2, 3, 1, 0};
  Value input = op.getDpsInputs()[0];
  Value x;
  auto pad = input.getDefiningOp<tensor::PadOp>();
  auto fill = op.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  // The NCHW pad and fill are dead once the NHWC ones replace them.
  auto eraseDead = [&] {
    for (Operation *dead : {pad ? pad.getOperation() : nullptr,
                            fill ? fill.getOperation() : nullptr}) {
      if (!dead || !dead->use_empty())
        continue;
      Operation *init = dead->getOperand(dead == pad ? 0 : 1).getDefiningOp();
      dead->erase();
      if (init && isa<tensor::EmptyOp>(init) && init->use_empty())
        init->erase();
    }
  };
  if (pad) {
    ArrayRef<int64_t> lo = pad.getStaticLow(), hi = pad.getStaticHigh();
    if (pad.getLow().empty() && pad.getHigh().empty() && lo.size() == 4 &&
        !lo[0] && !lo[1] && !hi[0] && !hi[1] && pad.getConstantPaddingValue()) {
      Value source = transposed(b, loc, pad.getSource(), toNhwc);
      SmallVector<int64_t> low = {0, lo[2], lo[3], 0},
                           high = {0, hi[2], hi[3], 0};
      auto folded = [&](ArrayRef<int64_t> v) {
        return getAsOpFoldResult(b.getI64ArrayAttr(v));
      };
      auto srcType = cast<RankedTensorType>(source.getType());
      SmallVector<int64_t> shape;
      for (int64_t d = 0; d < 4; ++d)
        shape.push_back(srcType.getDimSize(d) + low[d] + high[d]);
      x = b.create<tensor::PadOp>(
          loc, RankedTensorType::get(shape, srcType.getElementType()), source,
          folded(low), folded(high), pad.getConstantPaddingValue());
    }
  }
  if (!x)
    x = transposed(b, loc, input, toNhwc);
  Value w = transposed(b, loc, op.getDpsInputs()[1], toHwcf);
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> outShape;
  for (int64_t p : toNhwc)
    outShape.push_back(initType.getDimSize(p));
  Value acc;
  if (fill) {
    Value empty =
        b.create<tensor::EmptyOp>(loc, outShape, initType.getElementType());
    acc =
        b.create<linalg::FillOp>(loc, fill.getInputs()[0], empty).getResult(0);
  } else {
    acc = transposed(b, loc, init, toNhwc);
  }
  auto conv = b.create<linalg::Conv2DNhwcHwcfOp>(
      loc, acc.getType(), ValueRange{x, w}, acc, op.getStrides(),
      op.getDilations());
  Value nhwc = conv.getResult(0);

  // An all-parallel 4-D generic reading the result with the identity map:
  // re-index it over (n, h, w, c).
  Value result = op.getResult(0);
  linalg::GenericOp epilogue;
  if (result.hasOneUse())
    if (auto g = dyn_cast<linalg::GenericOp>(*result.getUsers().begin()))
      if (g.getNumDpsInits() == 1 && g.getNumLoops() == 4 &&
          g.getNumReductionLoops() == 0 &&
          llvm::all_of(g->getOpOperands(), [&](OpOperand &o) {
            AffineMap m = g.getMatchingIndexingMap(&o);
            return (o.get() != result && !g.isDpsInit(&o)) || m.isIdentity();
          }))
        epilogue = g;
  if (!epilogue) {
    Value back = transposed(b, loc, nhwc, toNchw);
    op->replaceAllUsesWith(ValueRange{back});
    op->erase();
    eraseDead();
    return success();
  }
  // Old loop d_i is new loop e_{position of i in toNhwc}.
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> oldInNew(4);
  for (int64_t e = 0; e < 4; ++e)
    oldInNew[toNhwc[e]] = getAffineDimExpr(e, ctx);
  AffineMap permute = AffineMap::get(4, 0, oldInNew, ctx);
  OpBuilder eb(epilogue);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (OpOperand *in : epilogue.getDpsInputOperands()) {
    if (in->get() == result) {
      inputs.push_back(nhwc);
      maps.push_back(eb.getMultiDimIdentityMap(4));
    } else {
      inputs.push_back(in->get());
      maps.push_back(epilogue.getMatchingIndexingMap(in).compose(permute));
    }
  }
  auto outType = cast<RankedTensorType>(epilogue.getDpsInits()[0].getType());
  SmallVector<int64_t> epShape;
  for (int64_t p : toNhwc)
    epShape.push_back(outType.getDimSize(p));
  Value epInit =
      eb.create<tensor::EmptyOp>(loc, epShape, outType.getElementType());
  maps.push_back(eb.getMultiDimIdentityMap(4));
  auto moved = eb.create<linalg::GenericOp>(epilogue.getLoc(), epInit.getType(),
                                            inputs, epInit, maps,
                                            epilogue.getIteratorTypesArray());
  moved.getRegion().takeBody(epilogue.getRegion());
  Value back =
      eb.create<linalg::TransposeOp>(epilogue.getLoc(), moved.getResult(0),
                                     epilogue.getDpsInits()[0], toNchw)
          ->getResult(0);
  epilogue->replaceAllUsesWith(ValueRange{back});
  epilogue->erase();
  op->erase();
  eraseDead();
  return success();
}

// A tensor.pad that no convolution folds (a padded max pooling's -inf
// border, any constant): the padded tensor filled with the value, then the
// source written into its interior by a generic whose output map is offset
// by the low padding. Both run on the workers.
LogicalResult rewriteStandalonePad(tensor::PadOp pad) {
  Value value = pad.getConstantPaddingValue();
  if (!value || !pad.getLow().empty() || !pad.getHigh().empty())
    return success(); // npu-verify-supported names what is wrong
  OpBuilder b(pad);
  Location loc = pad.getLoc();
  RankedTensorType type = pad.getResultType();
  if (!type.hasStaticShape())
    return success();
  Value empty =
      b.create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType());
  Value filled = b.create<linalg::FillOp>(loc, value, empty).getResult(0);
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> offset;
  for (int64_t d = 0; d < rank; ++d)
    offset.push_back(b.getAffineDimExpr(d) + pad.getStaticLow()[d]);
  AffineMap in = b.getMultiDimIdentityMap(rank);
  AffineMap out = AffineMap::get(rank, 0, offset, b.getContext());
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value result = b.create<linalg::GenericOp>(
                      loc, type, pad.getSource(), filled,
                      ArrayRef<AffineMap>{in, out}, iterators,
                      [](OpBuilder &nb, Location nl, ValueRange args) {
                        nb.create<linalg::YieldOp>(nl, args[0]);
                      })
                     .getResult(0);
  pad.replaceAllUsesWith(result);
  pad.erase();
  return success();
}

// A tensor.insert_slice (a concatenation's part): a generic that copies
// the source into the destination with the output map offset by the slice's
// position, like a standalone pad's interior. Its init is the destination,
// so the memory plan writes the result into the destination's buffer (in
// place when nothing else reads it) and the workers copy only the slice.
LogicalResult rewriteInsertSlice(tensor::InsertSliceOp insert) {
  RankedTensorType srcType = insert.getSourceType();
  RankedTensorType dstType = insert.getType();
  if (!srcType.hasStaticShape() || !dstType.hasStaticShape() ||
      srcType.getRank() != dstType.getRank())
    return insert.emitOpError(
        "is supported with static shapes and a source of the destination's "
        "rank (a concatenation's part)");
  if (llvm::any_of(insert.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(insert.getStaticStrides(), [](int64_t s) { return s != 1; }))
    return insert.emitOpError(
        "is supported with constant offsets and unit strides");
  OpBuilder b(insert);
  int64_t rank = dstType.getRank();
  AffineMap in = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto copyGeneric = [&](Value from, Value into, AffineMap out) {
    return b
        .create<linalg::GenericOp>(
            insert.getLoc(), dstType, from, into, ArrayRef<AffineMap>{in, out},
            iterators,
            [](OpBuilder &nb, Location nl, ValueRange args) {
              nb.create<linalg::YieldOp>(nl, args[0]);
            })
        .getResult(0);
  };
  // The memory plan writes a result into its init's buffer only when that
  // is an activation nothing else reads; otherwise the result gets a buffer
  // of its own, which must first hold the whole destination (the slice
  // overwrites a part of it).
  Value dest = insert.getDest();
  BufferKind kind = classifyBuffer(dest);
  if (!dest.hasOneUse() || kind == BufferKind::Weight ||
      kind == BufferKind::Input) {
    Value empty = b.create<tensor::EmptyOp>(insert.getLoc(), dstType.getShape(),
                                            dstType.getElementType());
    dest = copyGeneric(dest, empty, in);
  }
  SmallVector<AffineExpr> offset;
  for (int64_t d = 0; d < rank; ++d) {
    AffineExpr e = b.getAffineDimExpr(d) + insert.getStaticOffsets()[d];
    // A slice at offset 0 shorter than its dimension (a concatenation's
    // first part): linalg requires a plain loop index in an operand's map
    // to cover that dimension exactly, so the index is written as "d mod
    // size", the same value for every d in the slice.
    if (isa<AffineDimExpr>(e) && srcType.getDimSize(d) != dstType.getDimSize(d))
      e = e % dstType.getDimSize(d);
    offset.push_back(e);
  }
  Value result = copyGeneric(insert.getSource(), dest,
                             AffineMap::get(rank, 0, offset, b.getContext()));
  insert.replaceAllUsesWith(result);
  insert.erase();
  return success();
}

// npu-fuse-conv folds a convolution into the SA kernel together with the
// one elementwise generic that reads it, and needs it to accumulate into a
// zero fill. An f32 convolution without such an epilogue (a front end's
// conv feeding a transpose or another conv), or accumulating into a tensor
// (a bias broadcast into the init), gets one: acc + init as the residual,
// or acc alone. npurt_conv2d then writes the result as it is.
void addF32Epilogue(linalg::Conv2DNhwcHwcfOp conv) {
  Value result = conv.getResult(0);
  auto type = cast<RankedTensorType>(result.getType());
  if (!type.getElementType().isF32())
    return;
  Value init = conv.getDpsInits()[0];
  auto fill = init.getDefiningOp<linalg::FillOp>();
  FloatAttr value;
  bool zeroInit = fill && fill->hasOneUse() &&
                  matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
                  value.getValue().isZero() && !value.getValue().isNegative();
  bool epilogue = false;
  if (result.hasOneUse())
    if (auto g = dyn_cast<linalg::GenericOp>(*result.getUsers().begin()))
      epilogue = g.getNumDpsInputs() > 0 && g.getDpsInputs()[0] == result &&
                 g.getNumReductionLoops() == 0;
  if (zeroInit && epilogue)
    return;
  OpBuilder b(conv);
  Location loc = conv.getLoc();
  Type f32 = type.getElementType();
  SmallVector<Value> residual;
  if (!zeroInit) {
    residual.push_back(init);
    Value zero = b.create<arith::ConstantOp>(loc, b.getZeroAttr(f32));
    Value empty = b.create<tensor::EmptyOp>(loc, type.getShape(), f32);
    conv.getDpsInitsMutable()[0].assign(
        b.create<linalg::FillOp>(loc, zero, empty).getResult(0));
  }
  b.setInsertionPointAfter(conv);
  SmallVector<Value> inputs = {result};
  inputs.append(residual);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<AffineMap> maps(inputs.size() + 1, id);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  Value out = b.create<tensor::EmptyOp>(loc, type.getShape(), f32);
  auto g = b.create<linalg::GenericOp>(
      loc, type, inputs, out, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value v = args[0];
        if (args.size() == 3)
          v = nb.create<arith::AddFOp>(nl, v, args[1]);
        nb.create<linalg::YieldOp>(nl, v);
      });
  result.replaceAllUsesExcept(g.getResult(0), g);
}

// Named ops the workers run as generics (their bodies are arith/math ops).
bool generalizes(Operation *op) {
  return isa<linalg::TransposeOp, linalg::BroadcastOp, linalg::ReduceOp,
             linalg::MapOp, linalg::ElemwiseUnaryOp, linalg::ElemwiseBinaryOp,
             linalg::ExpOp, linalg::LogOp, linalg::AbsOp, linalg::CeilOp,
             linalg::FloorOp, linalg::NegFOp, linalg::ReciprocalOp,
             linalg::RoundOp, linalg::SqrtOp, linalg::RsqrtOp, linalg::SquareOp,
             linalg::TanhOp, linalg::ErfOp, linalg::AddOp, linalg::SubOp,
             linalg::MulOp, linalg::DivOp, linalg::DivUnsignedOp, linalg::MaxOp,
             linalg::MinOp, linalg::PowFOp, linalg::SelectOp,
             linalg::BatchMatmulOp, linalg::PoolingNhwcMaxOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcMaxUnsignedOp,
             linalg::PoolingNhwcMinUnsignedOp>(op);
}

struct NpuLegalizeLinalgPass
    : public mlir::npu::impl::NpuLegalizeLinalgBase<NpuLegalizeLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool ok = true;
    module.walk(
        [&](arith::ConstantOp c) { ok &= succeeded(inlineResource(c)); });
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<linalg::MatmulTransposeAOp, linalg::MatmulTransposeBOp,
              linalg::SoftmaxOp, linalg::Conv2DNchwFchwOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto mm = dyn_cast<linalg::MatmulTransposeAOp>(op))
        rewriteTransposedMatmul(mm, 0);
      else if (auto mm = dyn_cast<linalg::MatmulTransposeBOp>(op))
        rewriteTransposedMatmul(mm, 1);
      else if (auto sm = dyn_cast<linalg::SoftmaxOp>(op))
        ok &= succeeded(rewriteSoftmax(sm));
      else if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op))
        ok &= succeeded(rewriteNchwConv(conv));
    }
    module.walk([&](linalg::Conv2DNhwcHwcfOp conv) { addF32Epilogue(conv); });
    SmallVector<tensor::PadOp> pads;
    module.walk([&](tensor::PadOp pad) {
      if (llvm::any_of(pad->getUsers(), [](Operation *user) {
            return !isa<linalg::Conv2DNhwcHwcfOp,
                        linalg::DepthwiseConv2DNhwcHwcOp>(user);
          }))
        pads.push_back(pad);
    });
    for (tensor::PadOp pad : pads)
      ok &= succeeded(rewriteStandalonePad(pad));
    SmallVector<Operation *> concats;
    module.walk([&](tensor::ConcatOp c) { concats.push_back(c); });
    if (!concats.empty()) {
      RewritePatternSet patterns(&getContext());
      tensor::populateDecomposeTensorConcatPatterns(patterns);
      GreedyRewriteConfig config;
      config.strictMode = GreedyRewriteStrictness::ExistingOps;
      (void)applyOpPatternsAndFold(concats, std::move(patterns), config);
      // The decomposition ends in a tensor.cast to the concat's type, which
      // is static here: the same type, nothing to do.
      module.walk([](tensor::CastOp cast) {
        if (cast.getSource().getType() == cast.getType()) {
          cast.replaceAllUsesWith(cast.getSource());
          cast.erase();
        }
      });
    }
    SmallVector<tensor::InsertSliceOp> inserts;
    module.walk([&](tensor::InsertSliceOp i) { inserts.push_back(i); });
    for (tensor::InsertSliceOp insert : inserts)
      ok &= succeeded(rewriteInsertSlice(insert));
    // Generalize, then drop the operands the bodies do not read (a pooling
    // window's shape tensor), on the new generics only.
    SmallVector<linalg::LinalgOp> named;
    module.walk([&](linalg::LinalgOp op) {
      if (generalizes(op))
        named.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> generics;
    for (linalg::LinalgOp op : named) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
      if (failed(g)) {
        op->emitOpError("cannot be rewritten to a linalg.generic for the "
                        "workers");
        ok = false;
        continue;
      }
      // The named op's region builder made its body ops without a
      // location: they take the op's, so that every later diagnostic about
      // them (an unsupported op, MLIR's verifier on a body the element type
      // cannot have, e.g. linalg.div_unsigned on f32) names the op's line.
      g->getBody()->walk([&](Operation *bodyOp) {
        if (isa<UnknownLoc>(bodyOp->getLoc()))
          bodyOp->setLoc(g->getLoc());
      });
      generics.push_back(*g);
    }
    if (!generics.empty()) {
      RewritePatternSet patterns(&getContext());
      linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
      GreedyRewriteConfig config;
      config.strictMode = GreedyRewriteStrictness::ExistingOps;
      (void)applyOpPatternsAndFold(generics, std::move(patterns), config);
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
