// npuc: network (.mlir) -> firmware.elf + manifest.json for npusim.
//
// Option parsing only: the phases are npu/Pipeline (verify .. llvm-dialect,
// the same pipeline as `npuc-opt -npu-pipeline`), the rest (LLVM IR, the
// RV32 object, the link, the host golden reference, the manifest) is
// npu/Driver. See docs/compiler.md.
#include "InstalledSdk.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include "config/input_file.h"
#include "npu/Driver/Driver.h"
#include "npu/Pipeline/Pipeline.h"

#include <cstdio>
#include <limits>

namespace cl = llvm::cl;

namespace {

cl::OptionCategory cat("npuc options");
cl::opt<std::string> inputFile(cl::Positional,
                               cl::desc("<network.mlir | model.onnx>"),
                               cl::Required, cl::cat(cat));
cl::opt<std::string>
    outDir("o", cl::desc("output directory (firmware.elf, manifest.json, ...)"),
           cl::value_desc("dir"), cl::init("npuc-out"), cl::cat(cat));
cl::opt<std::string> configFile("config", cl::desc("platform config (INI)"),
                                cl::init(NPUC_DEFAULT_CONFIG), cl::cat(cat));
cl::opt<std::string>
    defaultMemLevel("default-mem-level",
                    cl::desc("L2 or L3: where weights go (memory plan)"),
                    cl::init("L2"), cl::cat(cat));
cl::opt<std::string> activationMemLevel(
    "activation-mem-level",
    cl::desc("L2 or L3: inputs, activations, outputs (memory plan; L3 ones are "
             "computed in L2 and moved by DMA)"),
    cl::init("L2"), cl::cat(cat));
cl::opt<std::string> emit(
    "emit",
    cl::desc("last phase: imported | verify | plan | bufferized | tiled | "
             "schedule | llvm-dialect | llvm-ir | obj | elf (the MLIR/LLVM IR "
             "phases are printed on stdout; imported: the network as read, "
             "an ONNX model as linalg)"),
    cl::init("elf"), cl::cat(cat));
cl::opt<unsigned> optLevel(
    "opt",
    cl::desc("LLVM IR optimisation level 0-3 (default 2); codegen runs at -O2"),
    cl::init(2), cl::cat(cat));
cl::opt<bool> golden("golden",
                     cl::desc("run the original network on the host "
                              "(ExecutionEngine) and write golden.bin"),
                     cl::init(true), cl::cat(cat));
cl::list<std::string> configSets(
    "set",
    cl::desc("config override key=value (as npusim --key=value); repeatable"),
    cl::value_desc("key=value"), cl::cat(cat));
cl::opt<std::string> injectFault(
    "inject-fault",
    cl::desc("teaching/test aid, a known-wrong firmware: skip-weight-load | "
             "l3-as-l2 | unchecked-l1-alloc | data-input-count (--train; "
             "docs/compiler.md, docs/training.md)"),
    cl::init(""), cl::cat(cat));
cl::list<std::string> tilePins(
    "tile",
    cl::desc("pin a layer's tiles: <region>=<sizes>, the region as the report "
             "names it; a conv layer <output rows>x<output channels>, a matmul "
             "<tm>x<tn>x<tk>; repeatable (docs/compiler.md)"),
    cl::value_desc("layer=sizes"), cl::cat(cat));
cl::opt<bool> fuseMatmul(
    "fuse-matmul",
    cl::desc("fuse each dense layer's epilogue (bias, requantisation, ReLU) "
             "into its matmul kernel, npurt_matmul_ep (default); "
             "--fuse-matmul=false runs the matmul, then the epilogue on the "
             "workers from L2 (docs/compiler.md)"),
    cl::init(true), cl::cat(cat));
cl::opt<std::string> inputData(
    "input",
    cl::desc(
        "the network's input 0 from a file (.npy of its dtype and shape, or "
        "raw .bin) instead of the fixed pattern"),
    cl::value_desc("file"), cl::init(""), cl::cat(cat));
cl::opt<bool> train(
    "train",
    cl::desc(
        "compile a training step instead of inference: npu-derive-training "
        "(forward, loss, backward, SGD) for --steps mini-batches "
        "(docs/training.md)"),
    cl::init(false), cl::cat(cat));
cl::opt<int64_t> trainSteps("steps",
                            cl::desc("--train: mini-batches, one SGD step "
                                     "each (1..64, default 4)"),
                            cl::init(4), cl::cat(cat));
cl::opt<int64_t> trainBatch("batch",
                            cl::desc("--train: rows per mini-batch (1..256, "
                                     "default 4; a convolutional network: "
                                     "1, its kernels run batch 1)"),
                            cl::init(0), cl::cat(cat));
cl::opt<double> trainLr("lr",
                        cl::desc("--train: SGD learning rate (0 < lr <= 10, "
                                 "default 0.01)"),
                        cl::init(0.01), cl::cat(cat));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("an ONNX model's graph input with dynamic dimensions: its static "
             "shape, name=1x3x32x32; repeatable (docs/frontend.md)"),
    cl::value_desc("name=shape"), cl::cat(cat));
cl::opt<std::string>
    march("march",
          cl::desc("ISA of the generated code: rv32i + m a f c + _zicsr "
                   "_zifencei _xcvmem _xcvmac _xcvalu _xcvbi _xcvelw _xcvsimd "
                   "_xcvbitmanip (default: "
                   "the build's NPU_FW_MARCH, which the runtime is built for)"),
          cl::init(NPUC_DEFAULT_MARCH), cl::cat(cat));
cl::opt<std::string> npurtLib("npurt-lib",
                              cl::desc("libnpurt.a (runtime kernels)"),
                              cl::init(NPUC_NPURT_LIB), cl::cat(cat));
cl::opt<std::string> fwgenPath("fwgen", cl::desc("npu_fwgen tool"),
                               cl::init(NPUC_FWGEN), cl::cat(cat));
cl::opt<std::string> lldPath("ld", cl::desc("ld.lld"), cl::init(NPUC_LLD),
                             cl::cat(cat));
cl::opt<std::string> crt0Path("crt0", cl::desc("crt0 object"),
                              cl::init(NPUC_CRT0), cl::cat(cat));
cl::opt<std::string> runtimeLib("runtime-lib", cl::desc("libnpu_runtime.a"),
                                cl::init(NPUC_RUNTIME_LIB), cl::cat(cat));
cl::opt<std::string> mainObj("main-obj", cl::desc("npuc_main.o"),
                             cl::init(NPUC_MAIN_OBJ), cl::cat(cat));
cl::opt<std::string> libcPath("libc", cl::desc("picolibc libc.a"),
                              cl::init(NPUC_LIBC), cl::cat(cat));
cl::opt<std::string> libgccPath("libgcc", cl::desc("libgcc.a"),
                                cl::init(NPUC_LIBGCC), cl::cat(cat));

int fail(const llvm::Twine &msg) {
  llvm::errs() << "npuc: error: " << msg << "\n";
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Passes first: --mlir-print-ir-after=<pass> looks them up while parsing.
  mlir::npu::registerNpuPipeline();
  mlir::registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(cat);
  cl::ParseCommandLineOptions(
      argc, argv, "npuc: network (.mlir or .onnx) -> npusim firmware\n");
  npuc::useInstalledSdk(
      argv[0], reinterpret_cast<void *>(&fail),
      {{configFile, "share/npusim/configs/gap9.cfg"},
       {fwgenPath, "bin/npu_fwgen"},
       {crt0Path, "lib/npusim/firmware/crt0.o"},
       {runtimeLib, "lib/npusim/firmware/libnpu_runtime.a"},
       {npurtLib, "lib/npusim/firmware/libnpurt.a"},
       {mainObj, "lib/npusim/firmware/npuc_main.o"}});

  const bool emitImported = emit == "imported";
  std::optional<mlir::npu::Phase> to = mlir::npu::parsePhase(
      emitImported ? std::string("verify") : emit.getValue());
  if (!to)
    return fail("unknown --emit=" + emit + " (imported, " +
                mlir::npu::phaseList() + ")");
  if (injectFault.getNumOccurrences() && injectFault.empty())
    return fail("--inject-fault needs a value (skip-weight-load, l3-as-l2, "
                "unchecked-l1-alloc)");
  if (optLevel > 3)
    return fail("--opt=" + llvm::Twine(optLevel) +
                " is not an optimisation level (0-3)");
  if (!injectFault.empty() && injectFault != "skip-weight-load" &&
      injectFault != "l3-as-l2" && injectFault != "unchecked-l1-alloc" &&
      injectFault != "data-input-count")
    return fail("unknown --inject-fault=" + injectFault +
                " (skip-weight-load, l3-as-l2, unchecked-l1-alloc, "
                "data-input-count)");
  // A directory or /dev/zero as the network would be read without end.
  if (inputFile != "-")
    if (std::string why = npu::cfg::check_input_file(
            inputFile, npu::cfg::max_network_file_bytes, "a network file");
        !why.empty())
      return fail(inputFile + ": " + why);
  if (defaultMemLevel != "L2" && defaultMemLevel != "L3")
    return fail("--default-mem-level must be L2 or L3, not '" +
                defaultMemLevel + "'");
  if (activationMemLevel != "L2" && activationMemLevel != "L3")
    return fail("--activation-mem-level must be L2 or L3, not '" +
                activationMemLevel + "'");

  if (!train && (trainSteps.getNumOccurrences() ||
                 trainBatch.getNumOccurrences() || trainLr.getNumOccurrences()))
    return fail("--steps, --batch and --lr need --train");
  if (trainSteps < 1 || trainSteps > 64)
    return fail("--steps=" + llvm::Twine(trainSteps) +
                " is out of range (1..64)");
  if (trainBatch.getNumOccurrences() && (trainBatch < 1 || trainBatch > 256))
    return fail("--batch=" + llvm::Twine(trainBatch) +
                " is out of range (1..256)");
  // As given, to its last significant digit (std::to_string printed
  // 1e-50 as 0.000000).
  char lrText[32];
  std::snprintf(lrText, sizeof lrText, "%g", trainLr.getValue());
  if (!(trainLr > 0.0 && trainLr <= 10.0))
    return fail("--lr=" + llvm::Twine(lrText) +
                " is out of range (0 < lr <= 10)");
  // The step runs in f32, where a smaller rate is 0 (or a denormal):
  // training would leave every weight as it was.
  if (static_cast<float>(trainLr) < std::numeric_limits<float>::min())
    return fail("--lr=" + llvm::Twine(lrText) +
                " is 0 in f32, the precision training runs in (the smallest "
                "normal f32 is 1.17549e-38)");

  std::string marchError;
  if (mlir::npu::marchFeatures(march, marchError).empty())
    return fail(marchError);

  mlir::npu::DriverOptions options;
  options.march = march;
  options.train = train;
  options.trainSteps = trainSteps;
  options.trainBatch = trainBatch;
  options.trainLr = trainLr;
  options.inputFile = inputFile;
  options.outDir = outDir;
  options.configFile = configFile;
  options.configOverrides.assign(configSets.begin(), configSets.end());
  options.defaultMemLevel = defaultMemLevel;
  options.activationMemLevel = activationMemLevel;
  options.injectFault = injectFault;
  options.tilePins.assign(tilePins.begin(), tilePins.end());
  options.fuseMatmul = fuseMatmul;
  options.inputData = inputData;
  options.to = *to;
  options.emitImported = emitImported;
  options.inputShapes.assign(inputShapes.begin(), inputShapes.end());
  options.optLevel = optLevel;
  options.golden = golden;
  options.npurtLib = npurtLib;
  options.fwgen = fwgenPath;
  options.lld = lldPath;
  options.crt0 = crt0Path;
  options.runtimeLib = runtimeLib;
  options.mainObj = mainObj;
  options.libc = libcPath;
  options.libgcc = libgccPath;
  return mlir::npu::compileNetwork(options);
}
