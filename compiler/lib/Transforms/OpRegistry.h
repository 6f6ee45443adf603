// The ops npuc compiles, in one table (OpRegistry.cpp): for each, how
// npu-verify-supported checks it in the input and how npu-schedule lowers
// it. The supported-op list of the diagnostics and the schedule's dispatch
// both come from the table, so adding an op is one entry plus its hooks.
#ifndef NPU_TRANSFORMS_OPREGISTRY_H
#define NPU_TRANSFORMS_OPREGISTRY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::linalg {
class LinalgOp;
} // namespace mlir::linalg

namespace mlir::npu {

class SupportChecker; // npu-verify-supported (VerifySupported.cpp)
class Scheduler;      // npu-schedule's lowering state (Schedule.cpp)

// Checks one op of the input; reports through the checker.
using VerifyHook = void (*)(SupportChecker &checker, Operation *op);
// Lowers one bufferized op of `layer` to runtime calls, erasing it.
using LowerHook = LogicalResult (*)(Scheduler &scheduler, Operation *op,
                                    const std::string &layer);

struct OpEntry {
  // How the "supported: ..." diagnostic names the op.
  llvm::StringLiteral name;
  bool (*matches)(Operation *op);
  // Null: the op is created by the passes, never accepted in the input.
  VerifyHook verify;
  // Null: nothing runs for it (a buffer, a constant, the return).
  LowerHook lower;
  // The op starts a new layer (region names layer<i>.*).
  bool startsLayer = false;
};

// The registry, in the order the diagnostic lists it.
llvm::ArrayRef<OpEntry> opRegistry();
// The entry matching `op`, or null if npuc does not know it.
const OpEntry *lookupOp(Operation *op);
// "func.func, func.return, ...": the ops accepted in the input.
const std::string &supportedOpList();

// The loop the workers split for a linalg op they run (npu-tile records it,
// npu-schedule slices by it): the largest parallel loop that every operand
// either does not depend on or indexes by that loop alone in one dimension,
// and that every output indexes, so the workers' slices are disjoint.
// None when no loop qualifies (a reduction to one value): one worker runs
// the op.
std::optional<unsigned> workerSplitDim(linalg::LinalgOp op);

// Verify hooks (VerifySupported.cpp).
void verifyFunction(SupportChecker &checker, Operation *op);
void verifyValueTypes(SupportChecker &checker, Operation *op);
void verifyMatmul(SupportChecker &checker, Operation *op);
void verifyElementwise(SupportChecker &checker, Operation *op);
void verifyConvLike(SupportChecker &checker, Operation *op);
void verifyPad(SupportChecker &checker, Operation *op);
// Ops npu-legalize-linalg rewrites: reaching the check is a pipeline error.
void verifyLegalized(SupportChecker &checker, Operation *op);

// Lowering hooks (Schedule.cpp).
LogicalResult lowerToSystolicArray(Scheduler &scheduler, Operation *op,
                                   const std::string &layer);
LogicalResult lowerToWorkers(Scheduler &scheduler, Operation *op,
                             const std::string &layer);
LogicalResult lowerCopy(Scheduler &scheduler, Operation *op,
                        const std::string &layer);
LogicalResult lowerConvKernel(Scheduler &scheduler, Operation *op,
                              const std::string &layer);

} // namespace mlir::npu

#endif // NPU_TRANSFORMS_OPREGISTRY_H
