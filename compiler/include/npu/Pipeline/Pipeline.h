// npuc's compilation pipeline as a library: the phases, the pass pipeline
// that runs them (npuc and `npuc-opt -npu-pipeline` both build it here), the
// module rewrites around the npu passes (Passes.td) and what the driver
// reads back from the IR between phases.
#ifndef NPU_PIPELINE_PIPELINE_H
#define NPU_PIPELINE_PIPELINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "npu/Dialect/Npu/NpuDialect.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::npu {

#define GEN_PASS_DECL
#include "npu/Pipeline/Passes.h.inc"

// The phases in order. Each MLIR phase (verify .. llvm-dialect) is a slice
// of the pass pipeline; the last three are the driver's (npu/Driver).
// phaseName() is the --emit / `to=` spelling.
enum class Phase {
  Verify,      // verify:       checkpoints tagged, unsupported ops rejected
  Plan,        // plan:         every tensor placed in L2/L3
  Bufferize,   // bufferized:   planned globals, in-place bufferization
  Tile,        // tiled:        SA tiles, worker split
  Schedule,    // schedule:     runtime calls, workers, DMA staging
  LLVMDialect, // llvm-dialect: loops, LLVM dialect (index = i32)
  LLVMIR,      // llvm-ir:      LLVM IR for riscv32, optimised
  Object,      // obj:          network.o
  Elf,         // elf:          firmware.elf, golden.bin, manifest.json
};
inline constexpr Phase kLastMLIRPhase = Phase::LLVMDialect;
llvm::StringRef phaseName(Phase phase);
std::optional<Phase> parsePhase(llvm::StringRef name);
// "verify, plan, ..., elf", for error messages and help.
std::string phaseList();

struct NpuPipelineOptions : public PassPipelineOptions<NpuPipelineOptions> {
  Option<std::string> configPath{
      *this, "config",
      llvm::cl::desc(
          "Platform config file (INI); empty = the built-in defaults (gap9)"),
      llvm::cl::init("")};
  ListOption<std::string> configOverrides{
      *this, "set",
      llvm::cl::desc("Config overrides key=value (as npusim --key=value)")};
  Option<std::string> defaultMemLevel{
      *this, "default-mem-level", llvm::cl::desc("L2 or L3: where weights go"),
      llvm::cl::init("L2")};
  Option<std::string> activationMemLevel{
      *this, "activation-mem-level",
      llvm::cl::desc("L2 or L3: inputs, activations, outputs"),
      llvm::cl::init("L2")};
  Option<std::string> injectFault{
      *this, "inject-fault",
      llvm::cl::desc("'', 'l3-as-l2', 'unchecked-l1-alloc' or "
                     "'data-input-count' (npu-schedule); "
                     "'skip-weight-load' is the linker's and changes no IR"),
      llvm::cl::init("")};
  ListOption<std::string> tilePins{
      *this, "tile",
      llvm::cl::desc(
          "<region>=<sizes>: pin a conv layer's <rows>x<channels> or a "
          "matmul's <tm>x<tn>x<tk> tiles (npu-tile)")};
  Option<bool> fuseMatmul{
      *this, "fuse-matmul",
      llvm::cl::desc("Run npu-fuse-matmul (dense layers' epilogues into "
                     "npurt_matmul_ep)"),
      llvm::cl::init(true)};
  Option<std::string> inputFile{
      *this, "input-file",
      llvm::cl::desc(
          "Input 0's data (.npy or raw .bin) instead of the pattern"),
      llvm::cl::init("")};
  Option<std::string> to{
      *this, "to",
      llvm::cl::desc("Last phase: verify | plan | bufferized | tiled | "
                     "schedule | llvm-dialect"),
      llvm::cl::init("llvm-dialect")};
};

// Called with the pass manager at the start and end of every phase built;
// a hook adds passes, e.g. a callback pass that records the IR between
// phases.
struct PipelineHooks {
  std::function<void(Phase, OpPassManager &)> beforePhase;
  std::function<void(Phase, OpPassManager &)> afterPhase;
};

// Appends the passes of phases [from, to] (MLIR phases only; `to` is clamped
// to llvm-dialect) to `pm`, a ModuleOp pass manager.
void buildNpuPipeline(OpPassManager &pm, const NpuPipelineOptions &options,
                      Phase from, Phase to, const PipelineHooks &hooks = {});

// A module pass that calls `fn`; its failure fails the pipeline.
std::unique_ptr<Pass>
createCallbackPass(std::function<LogicalResult(ModuleOp)> fn);

// npu-loop-training-steps (TrainingLoop.cpp): a training module's one step
// run `steps` times, on the device after npu-schedule and for the golden
// before bufferization; no change to any other module.
LogicalResult loopTrainingStepsOnDevice(ModuleOp module);
LogicalResult loopTrainingStepsOnHost(ModuleOp module);

// The host's bufferization and lowering (golden reference), the same
// upstream passes the device pipeline uses with 64-bit indices.
// `inputFile`: input 0's data instead of the pattern (networkInput).
void buildHostPipeline(OpPassManager &pm, llvm::StringRef inputFile = "");

// Registers the npu passes, the passes above, the upstream passes the
// pipeline names, and the `npu-pipeline` pass pipeline.
void registerNpuPipeline();

// --- what the driver reads from the IR ------------------------------------------

// One network input, output or checkpoint: its bytes at `offset` inside
// npu_input / npu_output / golden.bin.
struct TensorInfo {
  std::string name;
  RankedTensorType type;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// The module's one network function (a func.func with a body), a null
// FuncOp if there is none; an error at a second one.
FailureOr<func::FuncOp> findNetwork(ModuleOp module);

// Lays `types` out one after the other, each 16-byte aligned, named
// <prefix><i>; `total` is the end. Fails (with an error at `net`) on a type
// that is not a statically shaped int/float tensor.
LogicalResult layoutTensors(func::FuncOp net, TypeRange types,
                            llvm::StringRef prefix,
                            std::vector<TensorInfo> &into, uint64_t &total);

// The network's inputs and outputs, each 16-byte aligned in its file;
// `inBytes`/`outBytes` are the totals. Fails (with an error at the
// function) on a tensor that is not statically shaped.
LogicalResult collectInterface(func::FuncOp net,
                               std::vector<TensorInfo> &inputs,
                               std::vector<TensorInfo> &outputs,
                               uint64_t &inBytes, uint64_t &outBytes);

// The checkpoints tagged by -npu-tag-checkpoints, in order, laid out after
// the outputs in golden.bin (`goldenBytes` grows to hold them).
std::vector<TensorInfo> collectCheckpoints(func::FuncOp net,
                                           uint64_t &goldenBytes);

// Input k's bytes: the deterministic pattern of docs/compiler.md. A labels
// input of a training step (`classes` > 0, see labelClasses) holds valid
// class indices instead: element i of input k is (7*i + 3*k) mod classes.
std::vector<uint8_t> inputPattern(RankedTensorType type, unsigned k,
                                  int64_t classes = 0);
// The class count if input k of `module`'s network is the labels input of a
// training step (npu-derive-training's npu.training), else 0.
int64_t labelClasses(ModuleOp module, unsigned k);
// Input k's bytes: the pattern, or for input 0 the contents of `file` when
// given (a .npy of the input's dtype and element count, or a raw .bin of
// exactly the input's bytes). Fails with `error` saying what does not match.
FailureOr<std::vector<uint8_t>> networkInput(RankedTensorType type, unsigned k,
                                             llvm::StringRef file,
                                             std::string &error,
                                             int64_t classes = 0);

// The plan as the manifest lists it, read after phase `plan`.
struct PlanSummary {
  llvm::json::Array tensors; // one row per planned buffer
  llvm::json::Object peakBytes;
  uint64_t l2PlanStart = 0; // lowest L2 address of the plan (0: none)
  std::vector<uint64_t> checkpointAddress;
  std::vector<std::string> checkpointLocation;
};
PlanSummary collectPlan(func::FuncOp net, ModuleOp module,
                        size_t numCheckpoints);

// What the link and the manifest need from the scheduled module, read
// after phase `schedule` (before -npu-strip-attributes).
struct PlannedData {
  std::string symbol, section;
  uint64_t address, bytes;
  MemLevel level;
};
struct ScheduledPlan {
  std::vector<PlannedData> data; // initialised, in sections
  std::vector<std::pair<std::string, uint64_t>> symbols; // no data: --defsym
  // Unplanned globals the linker script places by section (e.g. .l1.bss).
  std::vector<std::pair<std::string, std::string>> sectioned;
  std::vector<uint64_t> inputAddress, outputAddress;
  // Checkpoint i is read at the end of the n-th region named region (n >= 1).
  std::vector<std::pair<std::string, int64_t>> checkpointRegion;
  // Multiply-accumulates per region name (summed over its instances), in
  // program order: the manifest's "layers", npusim's MAC/cycle per region.
  std::vector<std::pair<std::string, int64_t>> regionMacs;
  // The tiles npu-tile chose (or a pin gave) per region, written as --tile
  // takes them ("8x32", "1x16x64"): the manifest's layers carry them so a
  // sweep can pin every point to one config's schedule (npu sweep
  // --fix-tiles).
  std::map<std::string, std::string> regionTiles;
  // The SA staging buffer, if any (a manifest row; lowers l2PlanStart).
  std::optional<llvm::json::Object> staging;
  uint64_t stagingAddress = 0;
};
ScheduledPlan collectScheduledPlan(ModuleOp module, size_t numCheckpoints);

std::string typeString(Type type);
std::string locString(Location loc);

} // namespace mlir::npu

#endif // NPU_PIPELINE_PIPELINE_H
