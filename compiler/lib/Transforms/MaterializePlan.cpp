// npu-materialize-plan: makes the memory plan binding. Until here a plan is
// a set of attributes that nothing obeys; after it, every tensor is a view
// of its level's byte array at its planned offset, so bufferization has no
// choice but to write results at the planned addresses, and weights become
// globals the linker puts exactly where the plan says.
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUMATERIALIZEPLAN
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

struct NpuMaterializePlanPass
    : public mlir::npu::impl::NpuMaterializePlanBase<NpuMaterializePlanPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    func::FuncOp func;
    for (auto candidate : module.getOps<func::FuncOp>()) {
      if (candidate.isExternal())
        continue;
      if (func) {
        candidate.emitError(
            "npu-materialize-plan handles one function per module");
        return signalPassFailure();
      }
      func = candidate;
    }
    if (!func)
      return;
    auto regions = module->getAttrOfType<DictionaryAttr>(kRegionsAttrName);
    if (!regions) {
      module.emitError("no memory plan: run -npu-memory-plan first");
      return signalPassFailure();
    }
    Block &body = func.getBody().front();
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    llvm::DenseMap<Value, PlacementAttr> placementOf;
    bool failedAny = false;

    // One external symbol per (address, type), which the linker defines at
    // the planned address (npuc: --defsym): code addresses the buffer
    // directly, with no view arithmetic for later passes to misread.
    std::map<std::pair<uint64_t, std::string>, std::string> symbols;
    unsigned symbolIndex = 0;
    auto bufferOf = [&](OpBuilder &builder, Location loc, PlacementAttr p,
                        RankedTensorType type) -> Value {
      auto memType = MemRefType::get(type.getShape(), type.getElementType());
      std::string typeText;
      llvm::raw_string_ostream os(typeText);
      memType.print(os);
      std::string &sym = symbols[{p.getAddress(), typeText}];
      if (sym.empty()) {
        sym = "npu_buf_" + std::to_string(symbolIndex++);
        mb.setInsertionPointToEnd(module.getBody());
        auto global = mb.create<memref::GlobalOp>(
            loc, sym, mb.getStringAttr("public"), memType, Attribute(),
            /*constant=*/false, IntegerAttr());
        global->setAttr(kPlacementAttrName, p);
      }
      return builder.create<memref::GetGlobalOp>(loc, memType, sym);
    };
    auto view = [&](OpBuilder &builder, Location loc, PlacementAttr p,
                    RankedTensorType type, bool writable) -> Value {
      Value mem = bufferOf(builder, loc, p, type);
      Value tensor = builder.create<bufferization::ToTensorOp>(
          loc, type, mem, /*restrict=*/true, /*writable=*/writable);
      placementOf[tensor] = p;
      return tensor;
    };
    // One error per buffer: a fill, the matmul accumulating on it and its
    // tensor.empty all name the same bytes.
    llvm::DenseSet<uint64_t> reported;
    auto rejectL3 = [&](Location loc, PlacementAttr p, StringRef what) {
      if (p.getLevel() != MemLevel::L3)
        return false;
      failedAny = true;
      if (!reported.insert(p.getAddress()).second)
        return true;
      emitError(loc) << what
                     << " computed in L3: the cores and the SA compute on L2 "
                        "and L1 (npu-memory-plan computes an L3 result in L2 "
                        "and copies it out)";
      return true;
    };

    // Arguments: read-only buffers (the network does not write its inputs).
    SmallVector<Attribute> inputs;
    for (BlockArgument arg : body.getArguments()) {
      auto p = func.getArgAttrOfType<PlacementAttr>(arg.getArgNumber(),
                                                    kPlacementAttrName);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!p || !type) {
        func.emitError("argument #")
            << arg.getArgNumber() << " has no placement (run -npu-memory-plan)";
        return signalPassFailure();
      }
      arg.replaceAllUsesWith(view(b, arg.getLoc(), p, type, false));
      inputs.push_back(p);
    }

    unsigned weightIndex = 0;
    SmallVector<Operation *> toErase;
    for (Operation &op : llvm::make_early_inc_range(body)) {
      auto p = op.getAttrOfType<PlacementAttr>(kPlacementAttrName);
      if (!p)
        continue;
      auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
      if (!type)
        continue;
      b.setInsertionPoint(&op);
      BufferKind kind = classifyBuffer(op.getResult(0));
      if (kind == BufferKind::Weight) {
        auto constant = cast<arith::ConstantOp>(op); // what a weight is
        auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!value) {
          op.emitOpError("weight is not a dense constant");
          failedAny = true;
          continue;
        }
        std::string name = "npu_weight_" + std::to_string(weightIndex++);
        // A trainable weight's SGD update writes it in place.
        bool trainable =
            NpuDialect::TrainableAttrHelper(ctx).isAttrPresent(&op);
        mb.setInsertionPointToEnd(module.getBody());
        auto global = mb.create<memref::GlobalOp>(
            op.getLoc(), name, mb.getStringAttr("public"),
            MemRefType::get(type.getShape(), type.getElementType()), value,
            /*constant=*/!trainable, mb.getI64IntegerAttr(64));
        NpuDialect::SectionAttrHelper(ctx).setAttr(
            global, mb.getStringAttr(".npu.plan." + name));
        global->setAttr(kPlacementAttrName, p);
        Value mem =
            b.create<memref::GetGlobalOp>(op.getLoc(), global.getType(), name);
        Value tensor = b.create<bufferization::ToTensorOp>(
            op.getLoc(), type, mem,
            /*restrict=*/true, /*writable=*/trainable);
        placementOf[tensor] = p;
        constant.getResult().replaceAllUsesWith(tensor);
        toErase.push_back(&op);
        continue;
      }
      // In L3 only as the DMA's end of a staging copy (npu-memory-plan
      // makes every other L3 tensor one); anything else would be computed
      // there by the SA or the cores.
      if (kind != BufferKind::Staging && !isa<tensor::EmptyOp>(op) &&
          rejectL3(op.getLoc(), p, "activation")) {
        placementOf[op.getResult(0)] = p;
        continue;
      }
      if (isa<tensor::EmptyOp>(op)) {
        op.getResult(0).replaceAllUsesWith(view(b, op.getLoc(), p, type, true));
        toErase.push_back(&op);
        continue;
      }
      placementOf[op.getResult(0)] = p;
      auto dps = dyn_cast<DestinationStyleOpInterface>(op);
      if (!dps)
        continue;
      // The plan gave the result a buffer of its own (its init is shared,
      // an input or a weight): compute into that buffer from a copy.
      OpOperand *init = dps.getDpsInitOperand(0);
      auto initPlacement = placementOf.lookup(init->get());
      if (initPlacement && initPlacement.getAddress() == p.getAddress())
        continue;
      Value dest = view(b, op.getLoc(), p, type, true);
      auto copy = b.create<linalg::CopyOp>(op.getLoc(), init->get(), dest);
      placementOf[copy.getResult(0)] = p;
      init->set(copy.getResult(0));
    }
    for (Operation *op : toErase)
      op->erase();

    // Results: their planned buffers are the outputs.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    SmallVector<Attribute> outputs;
    for (Value v : ret.getOperands()) {
      PlacementAttr p = placementOf.lookup(v);
      if (!p) {
        ret.emitOpError(
            "returns a value with no planned buffer of its own "
            "(an input or a weight returned as is is not supported)");
        failedAny = true;
        continue;
      }
      outputs.push_back(p);
    }
    if (failedAny)
      return signalPassFailure();

    // The outputs' buffers are where the caller (npuc_main, npusim's golden
    // comparison) finds them: materializing each result there keeps the
    // computation alive without a function result, and costs no copy because
    // the result already lives in that buffer.
    b.setInsertionPoint(ret);
    for (auto [v, attr] : llvm::zip(ret.getOperands(), outputs)) {
      auto p = cast<PlacementAttr>(attr);
      Value dest =
          bufferOf(b, ret.getLoc(), p, cast<RankedTensorType>(v.getType()));
      auto materialize = b.create<bufferization::MaterializeInDestinationOp>(
          ret.getLoc(), v, dest);
      materialize.setRestrict(true);
      materialize.setWritable(true);
    }
    b.create<func::ReturnOp>(ret.getLoc());
    ret.erase();
    NpuDialect::NetworkAttrHelper(ctx).setAttr(module, func.getSymNameAttr());
    NpuDialect::InputsAttrHelper(ctx).setAttr(module, b.getArrayAttr(inputs));
    NpuDialect::OutputsAttrHelper(ctx).setAttr(module, b.getArrayAttr(outputs));
    llvm::BitVector all(func.getNumArguments(), true);
    func.eraseArguments(all);
    func.setType(FunctionType::get(ctx, {}, {}));
    func.setSymName("npu_network_run");
    func.setPublic();
  }
};

} // namespace
