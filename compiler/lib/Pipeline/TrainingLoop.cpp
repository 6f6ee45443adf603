// npu-loop-training-steps: npu-derive-training builds ONE training step
// that selects its mini-batch by the steps done (state it keeps in place,
// like each step's loss and the weights); these run it `steps` times, so
// neither the firmware's code nor the compile time grows with the steps.
//  - On the device, after npu-schedule: the network function's body (every
//    buffer at its planned address, every update in place) becomes the body
//    of an scf.for over the steps.
//  - For the golden, on tensors before bufferization: the step as it is
//    (its checkpoints are step 0's, as the device's first iteration
//    records them), then an scf.for over the other steps carrying every
//    trained tensor (npu.trainable) as an iteration argument.
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Pipeline/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::npu;

namespace {

// The steps of a training module, or 0 for any other module.
int64_t trainingSteps(ModuleOp module) {
  auto training =
      NpuDialect::TrainingAttrHelper(module.getContext()).getAttr(module);
  if (!training)
    return 0;
  auto steps = training.getAs<IntegerAttr>("steps");
  return steps ? steps.getInt() : 0;
}

// The trainable constant whose state `v` is: through in-place updates
// (their init) and reshapes; null if there is none.
Value trainedRoot(Value v) {
  MLIRContext *ctx = v.getContext();
  while (Operation *def = v.getDefiningOp()) {
    if (isa<arith::ConstantOp>(def))
      return NpuDialect::TrainableAttrHelper(ctx).isAttrPresent(def) ? v
                                                                     : Value();
    if (auto e = dyn_cast<tensor::ExpandShapeOp>(def))
      v = e.getSrc();
    else if (auto c = dyn_cast<tensor::CollapseShapeOp>(def))
      v = c.getSrc();
    else if (NpuDialect::SgdUpdateAttrHelper(ctx).isAttrPresent(def))
      v = cast<DestinationStyleOpInterface>(def).getDpsInitOperand(0)->get();
    else
      return Value();
  }
  return Value();
}

} // namespace

LogicalResult mlir::npu::loopTrainingStepsOnHost(ModuleOp module) {
  const int64_t steps = trainingSteps(module);
  if (steps <= 1)
    return success();
  func::FuncOp func;
  for (auto f : module.getOps<func::FuncOp>())
    if (!f.isExternal())
      func = f;
  if (!func || !func.getBody().hasOneBlock())
    return module.emitError("npu-loop-training-steps: no training step");
  Block &body = func.getBody().front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  // Every result is the state of one trained tensor (steps.done, the
  // losses, the weights): the loop carries them.
  SmallVector<Value> finals(ret.getOperands()), roots;
  for (Value v : finals) {
    Value root = trainedRoot(v);
    if (!root || llvm::is_contained(roots, root))
      return ret.emitOpError("npu-loop-training-steps: a result that is not "
                             "the state of one trained tensor");
    roots.push_back(root);
  }
  MLIRContext *ctx = module.getContext();
  ctx->getOrLoadDialect<scf::SCFDialect>();
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    if (!(op.getNumResults() == 1 &&
          llvm::is_contained(roots, op.getResult(0))))
      ops.push_back(&op);
  OpBuilder b(ret);
  Location loc = func.getLoc();
  Value first = b.create<arith::ConstantIndexOp>(loc, 1);
  Value last = b.create<arith::ConstantIndexOp>(loc, steps);
  auto loop = b.create<scf::ForOp>(
      loc, first, last, b.create<arith::ConstantIndexOp>(loc, 1), finals,
      [&](OpBuilder &nb, Location l, Value, ValueRange state) {
        IRMapping map;
        map.map(roots, state);
        for (Operation *op : ops) {
          Operation *copy = nb.clone(*op, map);
          if (NpuDialect::CheckpointAttrHelper(ctx).isAttrPresent(copy))
            NpuDialect::CheckpointAttrHelper(ctx).removeAttr(copy);
        }
        SmallVector<Value> next;
        for (Value v : finals)
          next.push_back(map.lookupOrDefault(v));
        nb.create<scf::YieldOp>(l, next);
      });
  ret->setOperands(loop.getResults());
  return success();
}

LogicalResult mlir::npu::loopTrainingStepsOnDevice(ModuleOp module) {
  const int64_t steps = trainingSteps(module);
  if (steps <= 1)
    return success();
  auto run = module.lookupSymbol<func::FuncOp>("npu_network_run");
  if (!run || !run.getBody().hasOneBlock())
    return module.emitError("npu-loop-training-steps: no npu_network_run");
  module.getContext()->getOrLoadDialect<scf::SCFDialect>();
  Block &body = run.getBody().front();
  Operation *ret = body.getTerminator();
  OpBuilder b(ret);
  Location loc = run.getLoc();
  auto loop = b.create<scf::ForOp>(
      loc, b.create<arith::ConstantIndexOp>(loc, 0),
      b.create<arith::ConstantIndexOp>(loc, steps),
      b.create<arith::ConstantIndexOp>(loc, 1));
  Operation *yield = loop.getBody()->getTerminator();
  // A fixed-size stack buffer (a kernel's argument block, npu-schedule)
  // stays in the entry block: moved into the loop, each step's alloca would
  // take another frame's worth of stack, never given back until the
  // function returns (80 B a step on mlp_tiny_f32: 19 steps overflowed the
  // controller's 2 KiB stack). Its stores are in the loop, before each call.
  auto staysOutside = [](Operation &op) {
    auto alloca = dyn_cast<memref::AllocaOp>(op);
    return alloca && alloca->getNumOperands() == 0;
  };
  for (Operation &op : llvm::make_early_inc_range(body))
    if (&op != ret && &op != loop.getOperation() && !staysOutside(op) &&
        !llvm::is_contained(loop->getOperands(), op.getNumResults()
                                                     ? op.getResult(0)
                                                     : Value()))
      op.moveBefore(yield);
  return success();
}
