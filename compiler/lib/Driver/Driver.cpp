// npuc's driver (npu/Driver/Driver.h).
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
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include "config/config.h"
#include "npu/Driver/Driver.h"
#include "npu/Frontend/MlirInput.h"
#include "npu/Frontend/OnnxImport.h"
#include "npu/Transforms/Passes.h"

#include <chrono>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <optional>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTarget();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVAsmPrinter();
}

using namespace mlir;
using namespace mlir::npu;

namespace {

int fail(const llvm::Twine &msg) {
  llvm::errs() << "npuc: error: " << msg << "\n";
  return 1;
}

// f32 outputs: |device - golden| <= atol + rtol * |golden|. The SA fuses
// each multiply-add (one rounding) where the host's upstream lowering rounds
// twice, and tiling keeps k ascending: differences are a few ulps per
// accumulation step (docs/compiler.md).
constexpr double kF32Atol = 1e-4, kF32Rtol = 1e-4;

// MLIR's own --mlir-print-ir-after(-all), --mlir-timing, ... apply to every
// pass manager npuc runs.
bool configure(PassManager &pm) {
  return succeeded(applyPassManagerCLOptions(pm));
}

int runTool(const std::string &program, llvm::ArrayRef<std::string> argv,
            std::string *capturedStderr = nullptr) {
  std::vector<llvm::StringRef> refs(argv.begin(), argv.end());
  std::string error;
  // With capturedStderr, the tool's stderr goes to a temporary file and
  // comes back as text: the caller decides what of it the user sees.
  llvm::SmallString<128> errFile;
  std::optional<llvm::StringRef> redirects[3] = {std::nullopt, std::nullopt,
                                                 std::nullopt};
  if (capturedStderr &&
      !llvm::sys::fs::createTemporaryFile("npuc-tool", "err", errFile))
    redirects[2] = llvm::StringRef(errFile);
  int rc = llvm::sys::ExecuteAndWait(program, refs, std::nullopt, redirects, 0,
                                     0, &error);
  if (!error.empty())
    llvm::errs() << "npuc: " << program << ": " << error << "\n";
  if (capturedStderr && !errFile.empty()) {
    if (auto buf = llvm::MemoryBuffer::getFile(errFile))
      *capturedStderr = (*buf)->getBuffer().str();
    llvm::sys::fs::remove(errFile);
  }
  return rc;
}

// `model: error: ONNX node 'a' + 'b': message` for an op of an imported
// model, named by the ONNX nodes it came from (the importer's NameLocs).
void printOnnxDiagnostic(llvm::StringRef model, const Diagnostic &d) {
  static const char *kinds[] = {"note", "warning", "error", "remark"};
  llvm::SmallVector<std::string> nodes;
  d.getLocation()->walk([&](Location l) {
    if (auto name = dyn_cast<NameLoc>(l))
      nodes.push_back("'" + name.getName().str() + "'");
    return WalkResult::advance();
  });
  llvm::errs() << model << ": " << kinds[static_cast<int>(d.getSeverity())]
               << ": ";
  if (!nodes.empty())
    llvm::errs() << "ONNX node " << llvm::join(nodes, " + ") << ": ";
  llvm::errs() << d.str() << "\n";
}

std::string joinPath(llvm::StringRef dir, llvm::StringRef name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

} // namespace

std::string mlir::npu::marchFeatures(llvm::StringRef march,
                                     std::string &error) {
  llvm::StringRef rest = march;
  if (!rest.consume_front("rv32i")) {
    error = "-march '" + march.str() + "' does not start with rv32i";
    return "";
  }
  std::string features;
  auto add = [&](llvm::StringRef f) {
    features += (features.empty() ? "+" : ",+") + f.str();
  };
  // Single-letter extensions in canonical order, then the named ones.
  const llvm::StringRef letters = "mafc";
  size_t at = 0;
  while (!rest.empty() && rest.front() != '_') {
    const size_t pos = letters.find(rest.front(), at);
    if (pos == llvm::StringRef::npos) {
      error = "-march '" + march.str() + "': extension '" +
              std::string(1, rest.front()) +
              "' is not one npusim runs (m, a, f, c, in this order)";
      return "";
    }
    add(letters.substr(pos, 1));
    at = pos + 1;
    rest = rest.drop_front();
  }
  // The code follows the runtime's ABI, ilp32f (float arguments in f
  // registers), which needs the F extension: without it LLVM ignores the
  // ABI with a warning and the link then mixes two ABIs.
  if (letters.find('f') >= at) {
    error = "-march '" + march.str() +
            "' has no 'f': npuc's code and the firmware runtime use the "
            "ilp32f ABI (float arguments in f registers), which needs it "
            "(e.g. rv32imaf)";
    return "";
  }
  static const char *const named[] = {"zicsr",  "zifencei", "xcvmem",
                                      "xcvmac", "xcvalu",   "xcvbi",
                                      "xcvelw", "xcvsimd",  "xcvbitmanip"};
  llvm::SmallVector<llvm::StringRef> parts;
  rest.split(parts, '_', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts) {
    if (!llvm::is_contained(named, p)) {
      error = "-march '" + march.str() + "': extension '" + p.str() +
              "' is not one npusim runs (zicsr, zifencei, xcvmem, xcvmac, "
              "xcvalu, xcvbi, xcvelw, xcvsimd, xcvbitmanip)";
      return "";
    }
    add(p);
  }
  return features;
}

std::unique_ptr<llvm::TargetMachine>
mlir::npu::makeTargetMachine(std::string &error, llvm::StringRef march) {
  const std::string features =
      marchFeatures(march.empty() ? "rv32imaf" : march, error);
  if (features.empty())
    return nullptr;
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  const std::string triple = "riscv32-unknown-elf";
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions options;
  options.MCOptions.ABIName = "ilp32f";
  options.FunctionSections = true;
  options.DataSections = true;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "generic-rv32", features, options, llvm::Reloc::Static,
      llvm::CodeModel::Small, llvm::CodeGenOptLevel::Default));
}

std::unique_ptr<llvm::Module>
mlir::npu::emitLLVMIR(ModuleOp module, llvm::LLVMContext &context,
                      llvm::TargetMachine &tm, const ScheduledPlan &plan,
                      unsigned optLevel, llvm::StringRef name,
                      std::string &error) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, name);
  if (!llvmModule) {
    error = "translation to LLVM IR failed";
    return nullptr;
  }
  llvmModule->setTargetTriple(tm.getTargetTriple().str());
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->addModuleFlag(llvm::Module::Error, "target-abi",
                            llvm::MDString::get(context, "ilp32f"));
  std::vector<llvm::GlobalValue *> used;
  for (const PlannedData &d : plan.data) {
    llvm::GlobalVariable *g = llvmModule->getNamedGlobal(d.symbol);
    if (!g) {
      error = "internal error: planned global " + d.symbol +
              " vanished in the lowering";
      return nullptr;
    }
    g->setSection(d.section);
    used.push_back(g);
  }
  for (const auto &[symbol, section] : plan.sectioned)
    if (llvm::GlobalVariable *g = llvmModule->getNamedGlobal(symbol))
      g->setSection(section);
  // Nothing references the data by symbol (code uses the plan's addresses):
  // keep it through the optimiser.
  llvm::appendToUsed(*llvmModule, used);
  if (optLevel > 0) {
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
        llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(&tm);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm =
        pb.buildPerModuleDefaultPipeline(levels[std::min(optLevel, 3u)]);
    mpm.run(*llvmModule, mam);
  }
  return llvmModule;
}

LogicalResult mlir::npu::emitObject(llvm::Module &module,
                                    llvm::TargetMachine &tm,
                                    const std::string &path,
                                    std::string &error) {
  std::error_code ec;
  llvm::ToolOutputFile obj(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot write " + path + ": " + ec.message();
    return failure();
  }
  llvm::legacy::PassManager codegen;
  if (tm.addPassesToEmitFile(codegen, obj.os(), nullptr,
                             llvm::CodeGenFileType::ObjectFile)) {
    error = "the riscv32 target cannot emit an object file";
    return failure();
  }
  codegen.run(module);
  obj.keep();
  return success();
}

LogicalResult
mlir::npu::linkFirmware(const DriverOptions &options, const ScheduledPlan &plan,
                        uint64_t l2PlanStart, const std::string &objPath,
                        const std::vector<std::string> &noloadSymbols,
                        std::string &error) {
  const std::string ldScript = joinPath(options.outDir, "npu.ld");
  const std::string header = joinPath(options.outDir, "npu_platform.h");
  std::vector<std::string> fwgenArgs = {
      options.fwgen, "--config", options.configFile, "--ld", ldScript,
      "--header",    header};
  for (const std::string &o : options.configOverrides) {
    fwgenArgs.push_back("--set");
    fwgenArgs.push_back(o);
  }
  if (runTool(options.fwgen, fwgenArgs) != 0) {
    error = "npu_fwgen failed for " + options.configFile;
    return failure();
  }
  // Every planned data section at its planned address (AT: a segment of its
  // own, so the loader writes exactly these bytes); lld refuses overlaps.
  const std::string planScript = joinPath(options.outDir, "plan.ld");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(planScript, ec);
    if (ec) {
      error = "cannot write " + planScript + ": " + ec.message();
      return failure();
    }
    os << "/* Generated by npuc: the memory plan's data at its planned "
          "addresses. */\nSECTIONS\n{\n";
    // In address order, each in its level's memory region (lld would
    // otherwise pick the first region with matching attributes).
    std::vector<PlannedData> sorted = plan.data;
    std::sort(sorted.begin(), sorted.end(),
              [](const PlannedData &a, const PlannedData &b) {
                return a.address < b.address;
              });
    for (PlannedData &d : sorted) {
      bool skipped = llvm::is_contained(noloadSymbols, d.symbol);
      std::string out = skipped ? ".npu.noinit." + d.symbol : d.section;
      os << llvm::formatv(
          "  {0} {1:x8} {2}: AT({1:x8}) {{ KEEP(*({3})) } >{4}\n", out,
          llvm::format_hex(d.address, 10), skipped ? "(NOLOAD) " : "",
          d.section, d.level == MemLevel::L3 ? "L3" : "CODE");
    }
    os << "}\nINSERT AFTER .l3.data;\n";
  }
  auto hex = [](uint64_t v) {
    return llvm::formatv("{0:x8}", llvm::format_hex(v, 10)).str();
  };
  const std::string elfPath = joinPath(options.outDir, "firmware.elf");
  std::vector<std::string> ldArgs = {
      options.lld,
      "-T",
      ldScript,
      "-T",
      planScript,
      "--gc-sections",
      "--discard-locals",
      "-Map=" + joinPath(options.outDir, "firmware.map"),
      "-o",
      elfPath,
      options.crt0,
      options.mainObj,
      objPath,
      options.npurtLib,
      options.runtimeLib,
      "--start-group",
      options.libc,
      options.libgcc,
      "--end-group"};
  if (l2PlanStart)
    ldArgs.push_back("--defsym=__npu_plan_l2_start=" + hex(l2PlanStart));
  for (const auto &[symbol, address] : plan.symbols)
    ldArgs.push_back("--defsym=" + symbol + "=" + hex(address));
  std::string lldErrors;
  if (runTool(options.lld, ldArgs, &lldErrors) != 0) {
    // The link script's ASSERT when code and data run into the memory plan
    // at the top of L2 (or past L2's end): said once, with where the plan
    // starts, instead of lld's repeated assertion and the section overlaps
    // it causes.
    if (llvm::StringRef(lldErrors).contains(
            "does not fit in firmware.code_region")) {
      error = l2PlanStart
                  ? llvm::formatv(
                        "the program's code and data do not fit in L2 below "
                        "npuc's memory plan, which starts at {0:x8} "
                        "(weights, activations and staging buffers up to "
                        "L2's end): give L2 more room (l2.size) or place the "
                        "weights in L3 (--default-mem-level=L3); lld: the "
                        "program does not fit in firmware.code_region",
                        llvm::format_hex(l2PlanStart, 10))
                        .str()
                  : std::string("the program's code and data do not fit in "
                                "L2 (firmware.code_region): give L2 more room "
                                "(l2.size)");
      return failure();
    }
    llvm::errs() << lldErrors;
    error = "linking " + elfPath + " failed";
    return failure();
  }
  if (!lldErrors.empty())
    llvm::errs() << lldErrors;  // warnings
  return success();
}

LogicalResult mlir::npu::runGolden(ModuleOp original, uint64_t bytes,
                                   const std::string &path, std::string &error,
                                   llvm::StringRef inputData) {
  PassManager pm(original.getContext());
  if (!configure(pm)) {
    error = "bad pass manager options";
    return failure();
  }
  buildHostPipeline(pm, inputData);
  if (failed(pm.run(original))) {
    error = "the host lowering failed";
    return failure();
  }
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = makeOptimizingTransformer(2, 0, nullptr);
  const llvm::StringRef runtimeLibs[] = {NPU_MLIR_C_RUNNER_UTILS};
  engineOptions.sharedLibPaths = runtimeLibs;
  auto engine = ExecutionEngine::create(original, engineOptions);
  if (!engine) {
    error = "cannot create the ExecutionEngine: " +
            llvm::toString(engine.takeError());
    return failure();
  }
  if (llvm::Error e = (*engine)->invokePacked("npu_network_run")) {
    error = "running npu_network_run failed: " + llvm::toString(std::move(e));
    return failure();
  }
  auto out = (*engine)->lookup("npu_output");
  if (!out) {
    error = "npu_output not found: " + llvm::toString(out.takeError());
    return failure();
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write " + path + ": " + ec.message();
    return failure();
  }
  os.write(static_cast<const char *>(*out), bytes);
  return success();
}

LogicalResult mlir::npu::writeManifest(const DriverOptions &options,
                                       ManifestInfo &info,
                                       const std::string &path,
                                       std::string &error) {
  auto tensorJson = [](const TensorInfo &t, uint64_t address) {
    llvm::json::Array shape;
    for (int64_t d : t.type.getShape())
      shape.push_back(d);
    return llvm::json::Object{
        {"name", t.name},
        {"shape", std::move(shape)},
        // An i1 mask (a checkpoint) is one byte per element, 0 or 1, on
        // the host and the device alike.
        {"element_type", t.type.getElementType().isInteger(1)
                             ? std::string("i8")
                             : typeString(t.type.getElementType())},
        {"address", static_cast<int64_t>(address)},
        {"bytes", static_cast<int64_t>(t.bytes)}};
  };
  llvm::json::Array inJson, outJson;
  for (auto [i, t] : llvm::enumerate(info.inputs)) {
    llvm::json::Object o = tensorJson(t, info.scheduled.inputAddress[i]);
    o["file_offset"] = static_cast<int64_t>(t.offset);
    inJson.push_back(std::move(o));
  }
  for (auto [i, t] : llvm::enumerate(info.outputs)) {
    llvm::json::Object o = tensorJson(t, info.scheduled.outputAddress[i]);
    o["golden_offset"] = static_cast<int64_t>(t.offset);
    outJson.push_back(std::move(o));
  }
  llvm::json::Array checkpointJson;
  for (auto [i, t] : llvm::enumerate(info.checkpoints)) {
    const auto &[region, occurrence] = info.scheduled.checkpointRegion[i];
    if (region.empty() || !info.plan.checkpointAddress[i])
      continue; // its op was scheduled without a region (none today)
    llvm::json::Object o = tensorJson(t, info.plan.checkpointAddress[i]);
    o["name"] =
        occurrence > 1 ? region + "#" + std::to_string(occurrence) : region;
    o["region"] = region;
    o["occurrence"] = occurrence;
    o["golden_offset"] = static_cast<int64_t>(t.offset);
    o["location"] = info.plan.checkpointLocation[i];
    checkpointJson.push_back(std::move(o));
  }
  llvm::json::Array layerJson;
  for (const auto &[region, macs] : info.scheduled.regionMacs) {
    llvm::json::Object layer{{"region", region}, {"macs", macs}};
    auto tiles = info.scheduled.regionTiles.find(region);
    if (tiles != info.scheduled.regionTiles.end())
      layer["tiles"] = tiles->second;
    layerJson.push_back(std::move(layer));
  }
  llvm::json::Array overridesJson;
  for (const std::string &o : options.configOverrides)
    overridesJson.push_back(o);
  char fp[32];
  std::snprintf(fp, sizeof fp, "0x%016llx",
                static_cast<unsigned long long>(info.configFingerprint));
  llvm::SmallString<256> absConfig(options.configFile);
  llvm::sys::fs::make_absolute(absConfig);
  llvm::json::Object manifest{
      {"format", "npuc-manifest/1"},
      {"network", info.network},
      {"source", options.inputFile},
      {"config", std::string(absConfig)},
      {"config_overrides", std::move(overridesJson)},
      {"config_fingerprint", fp},
      {"default_mem_level", options.defaultMemLevel},
      {"activation_mem_level", options.activationMemLevel},
      {"inject_fault", options.injectFault.empty()
                           ? llvm::json::Value(nullptr)
                           : llvm::json::Value(options.injectFault)},
      {"firmware", "firmware.elf"},
      {"input_file", "input.bin"},
      {"golden_file", options.golden ? llvm::json::Value("golden.bin")
                                     : llvm::json::Value(nullptr)},
      {"tolerance",
       llvm::json::Object{{"f32", llvm::json::Object{{"atol", kF32Atol},
                                                     {"rtol", kF32Rtol}}}}},
      {"input_pattern", "element i of input k: integers ((37*i + 11*k + 13) "
                        "mod 256) - 128; f32 ((7*i + 3*k + 3) mod 17 - 8) / 8"},
      {"inputs", std::move(inJson)},
      {"outputs", std::move(outJson)},
      {"checkpoints", std::move(checkpointJson)},
      {"layers", std::move(layerJson)},
      {"memory_plan",
       llvm::json::Object{{"enforced_by_codegen", true},
                          {"peak_bytes", std::move(info.plan.peakBytes)},
                          {"tensors", std::move(info.plan.tensors)}}}};
  if (info.training.kind() != llvm::json::Value::Null)
    manifest["training"] = std::move(info.training);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    error = "cannot write manifest.json: " + ec.message();
    return failure();
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return success();
}

// A training step's tensors by what they hold: step<s>.data/.labels in,
// loss.step<s> and layer<k>.weight/.bias out (npusim's loss check keys on
// the loss.* names).
static void nameTrainingTensors(ModuleOp module, ManifestInfo &info) {
  auto training = NpuDialect::TrainingAttrHelper(module.getContext())
                      .getAttr(module.getOperation());
  if (!training)
    return;
  auto names = training.getAs<ArrayAttr>("outputs");
  for (auto [t, name] : llvm::zip(info.outputs, names.getValue()))
    t.name = cast<StringAttr>(name).str();
  int64_t dataInputs = training.getAs<IntegerAttr>("data_inputs").getInt();
  info.training = llvm::json::Object{
      {"steps", training.getAs<IntegerAttr>("steps").getInt()},
      {"batch", training.getAs<IntegerAttr>("batch").getInt()},
      {"lr", training.getAs<FloatAttr>("lr").getValueAsDouble()},
      {"loss", training.getAs<StringAttr>("loss").str()},
      {"classes", training.getAs<IntegerAttr>("classes").getInt()},
      {"data_inputs_per_step", dataInputs}};
  for (auto [k, t] : llvm::enumerate(info.inputs))
    t.name = "step" + std::to_string(k / dataInputs) +
             (k % dataInputs ? ".labels" : ".data");
}

int mlir::npu::compileNetwork(const DriverOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  DialectRegistry registry;
  registry.insert<affine::AffineDialect, arith::ArithDialect,
                  bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, NpuDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  registerNpuBufferizationModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the source location; no dump of the whole module.
  context.printOpOnDiagnostic(false);

  // The config is checked first so a bad path is one clear error, before
  // the network is read; -npu-attach-target puts it on the module.
  try {
    ::npu::cfg::config::load(options.configFile, options.configOverrides);
  } catch (const std::exception &e) {
    return fail(std::string("cannot read the platform config: ") + e.what());
  }

  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  // A diagnostic at the module itself (the file's line 0: about a
  // command-line option, --tile, --input) names the file alone: it read
  // "net.mlir:0:0: error: --tile ...", a position that is none.
  ScopedDiagnosticHandler optionDiagnostics(&context, [&](Diagnostic &diag) {
    auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
    if (!loc || loc.getLine() != 0)
      return failure();
    static const char *kinds[] = {"note", "warning", "error", "remark"};
    llvm::errs() << loc.getFilename().getValue() << ": "
                 << kinds[static_cast<int>(diag.getSeverity())] << ": "
                 << diag.str() << "\n";
    for (const Diagnostic &note : diag.getNotes())
      llvm::errs() << loc.getFilename().getValue() << ": note: " << note.str()
                   << "\n";
    return success();
  });
  std::string error;
  OwningOpRef<ModuleOp> module;
  // An imported model has no source text to quote: diagnostics name the
  // model and the ONNX node(s) an op came from (the importer's NameLocs).
  std::optional<ScopedDiagnosticHandler> onnxDiagnostics;
  if (isOnnxFile(options.inputFile)) {
    onnxDiagnostics.emplace(&context, [&](Diagnostic &diag) {
      printOnnxDiagnostic(options.inputFile, diag);
      for (const Diagnostic &note : diag.getNotes())
        printOnnxDiagnostic(options.inputFile, note);
      return success();
    });
    OnnxImportOptions onnxOptions;
    onnxOptions.inputShapes = options.inputShapes;
    module = importOnnxFile(options.inputFile, &context, onnxOptions);
    if (!module)
      return 1;
    // An importer bug (an op built with mismatched types) stops here, with
    // one message, instead of in a later pass.
    if (failed(verify(*module)))
      return fail("internal error: the imported network does not verify");
  } else {
    if (!options.inputShapes.empty())
      return fail("--input-shape applies to ONNX models (.onnx)");
    auto file = openInputFile(options.inputFile, &error);
    if (!file)
      return fail(error);
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    // parseMlirInput rejects the inputs known to crash MLIR 19's parser; a
    // crash it does not know of still ends as one message and exit 70 (an
    // internal error, docs/robustness.md), not a SIGSEGV. Parsing runs on
    // this thread (the CrashRecoveryContext covers only its own thread).
    llvm::CrashRecoveryContext::Enable();
    llvm::CrashRecoveryContext crashGuard;
    if (!crashGuard.RunSafely(
            [&] { module = parseMlirInput(sourceMgr, &context); })) {
      llvm::errs() << "npuc: internal error: MLIR's parser crashed reading "
                   << options.inputFile
                   << " (a defect of MLIR 19 this input triggers; please "
                      "report the input)\n";
      llvm::errs().flush();
      // The context may hold the crashed parser's half-built state: no
      // destructors run.
      std::_Exit(70);
    }
    llvm::CrashRecoveryContext::Disable();
    if (!module)
      return 1;
  }
  if (options.emitImported) {
    module->print(llvm::outs());
    return 0;
  }
  if (options.train) {
    // The training module replaces the network: everything after (plan,
    // golden, manifest) sees the training step as the network.
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    NpuDeriveTrainingOptions train;
    train.steps = options.trainSteps;
    train.batch = options.trainBatch;
    train.lr = options.trainLr;
    pm.addPass(createNpuDeriveTraining(train));
    if (failed(pm.run(*module)))
      return 1;
  }
  FailureOr<func::FuncOp> net = findNetwork(*module);
  if (failed(net))
    return 1;
  if (!*net)
    return fail("no func.func with a body in " + options.inputFile);
  ManifestInfo info;
  info.network = net->getSymName().str();
  uint64_t inBytes = 0, outBytes = 0;
  if (failed(
          collectInterface(*net, info.inputs, info.outputs, inBytes, outBytes)))
    return 1;
  if (info.outputs.empty())
    return fail("the network function has no result");
  nameTrainingTensors(*module, info);
  // Read now: npu-strip-attributes drops npu.training before input.bin.
  std::vector<int64_t> inputClasses;
  for (unsigned k = 0; k < info.inputs.size(); ++k)
    inputClasses.push_back(labelClasses(*module, k));

  // The pipeline, with what the later phases need read between its phases.
  NpuPipelineOptions pipelineOptions;
  pipelineOptions.configPath = options.configFile;
  pipelineOptions.configOverrides = options.configOverrides;
  pipelineOptions.defaultMemLevel = options.defaultMemLevel;
  pipelineOptions.activationMemLevel = options.activationMemLevel;
  pipelineOptions.injectFault = options.injectFault;
  pipelineOptions.tilePins = options.tilePins;
  pipelineOptions.fuseMatmul = options.fuseMatmul;
  pipelineOptions.inputFile = options.inputData;
  // golden.bin: the outputs, then the checkpoints, each 16-byte aligned.
  uint64_t goldenBytes = outBytes;
  OwningOpRef<ModuleOp> original;
  std::vector<std::string> noloadSymbols;
  // A training step's trainable weights (their planned addresses).
  std::set<uint64_t> trainableAddresses;
  PipelineHooks hooks;
  hooks.afterPhase = [&](Phase phase, OpPassManager &pm) {
    switch (phase) {
    case Phase::Verify:
      // The golden reference runs the tagged input network, not the
      // planned one.
      pm.addPass(createCallbackPass([&](ModuleOp m) {
        info.checkpoints = collectCheckpoints(*findNetwork(m), goldenBytes);
        info.configFingerprint = TargetAttr::lookup(m).getFingerprint();
        original = m.clone();
        return success();
      }));
      break;
    case Phase::Plan:
      pm.addPass(createCallbackPass([&](ModuleOp m) {
        info.plan = collectPlan(*findNetwork(m), m, info.checkpoints.size());
        m.walk([&](Operation *op) {
          if (NpuDialect::TrainableAttrHelper(m.getContext()).isAttrPresent(op))
            if (auto p = op->getAttrOfType<PlacementAttr>(kPlacementAttrName))
              trainableAddresses.insert(p.getAddress());
        });
        return success();
      }));
      break;
    case Phase::Schedule:
      pm.addPass(createCallbackPass([&](ModuleOp m) {
        info.scheduled = collectScheduledPlan(m, info.checkpoints.size());
        if (info.scheduled.staging) {
          info.plan.tensors.push_back(std::move(*info.scheduled.staging));
          if (info.scheduled.stagingAddress < info.plan.l2PlanStart)
            info.plan.l2PlanStart = info.scheduled.stagingAddress;
        }
        if (options.injectFault != "skip-weight-load")
          return success();
        // An L2 weight buffer that is never loaded: its section becomes
        // NOLOAD (and `noinit`, which npusim's loader leaves unwritten), so
        // the first read of it is a memcheck finding. In a training step,
        // every trainable weight in L2 (the report's bug: none was loaded).
        for (PlannedData &d : info.scheduled.data) {
          if (d.level != MemLevel::L2 ||
              !llvm::StringRef(d.symbol).starts_with("npu_weight_"))
            continue;
          if (trainableAddresses.empty()) {
            noloadSymbols.push_back(d.symbol);
            return success();
          }
          if (trainableAddresses.count(d.address))
            noloadSymbols.push_back(d.symbol);
        }
        if (!noloadSymbols.empty())
          return success();
        fail("--inject-fault=skip-weight-load needs a weight in L2 (use "
             "--default-mem-level=L2)");
        return failure();
      }));
      break;
    default:
      break;
    }
  };
  {
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    buildNpuPipeline(pm, pipelineOptions, Phase::Verify, options.to, hooks);
    if (failed(pm.run(*module)))
      return 1;
  }
  if (options.to <= kLastMLIRPhase) {
    module->print(llvm::outs());
    return 0;
  }

  // --- llvm-ir --------------------------------------------------------------------------
  std::unique_ptr<llvm::TargetMachine> tm =
      makeTargetMachine(error, options.march);
  if (!tm)
    return fail("cannot create the riscv32 target machine: " + error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      emitLLVMIR(*module, llvmContext, *tm, info.scheduled, options.optLevel,
                 info.network, error);
  if (!llvmModule)
    return fail(error);
  if (options.to == Phase::LLVMIR) {
    llvmModule->print(llvm::outs(), nullptr);
    return 0;
  }

  // --- obj ------------------------------------------------------------------------------
  if (std::error_code ec = llvm::sys::fs::create_directories(options.outDir))
    return fail("cannot create " + options.outDir + ": " + ec.message());
  const std::string objPath = joinPath(options.outDir, "network.o");
  if (failed(emitObject(*llvmModule, *tm, objPath, error)))
    return fail(error);
  if (options.to == Phase::Object)
    return 0;

  // --- elf: link, golden reference, manifest ---------------------------------------------
  if (failed(linkFirmware(options, info.scheduled, info.plan.l2PlanStart,
                          objPath, noloadSymbols, error)))
    return fail(error);
  if (options.golden && failed(runGolden(*original, goldenBytes,
                                         joinPath(options.outDir, "golden.bin"),
                                         error, options.inputData)))
    return fail("golden reference: " + error);
  if (failed(writeManifest(options, info,
                           joinPath(options.outDir, "manifest.json"), error)))
    return fail(error);
  std::vector<uint8_t> inData;
  for (auto [k, t] : llvm::enumerate(info.inputs)) {
    inData.resize(t.offset, 0);
    FailureOr<std::vector<uint8_t>> bytes =
        networkInput(t.type, k, options.inputData, error, inputClasses[k]);
    if (failed(bytes))
      return fail(error);
    inData.insert(inData.end(), bytes->begin(), bytes->end());
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream in(joinPath(options.outDir, "input.bin"), ec);
    if (ec)
      return fail("cannot write input.bin: " + ec.message());
    in.write(reinterpret_cast<const char *>(inData.data()), inData.size());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  llvm::outs() << "npuc: " << info.network << " -> "
               << joinPath(options.outDir, "firmware.elf") << " ("
               << llvm::format("%.2f", seconds) << " s)\n";
  return 0;
}
