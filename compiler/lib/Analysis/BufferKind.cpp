// The buffer classification (BufferKind.h): the facts of the input IR that
// make a tensor a weight, an input, an output or a staging copy.
#include "npu/Analysis/BufferKind.h"

#include "npu/Dialect/Npu/NpuDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::npu;

StringRef mlir::npu::stringifyBufferKind(BufferKind kind) {
  switch (kind) {
  case BufferKind::Input:
    return "input";
  case BufferKind::Weight:
    return "weight";
  case BufferKind::Activation:
    return "activation";
  case BufferKind::Output:
    return "output";
  case BufferKind::Staging:
    return "staging";
  }
  llvm_unreachable("unknown buffer kind");
}

BufferKind mlir::npu::classifyBuffer(Value value) {
  if (isa<BlockArgument>(value))
    return BufferKind::Input;
  Operation *def = value.getDefiningOp();
  // A weight is a constant tensor of the network (verify-supported admits
  // no other way to bring parameters in).
  if (isa<arith::ConstantOp>(def) && isa<RankedTensorType>(value.getType()))
    return BufferKind::Weight;
  if (isStagingCopy(def))
    return BufferKind::Staging;
  if (isReturned(value))
    return BufferKind::Output;
  return BufferKind::Activation;
}

bool mlir::npu::isStagingCopy(Operation *op) {
  return NpuDialect::StagingAttrHelper(op->getContext()).isAttrPresent(op);
}

void mlir::npu::markStagingCopy(Operation *op) {
  MLIRContext *ctx = op->getContext();
  NpuDialect::StagingAttrHelper(ctx).setAttr(op, UnitAttr::get(ctx));
}

bool mlir::npu::isReturned(Value value) {
  return llvm::any_of(value.getUsers(), [](Operation *user) {
    return isa<func::ReturnOp>(user);
  });
}

L2PlanBounds mlir::npu::l2PlanBounds(ModuleOp module) {
  L2PlanBounds b;
  if (auto regions = module->getAttrOfType<DictionaryAttr>(kRegionsAttrName))
    if (auto l2 = regions.getAs<DenseI64ArrayAttr>("l2"))
      b.base = l2[0];
  for (auto g : module.getOps<memref::GlobalOp>())
    if (auto p = g->getAttrOfType<PlacementAttr>(kPlacementAttrName))
      if (p.getLevel() == MemLevel::L2 &&
          (!b.lowest || p.getAddress() < *b.lowest))
        b.lowest = p.getAddress();
  return b;
}

Origin mlir::npu::originOf(Value v) {
  Origin o;
  bool whole = true;
  while (Operation *def = v.getDefiningOp()) {
    if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          def, get.getNameAttr());
      if (!global)
        return o;
      if (auto p = global->getAttrOfType<PlacementAttr>(kPlacementAttrName)) {
        o.level = p.getLevel();
        if (whole)
          o.offset = static_cast<int64_t>(p.getAddress());
      }
      return o;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      v = cast.getSource();
      continue;
    }
    // A reshape is the same bytes.
    if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(def)) {
      v = def->getOperand(0);
      continue;
    }
    if (auto sub = dyn_cast<memref::SubViewOp>(def)) {
      whole = false;
      v = sub.getSource();
      continue;
    }
    return o;
  }
  return o;
}

Operation *mlir::npu::panelPackableWeights(Value b) {
  auto get = b.getDefiningOp<memref::GetGlobalOp>();
  auto type = dyn_cast<MemRefType>(b.getType());
  if (!get || !type || type.getRank() != 2 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity())
    return nullptr;
  auto module = get->getParentOfType<ModuleOp>();
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!module || !global || !global.getConstant() || global.getType() != type)
    return nullptr;
  auto init = dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
  if (!init)
    return nullptr;
  // Every reader of the bytes must read them in the packed order.
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(global.getSymNameAttr(), module);
  if (!uses || !llvm::hasSingleElement(*uses))
    return nullptr;
  return global;
}
