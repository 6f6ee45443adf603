// The op registry (OpRegistry.h). To compile a new op: add an entry here,
// with a verify hook (its type and shape rules, VerifySupported.cpp) and a
// lowering hook (the engine that runs it, Schedule.cpp), and a lit test of
// each.
#include "OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::npu;

namespace {

template <typename... Ops>
bool is(Operation *op) {
  return isa<Ops...>(op);
}

const OpEntry kOps[] = {
    {"func.func", is<func::FuncOp>, verifyFunction, nullptr},
    {"func.return", is<func::ReturnOp>, verifyValueTypes, nullptr},
    {"linalg.matmul", is<linalg::MatmulOp>, verifyMatmul, lowerToSystolicArray,
     /*startsLayer=*/true},
    {"linalg.fill", is<linalg::FillOp>, verifyValueTypes, lowerToWorkers},
    {"elementwise linalg.generic", is<linalg::GenericOp>, verifyElementwise,
     lowerToWorkers},
    {"tensor.empty", is<tensor::EmptyOp>, verifyValueTypes, nullptr},
    {"arith.constant", is<arith::ConstantOp>, verifyValueTypes, nullptr},
    // npu-memory-plan's staging copies between levels and
    // npu-materialize-plan's copies into a result's own buffer.
    {"linalg.copy", is<linalg::CopyOp>, nullptr, lowerCopy},
};

} // namespace

ArrayRef<OpEntry> mlir::npu::opRegistry() { return kOps; }

const OpEntry *mlir::npu::lookupOp(Operation *op) {
  for (const OpEntry &entry : kOps)
    if (entry.matches(op))
      return &entry;
  return nullptr;
}

const std::string &mlir::npu::supportedOpList() {
  static const std::string list = [] {
    std::string text;
    for (const OpEntry &entry : kOps) {
      if (!entry.verify)
        continue;
      if (!text.empty())
        text += ", ";
      text += entry.name.str();
    }
    return text;
  }();
  return list;
}
