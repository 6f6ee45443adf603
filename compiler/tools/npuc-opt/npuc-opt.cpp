// npuc-opt: mlir-opt with only the dialects npuc reads plus the npu dialect,
// the npu passes and `-npu-pipeline` (npuc's phases verify .. llvm-dialect,
// the pipeline npuc runs). Registering a short list instead of
// mlir/InitAllDialects.h keeps this the one heavy translation unit and its
// build time small.
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Pipeline/Pipeline.h"
#include "npu/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // The dialects npuc's context holds, so -npu-pipeline prints what npuc
  // --emit prints.
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::npu::NpuDialect>();
  mlir::arith::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::linalg::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::tensor::registerBufferizableOpInterfaceExternalModels(registry);
  mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  mlir::npu::registerNpuBufferizationModels(registry);
  // The npu passes, the pipeline's own and the upstream passes it names
  // (one-shot-bufferize, canonicalize, cse, the LLVM conversions).
  mlir::npu::registerNpuPipeline();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "npuc-opt: npuc's MLIR driver\n", registry));
}
