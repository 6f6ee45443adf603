// libFuzzer target: npuc's MLIR input. Parses the text into a module with
// npuc's dialects (the parser verifies it), then runs npuc's phases verify ..
// plan on what parsed. Every input must parse-and-compile or be rejected with
// a diagnostic; a crash, an abort or a sanitizer report is a finding.
#include "npuc_fuzz.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    npu::fuzz::npuc_context c;
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(
        llvm::StringRef(reinterpret_cast<const char*>(data), size), &c.context);
    if (module) npu::fuzz::run_npuc_front_phases(c.context, *module);
    return 0;
}
