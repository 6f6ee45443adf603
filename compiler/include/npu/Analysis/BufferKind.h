// What a tensor buffer holds for the network: the one classification the
// passes share (npu-memory-plan's lifetimes and L3 staging, the plan's
// materialization, its printed table, tiling), so "what is a weight" is
// decided in one place. Later kinds (gradients, optimizer state of a
// training step) are added here and every pass sees them.
#ifndef NPU_ANALYSIS_BUFFERKIND_H
#define NPU_ANALYSIS_BUFFERKIND_H

#include "npu/Dialect/Npu/NpuDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::npu {

enum class BufferKind {
  Input,      // a function argument: written by the caller before the run
  Weight,     // a constant tensor: loaded once, live for the whole network
  Activation, // a value the network computes and reads again
  Output,     // a value the network computes and returns
  Staging,    // a DMA copy of a tensor between memory levels (npu.staging)
};

llvm::StringRef stringifyBufferKind(BufferKind kind);

// The kind of the buffer a tensor `value` lives in, at tensor level (before
// bufferization). A staging copy is Staging even when it is returned.
BufferKind classifyBuffer(Value value);

// True if `op` is a staging copy (npu-memory-plan's DMA copies between
// levels), and marks `op` as one.
bool isStagingCopy(Operation *op);
void markStagingCopy(Operation *op);

// True if the network's function returns `value`.
bool isReturned(Value value);

// Where a memref lives, after npu-materialize-plan: the planned buffer (a
// memref.global carrying npu.placement) it is, or is a cast, reshape or
// subview of; the address is known when it is the whole buffer. Neither is
// known for any other memref (a function argument, an allocation).
struct Origin {
  std::optional<MemLevel> level;
  std::optional<int64_t> offset; // the planned address
};
Origin originOf(Value v);

// The L2 below the memory plan (npu-memory-plan fills L2 from its top; the
// firmware image, its heap and the L3 weights' staging panels share what
// is below): the L2 region's base (npu.regions; 0 without one) and the
// lowest planned L2 address (none without a planned L2 buffer).
struct L2PlanBounds {
  uint64_t base = 0;
  std::optional<uint64_t> lowest;
};
L2PlanBounds l2PlanBounds(ModuleOp module);

// The weights a matmul's B operand `b` (K x N, bufferized) reads, when
// npu-schedule may store them in column panels instead of row-major
// (npurt.h npurt_matmul_panels, docs/compiler.md): a constant memref.global
// with a dense initializer of that K x N type, read through exactly one
// memref.get_global in the module, the one `b` is. Null otherwise (an
// input, an activation, a trained weight, a weight another op reads too).
// npu-tile asks it to cost B's transfers as the runtime will make them.
Operation *panelPackableWeights(Value b);

} // namespace mlir::npu

#endif // NPU_ANALYSIS_BUFFERKIND_H
