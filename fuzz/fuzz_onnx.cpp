// libFuzzer target: npuc's ONNX importer (compiler/lib/Frontend/Onnx). The
// input is an ONNX model file; an imported module must verify (npuc calls a
// failure "internal error": it is the importer's bug, so here it aborts) and
// then goes through npuc's phases verify .. plan like a parsed network.
#include "fuzz_util.h"
#include "npuc_fuzz.h"

#include "npu/Frontend/OnnxImport.h"

#include "mlir/IR/Verifier.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    npu::fuzz::record_input(data, size);
    // The importer reads a path (named *.onnx, as npuc requires).
    const npu::fuzz::temp_input in("onnx", data, size, ".onnx");
    npu::fuzz::npuc_context c;
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::npu::importOnnxFile(in.path, &c.context, {});
    if (!module) return 0;
    if (mlir::failed(mlir::verify(*module))) {
        std::fprintf(stderr, "fuzz_onnx: the imported module does not verify (an importer bug)\n");
        std::abort();
    }
    npu::fuzz::run_npuc_front_phases(c.context, *module);
    return 0;
}
