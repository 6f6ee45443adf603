// npu-memory-plan: decides where every tensor buffer lives (L2 or L3) and at
// which address, from the same config npusim is built from, so compiler and
// simulator cannot disagree about region bases and sizes.
//
// Buffers follow what one-shot bufferization will later produce: a function
// argument, a weight constant and a tensor.empty each start a buffer; the
// result of a destination-style op (linalg.*) is written into its init's
// buffer when that init is an activation with no other use, otherwise it
// gets a new buffer. A buffer is live from its defining op to its last use
// (inclusive: an op reads its inputs while writing its output); weights are
// live for the whole function because they are loaded once, up front.
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUMEMORYPLAN
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

struct Buffer {
  SmallVector<Value> values; // every SSA value stored in this buffer
  Location loc;
  MemLevel level;
  uint64_t size = 0;
  int64_t firstUse = 0; // op index of the definition
  int64_t lastUse = 0;  // op index of the last reader (inclusive)
  BufferKind kind = BufferKind::Activation;
  // A tensor.empty holds no data: its buffer is needed from its first user
  // on, wherever canonicalization happened to put the tensor.empty itself.
  bool startsAtFirstUse = false;
  uint64_t offset = 0; // from the region base; set by the allocator
};

uint64_t byteSize(RankedTensorType type) {
  uint64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  return static_cast<uint64_t>(type.getNumElements()) * elementBytes;
}

// byteSize() needs a static shape and a bit width; verify-supported
// guarantees both, but the plan must not assert when run on its own.
bool isPlannable(RankedTensorType type) {
  return type.hasStaticShape() && type.getElementType().isIntOrFloat();
}

// Level requested on `op` with npu.mem, else `fallback`.
MemLevel requestedLevel(Operation *op, MemLevel fallback) {
  if (op)
    if (auto attr = op->getAttrOfType<MemLevelAttr>(kMemAttrName))
      return attr.getValue();
  return fallback;
}

// Greedy first-fit by decreasing size: each buffer goes to the lowest
// aligned offset that no lifetime-overlapping, already placed buffer uses.
// Returns the end of the highest buffer (the level's peak footprint).
uint64_t allocate(MutableArrayRef<Buffer> buffers, MemLevel level,
                  uint64_t start, uint64_t alignment) {
  SmallVector<Buffer *> order;
  for (Buffer &buffer : buffers)
    if (buffer.level == level)
      order.push_back(&buffer);
  std::stable_sort(order.begin(), order.end(), [](Buffer *a, Buffer *b) {
    if (a->size != b->size)
      return a->size > b->size;
    return a->firstUse < b->firstUse;
  });
  SmallVector<Buffer *> placed;
  uint64_t peak = start;
  for (Buffer *buffer : order) {
    SmallVector<Buffer *> live;
    for (Buffer *other : placed)
      if (other->firstUse <= buffer->lastUse &&
          buffer->firstUse <= other->lastUse)
        live.push_back(other);
    llvm::sort(live,
               [](Buffer *a, Buffer *b) { return a->offset < b->offset; });
    uint64_t candidate = start;
    for (Buffer *other : live) {
      if (candidate + buffer->size <= other->offset)
        break;
      candidate = std::max(
          candidate, llvm::alignTo(other->offset + other->size, alignment));
    }
    buffer->offset = candidate;
    peak = std::max(peak, candidate + buffer->size);
    placed.push_back(buffer);
  }
  return peak;
}

// The op computing before `op` (a layer's kernel, matmul, elementwise or
// fill: a destination-style op that is not a staging copy), skipping
// buffers, constants, views and staging copies; null if there is none.
Operation *previousLayerOp(Operation *op) {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
    if (isa<DestinationStyleOpInterface>(prev) && !isStagingCopy(prev))
      return prev;
  return nullptr;
}

// The cores and the SA compute on L2 (and L1); only the DMA reaches L3. So
// a tensor planned in L3 is made explicit as DMA copies the plan allocates
// like any other buffer:
//  - an op whose result is planned in L3 computes into L2, and one copy
//    (`linalg.copy {npu.staging}`) right after it moves the result to L3;
//  - each reader of an L3 tensor (weight, input or such a result) gets a
//    copy of it into L2 right before it, except the B operand of
//    linalg.matmul, whose panels the SA schedule stages itself, and the
//    function's return (an output may stay in L3). A weight's copy goes
//    before the layer preceding its reader (previousLayerOp): npu-schedule
//    starts it there and waits for it right before the reader, so the DMA
//    brings the next layer's weights while this layer computes (its L2
//    buffer is live from there on, which this plan then accounts for).
void insertL3Staging(func::FuncOp func, MemLevel weightLevel,
                     MemLevel activationLevel) {
  MLIRContext *context = func.getContext();
  Block &body = func.getBody().front();
  auto mem = [&](MemLevel level) { return MemLevelAttr::get(context, level); };
  auto staging = [&](OpBuilder &b, Location loc, Value from, MemLevel to) {
    auto type = cast<RankedTensorType>(from.getType());
    auto empty =
        b.create<tensor::EmptyOp>(loc, type.getShape(), type.getElementType());
    empty->setAttr(kMemAttrName, mem(to));
    auto copy = b.create<linalg::CopyOp>(loc, from, empty.getResult());
    markStagingCopy(copy);
    copy->setAttr(kMemAttrName, mem(to));
    return copy.getResult(0);
  };

  // A conv network's activations in L3 are staged asynchronously (inference
  // only: a training step keeps its order of copies). The two layers after
  // a result's producer read the result's L2 buffer: a copy from L3 for
  // them would have to start during the layer after the producer, when
  // that buffer is still live, so reading it costs no more L2 than the
  // copy's buffer. A later reader gets its copy from L3, started before
  // the layer preceding it (as weights are), while the DMA writes the
  // result back during the layers between (npu-schedule waits for a copy
  // only where its bytes are touched next). A result with no later reader
  // is not written to L3 at all (its write-back is dead). Networks without
  // convolutions keep the blocking round trip per layer.
  const bool asyncActivations =
      !NpuDialect::TrainingAttrHelper(context).isAttrPresent(
          func->getParentOp()) &&
      llvm::any_of(body, [](Operation &op) { return isa<ConvKernelOp>(op); });
  // An L3 result's staging copy -> the L2 result it copies and its producer.
  llvm::DenseMap<Value, std::pair<Value, Operation *>> writtenBack;

  SmallVector<Value> inL3;
  for (BlockArgument arg : body.getArguments()) {
    MemLevel level = activationLevel;
    if (auto attr = func.getArgAttrOfType<MemLevelAttr>(arg.getArgNumber(),
                                                        kMemAttrName))
      level = attr.getValue();
    if (level == MemLevel::L3 && isa<RankedTensorType>(arg.getType()))
      inL3.push_back(arg);
  }

  // Results planned in L3: computed in L2, then copied out. A chain
  // tensor.empty -> linalg.fill -> linalg.matmul is one buffer; the level
  // is its root's, and the copy follows the chain's last op.
  llvm::DenseMap<Operation *, MemLevel> rootLevel;
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (op.getNumResults() == 1 &&
        classifyBuffer(op.getResult(0)) == BufferKind::Weight) {
      if (requestedLevel(&op, weightLevel) == MemLevel::L3)
        inL3.push_back(op.getResult(0));
      continue;
    }
    // A training step's in-place update (npu.sgd_update) writes its
    // weight's or state's own buffer, which is no activation: an L3
    // weight gets its write-back below. Copying the update out to a new
    // L3 buffer instead left the weight's own buffer stale for the next
    // step (with --activation-mem-level=L3).
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps || isStagingCopy(&op) || op.getNumResults() != 1 ||
        !isa<RankedTensorType>(op.getResult(0).getType()) ||
        NpuDialect::SgdUpdateAttrHelper(context).isAttrPresent(&op))
      continue;
    Value root = dps.getDpsInitOperand(0)->get();
    while (auto inner = root.getDefiningOp<DestinationStyleOpInterface>())
      if (inner->getNumResults() == 1 && inner.getNumDpsInits() == 1 &&
          !isStagingCopy(inner))
        root = inner.getDpsInitOperand(0)->get();
      else
        break;
    Operation *owner = root.getDefiningOp<tensor::EmptyOp>();
    if (!owner)
      owner =
          &op; // the result gets a buffer of its own (its init is a weight or an input)
    auto [it, inserted] =
        rootLevel.try_emplace(owner, requestedLevel(owner, activationLevel));
    if (it->second != MemLevel::L3)
      continue;
    owner->setAttr(kMemAttrName, mem(MemLevel::L2));
    Value result = op.getResult(0);
    if (result.hasOneUse())
      if (auto next = dyn_cast<DestinationStyleOpInterface>(
              result.use_begin()->getOwner()))
        if (next.isDpsInit(&*result.use_begin()) && !isStagingCopy(next))
          continue; // not the chain's last op
    OpBuilder b(context);
    b.setInsertionPointAfter(&op);
    Value copy = staging(b, op.getLoc(), result, MemLevel::L3);
    result.replaceAllUsesExcept(copy, copy.getDefiningOp());
    inL3.push_back(copy);
    writtenBack[copy] = {result, &op};
  }

  // A training step's in-place SGD update of an L3 weight computes in L2
  // (the loop below gives it a staging copy of the weight to accumulate
  // into) and one more staging copy writes the result back into the
  // weight's own L3 buffer, which the later steps read.
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (!NpuDialect::SgdUpdateAttrHelper(context).isAttrPresent(&op) ||
        isStagingCopy(&op)) // a write-back this loop inserted
      continue;
    Value target =
        cast<DestinationStyleOpInterface>(op).getDpsInitOperand(0)->get();
    Value updated = op.getResult(0);
    if (auto view = target.getDefiningOp<tensor::ExpandShapeOp>()) {
      // A bias: updated as a 1 x N view, written back as the N vector.
      target = view.getSrc();
      if (!updated.hasOneUse() ||
          !isa<tensor::CollapseShapeOp>(*updated.getUsers().begin()))
        continue;
      updated = updated.getUsers().begin()->getResult(0);
    } else {
      // A conv weight: updated as (KH KW C) x F in chunks of rows, a chain
      // of updates from its collapse_shape, viewed back by an expand_shape
      // after the last; written back once, after that view.
      Value root = target;
      while (Operation *def = root.getDefiningOp()) {
        if (!NpuDialect::SgdUpdateAttrHelper(context).isAttrPresent(def) ||
            isStagingCopy(def))
          break;
        root = cast<DestinationStyleOpInterface>(def).getDpsInitOperand(0)->get();
      }
      if (auto view = root.getDefiningOp<tensor::CollapseShapeOp>()) {
        if (!updated.hasOneUse() ||
            !isa<tensor::ExpandShapeOp>(*updated.getUsers().begin()))
          continue; // not the chain's last update
        target = view.getSrc();
        updated = updated.getUsers().begin()->getResult(0);
      }
    }
    if (!llvm::is_contained(inL3, target))
      continue;
    OpBuilder b(context);
    b.setInsertionPointAfter(updated.getDefiningOp());
    auto copy = b.create<linalg::CopyOp>(op.getLoc(), updated, target);
    markStagingCopy(copy);
    NpuDialect::SgdUpdateAttrHelper(context).setAttr(copy,
                                                     UnitAttr::get(context));
    copy->setAttr(kMemAttrName, mem(MemLevel::L3));
    updated.replaceAllUsesExcept(copy.getResult(0), copy);
    inL3.push_back(copy.getResult(0));
  }

  for (Value value : inL3) {
    SmallVector<OpOperand *> readers;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      bool saStagesIt =
          isa<linalg::MatmulOp, MatmulKernelOp>(user) &&
          use.getOperandNumber() == 1;
      if (!saStagesIt && !isa<func::ReturnOp>(user) && !isStagingCopy(user))
        readers.push_back(&use);
    }
    // Inference only: a training step's weights are rewritten in L3 by its
    // SGD write-backs, whose order against the reads stays as it is.
    const bool weight = value.getDefiningOp<arith::ConstantOp>() != nullptr &&
                        !NpuDialect::TrainingAttrHelper(context).isAttrPresent(
                            func->getParentOp());
    auto written = writtenBack.find(value);
    const bool activation =
        asyncActivations && (isa<BlockArgument>(value) ||
                             written != writtenBack.end());
    for (OpOperand *use : readers) {
      Operation *at = use->getOwner();
      if (activation) {
        Operation *previous = previousLayerOp(at);
        Operation *producer = written != writtenBack.end()
                                  ? written->second.second
                                  : nullptr;
        if (producer && previous &&
            (previous == producer || previousLayerOp(previous) == producer)) {
          use->set(written->second.first);
          continue;
        }
        // The copy from L3 can start once the write-back has been queued.
        if (previous && (isa<BlockArgument>(value) ||
                         value.getDefiningOp()->isBeforeInBlock(previous)))
          at = previous;
      } else if (Operation *previous = weight ? previousLayerOp(at) : nullptr) {
        // The constant may be written right before its reader.
        Operation *def = value.getDefiningOp();
        if (previous->isBeforeInBlock(def))
          def->moveBefore(previous);
        at = previous;
      }
      OpBuilder b(at);
      use->set(staging(b, value.getLoc(), value, MemLevel::L2));
    }
    // Every reader of an L3 result took its L2 buffer: no write-back (the
    // plan would give it an L3 buffer that nothing reads).
    if (activation && written != writtenBack.end() && value.use_empty()) {
      Operation *copy = value.getDefiningOp();
      Operation *empty =
          cast<DestinationStyleOpInterface>(copy).getDpsInitOperand(0)->get().getDefiningOp();
      copy->erase();
      if (empty && empty->use_empty())
        empty->erase();
    }
  }
}

struct NpuMemoryPlanPass
    : public mlir::npu::impl::NpuMemoryPlanBase<NpuMemoryPlanPass> {
  using NpuMemoryPlanBase::NpuMemoryPlanBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();

    std::optional<MemLevel> defaultLevel = symbolizeMemLevel(defaultMemLevel);
    if (!defaultLevel) {
      module.emitError("default-mem-level must be L2 or L3, got '")
          << defaultMemLevel << "'";
      return signalPassFailure();
    }
    std::optional<MemLevel> activationLevel =
        symbolizeMemLevel(activationMemLevel);
    if (!activationLevel) {
      module.emitError("activation-mem-level must be L2 or L3, got '")
          << activationMemLevel << "'";
      return signalPassFailure();
    }
    if (alignment == 0 || !llvm::isPowerOf2_64(alignment)) {
      module.emitError("alignment must be a power of two, got ")
          << static_cast<uint64_t>(alignment); // not the cl::opt itself
      return signalPassFailure();
    }

    auto target = TargetAttr::lookup(module);
    if (!target) {
      module.emitError("no platform: run -npu-attach-target first");
      return signalPassFailure();
    }
    const uint64_t l2Base = target.getL2Base(), l2Size = target.getL2Size();
    const uint64_t l3Base = target.getL3Base(), l3Size = target.getL3Size();

    func::FuncOp func;
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isExternal())
        continue;
      if (func) {
        candidate.emitError("memory plan handles one function per module; "
                            "first was @")
            << func.getSymName();
        return signalPassFailure();
      }
      func = candidate;
    }
    if (!func)
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("memory plan needs a single-block function (run "
                     "-npu-verify-supported first)");
      return signalPassFailure();
    }

    insertL3Staging(func, *defaultLevel, *activationLevel);

    SmallVector<Buffer> buffers;
    llvm::DenseMap<Value, unsigned> bufferOf;
    auto newBuffer = [&](Value value, Location loc, MemLevel level,
                         int64_t index, BufferKind kind) {
      Buffer buffer{{value}, loc, level};
      buffer.size = byteSize(cast<RankedTensorType>(value.getType()));
      buffer.firstUse = buffer.lastUse = index;
      buffer.kind = kind;
      bufferOf[value] = buffers.size();
      buffers.push_back(std::move(buffer));
    };
    auto isTensor = [](Value v) { return isa<RankedTensorType>(v.getType()); };

    // Index 0 is function entry; op i of the body has index i + 1.
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      if (!isTensor(arg))
        continue;
      if (!isPlannable(cast<RankedTensorType>(arg.getType()))) {
        func.emitError("argument #")
            << arg.getArgNumber()
            << " needs a static shape and an int/float element type (run "
               "-npu-verify-supported first)";
        return signalPassFailure();
      }
      MemLevel level = *activationLevel;
      if (auto attr = func.getArgAttrOfType<MemLevelAttr>(arg.getArgNumber(),
                                                          kMemAttrName))
        level = attr.getValue();
      newBuffer(arg, func.getLoc(), level, 0, BufferKind::Input);
    }

    int64_t index = 0;
    for (Operation &op : body) {
      ++index;
      for (Value operand : op.getOperands()) {
        auto it = bufferOf.find(operand);
        if (it == bufferOf.end())
          continue;
        Buffer &buffer = buffers[it->second];
        if (buffer.startsAtFirstUse) {
          buffer.firstUse = index;
          buffer.startsAtFirstUse = false;
        }
        buffer.lastUse = std::max(buffer.lastUse, index);
      }
      unsigned tensorResults = llvm::count_if(op.getResults(), isTensor);
      if (tensorResults == 0)
        continue;
      if (tensorResults > 1 || op.getNumResults() > 1) {
        op.emitOpError("has several results; the memory plan handles "
                       "single-result ops only");
        return signalPassFailure();
      }
      Value result = op.getResult(0);
      if (!isPlannable(cast<RankedTensorType>(result.getType()))) {
        op.emitOpError("result needs a static shape and an int/float "
                       "element type (run -npu-verify-supported first)");
        return signalPassFailure();
      }
      BufferKind kind = classifyBuffer(result);
      if (kind == BufferKind::Weight) {
        newBuffer(result, op.getLoc(), requestedLevel(&op, *defaultLevel),
                  index, kind);
        continue;
      }
      // A reshape is a view: the source's buffer under another shape, live
      // as long as either is read.
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
        auto it = bufferOf.find(op.getOperand(0));
        if (it != bufferOf.end()) {
          buffers[it->second].values.push_back(result);
          bufferOf[result] = it->second;
          continue;
        }
      }
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
        Value init = dps.getDpsInitOperand(0)->get();
        auto it = bufferOf.find(init);
        // A training step's SGD update is the last reader of the weight it
        // rewrites (npu-derive-training orders it so): in place.
        if (it != bufferOf.end() &&
            NpuDialect::SgdUpdateAttrHelper(op.getContext())
                .isAttrPresent(&op)) {
          buffers[it->second].values.push_back(result);
          bufferOf[result] = it->second;
          continue;
        }
        if (it != bufferOf.end() && init.hasOneUse()) {
          Buffer &initBuffer = buffers[it->second];
          if (initBuffer.kind != BufferKind::Weight &&
              initBuffer.kind != BufferKind::Input &&
              initBuffer.size ==
                  byteSize(cast<RankedTensorType>(result.getType()))) {
            initBuffer.values.push_back(result);
            bufferOf[result] = it->second;
            continue;
          }
        }
      }
      newBuffer(result, op.getLoc(), requestedLevel(&op, *activationLevel),
                index, kind);
      buffers.back().startsAtFirstUse = isa<tensor::EmptyOp>(op);
    }
    // A training step runs once per step (npu-loop-training-steps): every
    // step re-reads the inputs, which hold all steps' mini-batches.
    const bool training =
        NpuDialect::TrainingAttrHelper(module.getContext()).isAttrPresent(module);
    for (Buffer &buffer : buffers) {
      if (buffer.kind == BufferKind::Weight ||
          (training && buffer.kind == BufferKind::Input)) {
        buffer.firstUse = 0;
        buffer.lastUse = index;
      }
    }

    uint64_t l2Start = llvm::alignTo(l2Reserve, alignment);
    uint64_t l2Peak = allocate(buffers, MemLevel::L2, l2Start, alignment);
    uint64_t l3Peak = allocate(buffers, MemLevel::L3, 0, alignment);

    bool fits = true;
    auto checkFit = [&](MemLevel level, uint64_t peak, uint64_t capacity) {
      if (peak <= capacity)
        return;
      fits = false;
      InFlightDiagnostic diag = func.emitError("model does not fit in ");
      diag << stringifyMemLevel(level) << ": needs " << peak
           << " bytes, the region holds " << capacity << " bytes ("
           << (peak - capacity) << " bytes over)";
      if (level == MemLevel::L2 && l2Start)
        diag << "; " << l2Start << " bytes are reserved by l2-reserve";
      // A training step keeps its forward activations for the backward
      // pass, so it outgrows L2 where its inference fits: name the options
      // that move more of it to L3.
      if (level == MemLevel::L2 &&
          NpuDialect::TrainingAttrHelper(&getContext())
              .isAttrPresent(module)) {
        if (*activationLevel == MemLevel::L2)
          diag << "; --activation-mem-level=L3 plans the activations (those "
                  "kept for the backward pass too) in L3";
        if (*defaultLevel == MemLevel::L2)
          diag << "; --default-mem-level=L3 plans the weights in L3";
        if (*activationLevel == MemLevel::L3 && *defaultLevel == MemLevel::L3)
          diag << "; with weights and activations in L3, this is the L2 "
                  "the step computes in (each layer's operands, staged): "
                  "a smaller network or a larger l2.size";
      }
    };
    checkFit(MemLevel::L2, l2Peak, l2Size);
    checkFit(MemLevel::L3, l3Peak, l3Size);
    if (!fits)
      return signalPassFailure();

    // At the top of L2 the image and the heap keep one contiguous range
    // below the plan instead of a guessed reserve.
    if (l2FromTop && l2Peak > l2Start) {
      uint64_t top = llvm::alignDown(l2Size - (l2Peak - l2Start),
                                     static_cast<uint64_t>(alignment));
      for (Buffer &buffer : buffers)
        if (buffer.level == MemLevel::L2)
          buffer.offset = buffer.offset - l2Start + top;
    }

    MLIRContext *context = &getContext();
    for (Buffer &buffer : buffers) {
      uint64_t base = buffer.level == MemLevel::L2 ? l2Base : l3Base;
      auto placement = PlacementAttr::get(context, buffer.level,
                                          base + buffer.offset, buffer.size);
      for (Value value : buffer.values) {
        if (auto arg = dyn_cast<BlockArgument>(value))
          func.setArgAttr(arg.getArgNumber(), kPlacementAttrName, placement);
        else
          value.getDefiningOp()->setAttr(kPlacementAttrName, placement);
      }
    }
    Builder builder(context);
    auto region = [&](uint64_t base, uint64_t size) {
      return builder.getDenseI64ArrayAttr(
          {static_cast<int64_t>(base), static_cast<int64_t>(size)});
    };
    module->setAttr(kRegionsAttrName,
                    builder.getDictionaryAttr({
                        builder.getNamedAttr("l2", region(l2Base, l2Size)),
                        builder.getNamedAttr("l3", region(l3Base, l3Size)),
                    }));
    module->setAttr(
        kMemoryUsageAttrName,
        builder.getDictionaryAttr({
            builder.getNamedAttr("l2", builder.getI64IntegerAttr(l2Peak)),
            builder.getNamedAttr("l3", builder.getI64IntegerAttr(l3Peak)),
        }));
  }
};

} // namespace
