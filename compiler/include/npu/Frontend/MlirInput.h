// npuc's MLIR text input: MLIR 19's parser, behind a check for the inputs
// that crash that parser instead of making it report an error.
#ifndef NPU_FRONTEND_MLIRINPUT_H
#define NPU_FRONTEND_MLIRINPUT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LogicalResult.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::npu {

// Emits a located error for each place in the main buffer of `sourceMgr`
// where MLIR 19's own parser would crash rather than diagnose: the custom
// forms of linalg.transpose (`permutation = [...]`), linalg.broadcast and
// linalg.reduce (`dimensions = [...]`) store what DenseI64ArrayAttr::parse
// returns without checking it, so a malformed list there (`[=1, 0]`, `[1.5]`,
// `array<i64: 1>`, a value outside int64, a missing `]`) is a null attribute
// the parser then dereferences. The check accepts exactly a bracketed list of
// int64 literals at those places; every other text is left to the parser.
// Also rejected: linalg.map/reduce's short form (`{ payload-op }`) with an
// operand type other than a tensor/memref/vector (an unchecked ShapedType
// cast in that parser), and a use of an SSA name defined only later in a
// region that does not enclose it (after a syntax error there, the parser
// frees the definition while the use still refers to it: a heap corruption).
LogicalResult checkParserHazards(llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context);

// Emits an error at each op of `root` (parsed, not yet verified) that MLIR
// 19's own verifier would read out of bounds on instead of rejecting:
// linalg.transpose's verifier checks only that `permutation` has no
// repeated value, then reads the input's dimension at each entry, so [5, 0]
// or [-1, 0] reads past the shape (garbage dimensions, or a SEGV for a large
// value). linalg.broadcast's verifier likewise reads past the input's shape
// when `dimensions` repeats an entry ([1, 1]). Any form: custom, generic,
// properties.
LogicalResult checkVerifierHazards(Operation *root);

// checkParserHazards, MLIR's parser without its verifier,
// checkVerifierHazards, then the verifier. Null after the errors were
// emitted (through the context's diagnostic handler).
OwningOpRef<ModuleOp> parseMlirInput(llvm::SourceMgr &sourceMgr,
                                     MLIRContext *context);

} // namespace mlir::npu

#endif // NPU_FRONTEND_MLIRINPUT_H
