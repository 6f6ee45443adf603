// libFuzzer target: npuc's MLIR input. Reads the text the way npuc does
// (parseMlirInput: the check for inputs that crash MLIR 19's parser, then
// the parser, which verifies), then runs npuc's phases verify .. plan on what
// parsed. Every input must parse-and-compile or be rejected with a
// diagnostic; a crash, an abort or a sanitizer report is a finding. (npuc's
// CrashRecoveryContext around parsing is deliberately not used here: a
// parser crash it would catch is still a finding.)
#include "npuc_fuzz.h"

#include "npu/Frontend/MlirInput.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    npu::fuzz::record_input(data, size);
    npu::fuzz::npuc_context c;
    llvm::SourceMgr source_mgr;
    source_mgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(reinterpret_cast<const char*>(data), size), "input"),
        llvm::SMLoc());
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::npu::parseMlirInput(source_mgr, &c.context);
    if (module) npu::fuzz::run_npuc_front_phases(c.context, *module);
    return 0;
}
