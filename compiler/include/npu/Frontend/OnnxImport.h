// The ONNX front end: an ONNX model (opsets 13-17) -> the linalg-on-tensors
// network npuc compiles, in the form compiler/networks/gen_mlperf.py writes
// (NHWC convolutions with their epilogue generic, the int8 requantisation
// of npurt_conv.h), so the imported network lowers like a hand-written one.
// See docs/frontend.md.
#ifndef NPU_FRONTEND_ONNXIMPORT_H
#define NPU_FRONTEND_ONNXIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::npu {

struct OnnxImportOptions {
  // `name=1x3x32x32`: the static shape of a graph input whose shape in the
  // model has a dynamic (symbolic or missing) dimension.
  std::vector<std::string> inputShapes;
};

// True for a file npuc imports as ONNX (the .onnx extension).
bool isOnnxFile(llvm::StringRef path);

// Reads and imports `path`. On failure returns null after emitting one
// error: at the ONNX node's location (NameLoc of the node's name) for what
// a node uses that is not supported, at the file for a file that is not a
// readable ONNX model.
OwningOpRef<ModuleOp> importOnnxFile(llvm::StringRef path, MLIRContext *context,
                                     const OnnxImportOptions &options);

} // namespace mlir::npu

#endif // NPU_FRONTEND_ONNXIMPORT_H
