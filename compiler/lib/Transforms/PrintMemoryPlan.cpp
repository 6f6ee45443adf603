// npu-print-memory-plan: the memory plan as a human-readable table, the form
// the npuc driver will print and architects compare across configs.
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUPRINTMEMORYPLAN
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

struct Row {
  PlacementAttr placement;
  unsigned order; // definition order, to keep ties stable
  std::string kind;
  std::string type;
  std::string producer;
};

std::string describeLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return llvm::formatv("{0}:{1}:{2}",
                         llvm::sys::path::filename(fileLoc.getFilename()),
                         fileLoc.getLine(), fileLoc.getColumn());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

struct NpuPrintMemoryPlanPass
    : public mlir::npu::impl::NpuPrintMemoryPlanBase<NpuPrintMemoryPlanPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::raw_ostream &os = llvm::outs();
    for (func::FuncOp func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<Row> rows;
      bool complete = true;
      for (BlockArgument arg : func.getArguments()) {
        if (!isa<RankedTensorType>(arg.getType()))
          continue;
        auto placement = func.getArgAttrOfType<PlacementAttr>(
            arg.getArgNumber(), kPlacementAttrName);
        if (!placement) {
          complete = false;
          continue;
        }
        rows.push_back(
            {placement, static_cast<unsigned>(rows.size()),
             isReturned(arg) ? "input+output" : "input",
             typeText(arg.getType()),
             llvm::formatv("argument #{0} at {1}", arg.getArgNumber(),
                           describeLocation(func.getLoc()))});
      }
      func.walk([&](Operation *op) {
        if (op->getNumResults() != 1 ||
            !isa<RankedTensorType>(op->getResult(0).getType()))
          return;
        auto placement = op->getAttrOfType<PlacementAttr>(kPlacementAttrName);
        if (!placement) {
          complete = false;
          return;
        }
        if (isa<tensor::EmptyOp>(op))
          return;
        Value result = op->getResult(0);
        BufferKind kind = classifyBuffer(result);
        // The table shows a staging copy as the value it carries.
        if (kind == BufferKind::Staging)
          kind =
              isReturned(result) ? BufferKind::Output : BufferKind::Activation;
        // A training step (npu-derive-training): the weights SGD rewrites
        // in place, and the activations the backward pass reads again.
        MLIRContext *ctx = op->getContext();
        std::string kindText = stringifyBufferKind(kind).str();
        if (NpuDialect::TrainableAttrHelper(ctx).isAttrPresent(op) ||
            NpuDialect::SgdUpdateAttrHelper(ctx).isAttrPresent(op))
          kindText = "weight (sgd)";
        else if (NpuDialect::KeptForBackwardAttrHelper(ctx).isAttrPresent(op))
          kindText = "kept for bwd";
        rows.push_back({placement, static_cast<unsigned>(rows.size()), kindText,
                        typeText(result.getType()),
                        llvm::formatv("{0} at {1}", op->getName(),
                                      describeLocation(op->getLoc()))});
      });
      if (!complete) {
        func.emitError("no complete memory plan: run -npu-memory-plan first");
        return signalPassFailure();
      }
      llvm::stable_sort(rows, [](const Row &a, const Row &b) {
        return std::make_tuple(a.placement.getLevel(), a.placement.getAddress(),
                               a.order) <
               std::make_tuple(b.placement.getLevel(), b.placement.getAddress(),
                               b.order);
      });
      os << "memory plan of @" << func.getSymName() << "\n";
      os << llvm::formatv("  {0,-5} {1,-10} {2,8}  {3,-12} {4,-20} {5}\n",
                          "level", "address", "bytes", "kind", "type",
                          "produced by");
      for (const Row &row : rows)
        os << llvm::formatv("  {0,-5} 0x{1:X-8} {2,8}  {3,-12} {4,-20} {5}\n",
                            stringifyMemLevel(row.placement.getLevel()),
                            row.placement.getAddress(), row.placement.getSize(),
                            row.kind, row.type, row.producer);
    }
    if (auto usage =
            module->getAttrOfType<DictionaryAttr>(kMemoryUsageAttrName))
      for (StringRef level : {"l2", "l3"})
        if (auto bytes = usage.getAs<IntegerAttr>(level))
          os << "  " << level << " peak: " << bytes.getInt() << " bytes\n";
    markAllAnalysesPreserved();
  }
};

} // namespace
