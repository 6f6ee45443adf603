// Shared by npuc's fuzz targets (fuzz_mlir, fuzz_onnx): the dialects npuc's
// context holds (compiler/lib/Driver/Driver.cpp), a fresh single-threaded
// context per input (types and attributes are uniqued per context: one
// shared context would grow with every input), diagnostics swallowed, and
// npuc's pipeline from `verify` up to `plan` (the phases that read the
// network's structure; the later ones lower what these accepted).
#pragma once

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
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Pipeline/Pipeline.h"
#include "npu/Transforms/Passes.h"

namespace npu::fuzz {

inline const mlir::DialectRegistry& npuc_registry() {
    static const mlir::DialectRegistry registry = [] {
        mlir::DialectRegistry r;
        r.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect, mlir::bufferization::BufferizationDialect,
                 mlir::cf::ControlFlowDialect, mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                 mlir::LLVM::LLVMDialect, mlir::math::MathDialect, mlir::memref::MemRefDialect,
                 mlir::scf::SCFDialect, mlir::tensor::TensorDialect, mlir::npu::NpuDialect>();
        mlir::arith::registerBufferizableOpInterfaceExternalModels(r);
        mlir::linalg::registerBufferizableOpInterfaceExternalModels(r);
        mlir::tensor::registerBufferizableOpInterfaceExternalModels(r);
        mlir::bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(r);
        mlir::npu::registerNpuBufferizationModels(r);
        // The pipeline names some upstream passes textually.
        mlir::npu::registerNpuPipeline();
        return r;
    }();
    return registry;
}

// A context like npuc's, silent: a rejected input is the expected outcome.
struct npuc_context {
    mlir::MLIRContext context{npuc_registry(), mlir::MLIRContext::Threading::DISABLED};
    mlir::ScopedDiagnosticHandler quiet{&context, [](mlir::Diagnostic&) { return mlir::success(); }};
    npuc_context() {
        context.loadAllAvailableDialects();
        context.printOpOnDiagnostic(false);
    }
};

// npuc's phases verify .. plan on `module` (default config: gap9); failure
// is a rejection, not a finding.
inline void run_npuc_front_phases(mlir::MLIRContext& context, mlir::ModuleOp module) {
    mlir::PassManager pm(&context);
    mlir::npu::NpuPipelineOptions options;
    mlir::npu::buildNpuPipeline(pm, options, mlir::npu::Phase::Verify, mlir::npu::Phase::Plan);
    (void)pm.run(module);
}

}  // namespace npu::fuzz
