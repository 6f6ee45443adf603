// npuc's driver: runs the pipeline (npu/Pipeline) on a network file and
// carries the result through the phases after the LLVM dialect: LLVM IR,
// the RV32 object, the link, the host golden reference and the manifest.
// Each step is one function; compileNetwork() is npuc.
#ifndef NPU_DRIVER_DRIVER_H
#define NPU_DRIVER_DRIVER_H

#include "mlir/IR/BuiltinOps.h"
#include "npu/Pipeline/Pipeline.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir::npu {

struct DriverOptions {
  std::string inputFile;
  std::string outDir = "npuc-out";
  std::string configFile;
  std::vector<std::string> configOverrides;
  std::string defaultMemLevel = "L2";
  std::string activationMemLevel = "L2";
  std::string injectFault;
  // --tile <region>=<sizes> pins (npu-tile's `tile` option).
  std::vector<std::string> tilePins;
  // --fuse-matmul (npu-fuse-matmul in the pipeline).
  bool fuseMatmul = true;
  // Input 0's data (.npy / .bin) instead of the pattern; empty: the pattern.
  std::string inputData;
  // --train: npu-derive-training first (steps, batch, lr; batch 0: the
  // network's default, 4 rows or 1 for a convolutional network).
  bool train = false;
  int64_t trainSteps = 4, trainBatch = 0;
  double trainLr = 0.01;
  Phase to = Phase::Elf;
  // --emit=imported: print the network as read (an ONNX model imported to
  // linalg) and stop.
  bool emitImported = false;
  // --input-shape name=AxBx..: static shapes for an ONNX model's dynamic
  // graph inputs.
  std::vector<std::string> inputShapes;
  unsigned optLevel = 2;
  bool golden = true;
  // -march of the generated code (marchFeatures); empty: rv32imaf.
  std::string march;
  // The RV32 pieces the link uses.
  std::string npurtLib, fwgen, lld, crt0, runtimeLib, mainObj, libc, libgcc;
};

// LLVM's feature string ("+m,+a,+f,+c,+xcvmem") for an -march string that
// npusim can run: rv32i, then any of m a f c, then _-separated zicsr,
// zifencei, xcvmem, xcvmac, xcvalu, xcvbi, xcvelw, xcvsimd, xcvbitmanip.
// Empty with `error` set for anything else (npusim does not implement it, or
// it is no ISA string).
std::string marchFeatures(llvm::StringRef march, std::string &error);

// The ilp32f target machine npuc compiles for, for `march` (empty: rv32imaf).
std::unique_ptr<llvm::TargetMachine> makeTargetMachine(std::string &error,
                                                       llvm::StringRef march = "");

// Phase llvm-ir: translates the LLVM-dialect module, puts every planned
// global in its section (kept through the optimiser) and optimises at
// `optLevel`. Null with `error` set on failure.
std::unique_ptr<llvm::Module>
emitLLVMIR(ModuleOp module, llvm::LLVMContext &context, llvm::TargetMachine &tm,
           const ScheduledPlan &plan, unsigned optLevel, llvm::StringRef name,
           std::string &error);

// Phase obj: writes `module` as an RV32 object file.
LogicalResult emitObject(llvm::Module &module, llvm::TargetMachine &tm,
                         const std::string &path, std::string &error);

// Phase elf: npu_fwgen's linker script, plan.ld (every planned data section
// at its address; `noloadSymbols`' NOLOAD) and ld.lld -> <outDir>/firmware.elf.
LogicalResult linkFirmware(const DriverOptions &options,
                           const ScheduledPlan &plan, uint64_t l2PlanStart,
                           const std::string &objPath,
                           const std::vector<std::string> &noloadSymbols,
                           std::string &error);

// Runs `original` (the tagged input network) on the host through MLIR's
// ExecutionEngine (buildHostPipeline) and writes the first `bytes` of
// npu_output to `path`.
LogicalResult runGolden(ModuleOp original, uint64_t bytes,
                        const std::string &path, std::string &error,
                        llvm::StringRef inputData = "");

// What the manifest describes.
struct ManifestInfo {
  std::string network;
  std::vector<TensorInfo> inputs, outputs, checkpoints;
  PlanSummary plan;
  ScheduledPlan scheduled;
  uint64_t configFingerprint = 0;
  // npuc --train: {steps, batch, lr, loss, classes}; null for inference.
  llvm::json::Value training = nullptr;
};
LogicalResult writeManifest(const DriverOptions &options, ManifestInfo &info,
                            const std::string &path, std::string &error);

// npuc: compiles options.inputFile up to options.to. Diagnostics go to
// stderr, the MLIR/LLVM IR phases to stdout. Returns the exit code.
int compileNetwork(const DriverOptions &options);

} // namespace mlir::npu

#endif // NPU_DRIVER_DRIVER_H
