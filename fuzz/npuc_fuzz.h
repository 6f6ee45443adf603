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

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

namespace npu::fuzz {

// With NPU_FUZZ_RECORD=DIR, every input is written to DIR/in-<pid>-<n> (n
// counts this process's inputs) before it runs, and the file of input n-64
// is removed. glibc's heap checks abort the process in a way libFuzzer cannot
// save the input from (its crash handler allocates), and the input that
// corrupted the heap may be an earlier one than the input that aborts: the
// last 64 are left to replay in order (docs/robustness.md). Plain system
// calls and a stack buffer: no heap allocation on a possibly corrupt heap.
inline void record_input(const std::uint8_t* data, std::size_t size) {
    constexpr unsigned long long ring = 64;
    static const char* const dir = std::getenv("NPU_FUZZ_RECORD");
    static unsigned long long n = 0;
    if (!dir) return;
    char path[4096];
    const long pid = static_cast<long>(::getpid());
    if (n >= ring) {
        std::snprintf(path, sizeof path, "%s/in-%ld-%010llu", dir, pid, n - ring);
        ::unlink(path);
    }
    std::snprintf(path, sizeof path, "%s/in-%ld-%010llu", dir, pid, n++);
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    for (std::size_t done = 0; done < size;) {
        const ssize_t w = ::write(fd, data + done, size - done);
        if (w <= 0) break;
        done += static_cast<std::size_t>(w);
    }
    ::close(fd);
}

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
