// npuc: network (.mlir) -> firmware.elf + manifest.json for npusim.
//
// verify -> memory plan (L2/L3, addresses) -> materialize the plan (every
// buffer a global at its planned address) -> one-shot bufferization (in
// place, no allocation) -> schedule (SA tiles through npurt_matmul, workers
// for elementwise ops, DMA staging of L3 weights) -> LLVM dialect -> LLVM IR
// -> RV32IMAF object (in-process TargetMachine) -> ld.lld with crt0,
// npuc_main.o, libnpurt.a, the firmware runtime, picolibc and libgcc,
// through npu_fwgen's linker script plus plan.ld, which puts every planned
// data section at its address. The original module also runs on the host
// (ExecutionEngine) for golden.bin. See docs/compiler.md.
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
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
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

extern "C" {
void LLVMInitializeRISCVTargetInfo();
void LLVMInitializeRISCVTarget();
void LLVMInitializeRISCVTargetMC();
void LLVMInitializeRISCVAsmPrinter();
}

using namespace mlir;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory cat("npuc options");
cl::opt<std::string> inputFile(cl::Positional, cl::desc("<network.mlir>"),
                               cl::Required, cl::cat(cat));
cl::opt<std::string> outDir("o", cl::desc("output directory (firmware.elf, manifest.json, ...)"),
                            cl::value_desc("dir"), cl::init("npuc-out"), cl::cat(cat));
cl::opt<std::string> configFile("config", cl::desc("platform config (INI)"),
                                cl::init(NPUC_DEFAULT_CONFIG), cl::cat(cat));
cl::opt<std::string> defaultMemLevel("default-mem-level", cl::desc("L2 or L3: where weights go (memory plan)"),
                                     cl::init("L2"), cl::cat(cat));
cl::opt<std::string> activationMemLevel("activation-mem-level",
                                        cl::desc("L2 or L3: inputs, activations, outputs (memory plan; L3 ones are "
                                                 "computed in L2 and moved by DMA)"),
                                        cl::init("L2"), cl::cat(cat));
cl::opt<std::string> emit("emit",
                          cl::desc("last stage: plan | bufferized | tiled | schedule | llvm-dialect | llvm-ir | obj | elf "
                                   "(the MLIR/LLVM IR stages are printed on stdout)"),
                          cl::init("elf"), cl::cat(cat));
cl::opt<unsigned> optLevel("opt", cl::desc("LLVM IR optimisation level 0-3 (default 2); codegen runs at -O2"),
                           cl::init(2), cl::cat(cat));
cl::opt<bool> golden("golden",
                     cl::desc("run the original network on the host (ExecutionEngine) and write golden.bin"),
                     cl::init(true), cl::cat(cat));
cl::list<std::string> configSets("set", cl::desc("config override key=value (as npusim --key=value); repeatable"),
                                  cl::value_desc("key=value"), cl::cat(cat));
cl::opt<std::string> injectFault("inject-fault",
                                 cl::desc("teaching/test aid, a known-wrong firmware: skip-weight-load | l3-as-l2 | "
                                          "unchecked-l1-alloc (docs/compiler.md)"),
                                 cl::init(""), cl::cat(cat));
cl::opt<std::string> npurtLib("npurt-lib", cl::desc("libnpurt.a (runtime kernels)"), cl::init(NPUC_NPURT_LIB),
                              cl::cat(cat));
cl::opt<std::string> fwgenPath("fwgen", cl::desc("npu_fwgen tool"), cl::init(NPUC_FWGEN), cl::cat(cat));
cl::opt<std::string> lldPath("ld", cl::desc("ld.lld"), cl::init(NPUC_LLD), cl::cat(cat));
cl::opt<std::string> crt0Path("crt0", cl::desc("crt0 object"), cl::init(NPUC_CRT0), cl::cat(cat));
cl::opt<std::string> runtimeLib("runtime-lib", cl::desc("libnpu_runtime.a"), cl::init(NPUC_RUNTIME_LIB),
                                cl::cat(cat));
cl::opt<std::string> mainObj("main-obj", cl::desc("npuc_main.o"), cl::init(NPUC_MAIN_OBJ), cl::cat(cat));
cl::opt<std::string> libcPath("libc", cl::desc("picolibc libc.a"), cl::init(NPUC_LIBC), cl::cat(cat));
cl::opt<std::string> libgccPath("libgcc", cl::desc("libgcc.a"), cl::init(NPUC_LIBGCC), cl::cat(cat));

int fail(const llvm::Twine &msg) {
  llvm::errs() << "npuc: error: " << msg << "\n";
  return 1;
}

struct TensorInfo {
  std::string name;
  RankedTensorType type;
  uint64_t offset = 0; // byte offset inside npu_input / npu_output
  uint64_t bytes = 0;
};

// f32 outputs: |device - golden| <= atol + rtol * |golden|. The SA fuses
// each multiply-add (one rounding) where the host's upstream lowering rounds
// twice, and tiling keeps k ascending: differences are a few ulps per
// accumulation step (docs/compiler.md).
constexpr double kF32Atol = 1e-4, kF32Rtol = 1e-4;

uint64_t elementBytes(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::string locString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
        .str();
  return "";
}

// Deterministic input pattern, documented in docs/compiler.md: element i
// of input k is ((37*i + 11*k + 13) mod 256) - 128 for integers (the whole
// int8 range), ((7*i + 3*k + 3) mod 17 - 8) / 8 for f32.
std::vector<uint8_t> inputBytes(const TensorInfo &t, unsigned k) {
  std::vector<uint8_t> out;
  Type et = t.type.getElementType();
  int64_t n = t.type.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t raw;
    unsigned width = et.getIntOrFloatBitWidth();
    if (isa<FloatType>(et)) {
      float f = static_cast<float>((7 * i + 3 * k + 3) % 17 - 8) / 8.0f;
      uint32_t u;
      std::memcpy(&u, &f, 4);
      raw = u;
    } else {
      raw = static_cast<uint64_t>((37 * i + 11 * k + 13) % 256 - 128);
    }
    for (unsigned b = 0; b < (width + 7) / 8; ++b)
      out.push_back(static_cast<uint8_t>(raw >> (8 * b)));
  }
  return out;
}

// `pipeline` is the body of a builtin.module(...) pipeline.
// MLIR's own --mlir-print-ir-after(-all), --mlir-timing, ... apply to every
// pass manager npuc runs.
bool configure(PassManager &pm) { return succeeded(applyPassManagerCLOptions(pm)); }

bool runPipeline(ModuleOp module, llvm::StringRef pipeline) {
  PassManager pm(module.getContext());
  if (!configure(pm) || failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return false;
  return succeeded(pm.run(module));
}

const char *kBufferize = "empty-tensor-to-alloc-tensor,one-shot-bufferize{"
                         "bufferize-function-boundaries "
                         "function-boundary-type-conversion=identity-layout-map}";

std::string lowerToLLVM(unsigned indexBits) {
  const std::string ib = "{index-bitwidth=" + std::to_string(indexBits) + "}";
  return "func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,"
         "expand-strided-metadata,lower-affine,finalize-memref-to-llvm" + ib +
         ",convert-arith-to-llvm" + ib + ",convert-math-to-llvm,convert-func-to-llvm" + ib +
         ",convert-cf-to-llvm" + ib + ",reconcile-unrealized-casts";
}

// Adds the global buffers and `npu_network_run()` around the bufferized network.
void buildEntry(ModuleOp module, func::FuncOp net, const std::vector<TensorInfo> &inputs,
                const std::vector<TensorInfo> &outputs, uint64_t inBytes, uint64_t outBytes,
                const std::vector<uint8_t> &inData) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = net.getLoc();
  b.setInsertionPointToStart(module.getBody());
  auto i8 = b.getI8Type();
  auto i32 = b.getI32Type();
  auto inType = MemRefType::get({static_cast<int64_t>(std::max<uint64_t>(inBytes, 1))}, i8);
  auto outType = MemRefType::get({static_cast<int64_t>(std::max<uint64_t>(outBytes, 1))}, i8);
  auto scalarType = MemRefType::get({}, i32);
  std::vector<int8_t> inValues(inData.begin(), inData.end());
  inValues.resize(inType.getNumElements(), 0);
  auto inInit = DenseElementsAttr::get(RankedTensorType::get(inType.getShape(), i8),
                                       llvm::ArrayRef<int8_t>(inValues));
  b.create<memref::GlobalOp>(loc, "npu_input", b.getStringAttr("public"), inType, inInit,
                             /*constant=*/false, b.getI64IntegerAttr(64));
  b.create<memref::GlobalOp>(loc, "npu_output", b.getStringAttr("public"), outType,
                             b.getUnitAttr(), /*constant=*/false, b.getI64IntegerAttr(64));
  auto sizeInit = [&](uint64_t v) {
    return DenseElementsAttr::get(RankedTensorType::get({}, i32),
                                  llvm::ArrayRef<int32_t>(static_cast<int32_t>(v)));
  };
  b.create<memref::GlobalOp>(loc, "npu_output_size", b.getStringAttr("public"), scalarType,
                             sizeInit(outBytes), /*constant=*/true, IntegerAttr());
  b.create<memref::GlobalOp>(loc, "npu_input_size", b.getStringAttr("public"), scalarType,
                             sizeInit(inBytes), /*constant=*/true, IntegerAttr());

  b.setInsertionPointToEnd(module.getBody());
  auto run = b.create<func::FuncOp>(loc, "npu_network_run", b.getFunctionType({}, {}));
  Block *body = run.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value inBuf = b.create<memref::GetGlobalOp>(loc, inType, "npu_input");
  Value outBuf = b.create<memref::GetGlobalOp>(loc, outType, "npu_output");
  std::vector<Value> args;
  for (const TensorInfo &t : inputs) {
    Value off = b.create<arith::ConstantIndexOp>(loc, t.offset);
    auto type = MemRefType::get(t.type.getShape(), t.type.getElementType());
    args.push_back(b.create<memref::ViewOp>(loc, type, inBuf, off, ValueRange{}));
  }
  auto call = b.create<func::CallOp>(loc, net, args);
  for (auto [t, result] : llvm::zip(outputs, call.getResults())) {
    Value off = b.create<arith::ConstantIndexOp>(loc, t.offset);
    auto type = MemRefType::get(t.type.getShape(), t.type.getElementType());
    Value view = b.create<memref::ViewOp>(loc, type, outBuf, off, ValueRange{});
    b.create<memref::CopyOp>(loc, result, view);
  }
  b.create<func::ReturnOp>(loc);
}

// Bufferizes and lowers `module` (the unplanned input) for the host with the
// same C entry, runs npu_network_run() through MLIR's ExecutionEngine and
// writes the bytes of npu_output to `path`. Returns an error message or "".
std::string runGolden(ModuleOp module, const std::string &netName,
                      const std::vector<TensorInfo> &inputs, const std::vector<TensorInfo> &outputs,
                      uint64_t inBytes, uint64_t outBytes, const std::vector<uint8_t> &inData,
                      const std::string &path) {
  if (!runPipeline(module, kBufferize))
    return "bufferization failed";
  auto net = module.lookupSymbol<func::FuncOp>(netName);
  buildEntry(module, net, inputs, outputs, inBytes, outBytes, inData);
  if (!runPipeline(module, lowerToLLVM(64)))
    return "lowering to the LLVM dialect failed";
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  ExecutionEngineOptions options;
  options.transformer = makeOptimizingTransformer(2, 0, nullptr);
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return "cannot create the ExecutionEngine: " + llvm::toString(engine.takeError());
  if (llvm::Error e = (*engine)->invokePacked("npu_network_run"))
    return "running npu_network_run failed: " + llvm::toString(std::move(e));
  auto out = (*engine)->lookup("npu_output");
  if (!out)
    return "npu_output not found: " + llvm::toString(out.takeError());
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return "cannot write " + path + ": " + ec.message();
  os.write(static_cast<const char *>(*out), outBytes);
  return "";
}

std::unique_ptr<llvm::TargetMachine> makeTargetMachine(std::string &error) {
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmPrinter();
  const std::string triple = "riscv32-unknown-elf";
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions options;
  options.MCOptions.ABIName = "ilp32f";
  options.FunctionSections = true;
  options.DataSections = true;
  return std::unique_ptr<llvm::TargetMachine>(target->createTargetMachine(
      triple, "generic-rv32", "+m,+a,+f", options, llvm::Reloc::Static, llvm::CodeModel::Small,
      llvm::CodeGenOptLevel::Default));
}

int runTool(const std::string &program, llvm::ArrayRef<std::string> argv) {
  std::vector<llvm::StringRef> refs(argv.begin(), argv.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(program, refs, std::nullopt, {}, 0, 0, &error);
  if (!error.empty())
    llvm::errs() << "npuc: " << program << ": " << error << "\n";
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Passes first: --mlir-print-ir-after=<pass> looks them up while parsing.
  registerTransformsPasses();
  registerConversionPasses();
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  mlir::npu::registerNpuPasses();
  registerPassManagerCLOptions();
  cl::HideUnrelatedOptions(cat);
  cl::ParseCommandLineOptions(argc, argv, "npuc: network (.mlir) -> npusim firmware\n");
  const auto start = std::chrono::steady_clock::now();

  const std::vector<std::string> stages = {"plan",         "bufferized", "tiled", "schedule",
                                            "llvm-dialect", "llvm-ir",    "obj",   "elf"};
  auto stageIndex = std::find(stages.begin(), stages.end(), emit.getValue()) - stages.begin();
  if (stageIndex == static_cast<long>(stages.size()))
    return fail("unknown --emit=" + emit + " (plan, bufferized, tiled, schedule, llvm-dialect, llvm-ir, obj, elf)");
  if (!injectFault.empty() && injectFault != "skip-weight-load" && injectFault != "l3-as-l2" &&
      injectFault != "unchecked-l1-alloc")
    return fail("unknown --inject-fault=" + injectFault + " (skip-weight-load, l3-as-l2, unchecked-l1-alloc)");
  if (defaultMemLevel != "L2" && defaultMemLevel != "L3")
    return fail("--default-mem-level must be L2 or L3, not '" + defaultMemLevel + "'");
  if (activationMemLevel != "L2" && activationMemLevel != "L3")
    return fail("--activation-mem-level must be L2 or L3, not '" + activationMemLevel + "'");

  DialectRegistry registry;
  registry.insert<affine::AffineDialect, arith::ArithDialect, bufferization::BufferizationDialect,
                  cf::ControlFlowDialect, func::FuncDialect, linalg::LinalgDialect,
                  LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, mlir::npu::NpuDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Diagnostics point at the source location; no dump of the whole module.
  context.printOpOnDiagnostic(false);

  // The config is read first so a bad path is one clear error.
  std::optional<::npu::cfg::config> cfg;
  try {
    cfg = ::npu::cfg::config::load(configFile, std::vector<std::string>(configSets.begin(), configSets.end()));
  } catch (const std::exception &e) {
    return fail(std::string("cannot read the platform config: ") + e.what());
  }

  // --- parse -------------------------------------------------------------------------
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  func::FuncOp net;
  for (auto f : module->getOps<func::FuncOp>()) {
    if (f.isExternal())
      continue;
    if (net) {
      f.emitError("npuc compiles one network function per module; found a second one");
      return 1;
    }
    net = f;
  }
  if (!net)
    return fail("no func.func with a body in " + inputFile);
  std::vector<TensorInfo> inputs, outputs;
  uint64_t inBytes = 0, outBytes = 0;
  auto collect = [&](llvm::ArrayRef<Type> types, const char *prefix, std::vector<TensorInfo> &into,
                     uint64_t &total) {
    for (auto [i, t] : llvm::enumerate(types)) {
      auto rt = dyn_cast<RankedTensorType>(t);
      if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat()) {
        net.emitError("npuc needs statically shaped tensor arguments and results, got ") << t;
        return false;
      }
      TensorInfo info{(llvm::Twine(prefix) + llvm::Twine(i)).str(), rt, 0, 0};
      info.bytes = rt.getNumElements() * elementBytes(rt.getElementType());
      total = llvm::alignTo(total, 16);
      info.offset = total;
      total += info.bytes;
      into.push_back(info);
    }
    return true;
  };
  if (!collect(net.getArgumentTypes(), "input", inputs, inBytes) ||
      !collect(net.getResultTypes(), "output", outputs, outBytes))
    return 1;
  if (outputs.empty())
    return fail("the network function has no result");
  const std::string netName = net.getSymName().str();
  // Per-layer checkpoints (BUG-CLASSES 6: errors per layer, not only per
  // output): every linalg result another op reads (not just as the buffer
  // it accumulates into) and that is not an output. Tagged before the golden
  // clone, so the host computes them too; npusim reads each on the device
  // when the region of its op ends.
  std::vector<TensorInfo> checkpoints;
  {
    Builder b(&context);
    net.walk([&](linalg::LinalgOp op) {
      if (isa<linalg::FillOp>(op) || op->getNumResults() != 1)
        return;
      Value r = op->getResult(0);
      auto rt = dyn_cast<RankedTensorType>(r.getType());
      if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat())
        return;
      bool read = false, output = false;
      for (OpOperand &use : r.getUses()) {
        auto dps = dyn_cast<DestinationStyleOpInterface>(use.getOwner());
        if (isa<func::ReturnOp>(use.getOwner()))
          output = true;
        else if (!(dps && dps.isDpsInit(&use)))
          read = true;
      }
      if (!read || output)
        return;
      op->setAttr("npu.checkpoint", b.getI64IntegerAttr(checkpoints.size()));
      checkpoints.push_back(TensorInfo{"", rt, 0, rt.getNumElements() * elementBytes(rt.getElementType())});
    });
  }
  // golden.bin: the outputs, then the checkpoints, each 16-byte aligned.
  uint64_t goldenBytes = outBytes;
  for (TensorInfo &t : checkpoints) {
    goldenBytes = llvm::alignTo(goldenBytes, 16);
    t.offset = goldenBytes;
    goldenBytes += t.bytes;
  }
  // The golden reference runs the original module, not the planned one,
  // returning the checkpoints after the outputs.
  OwningOpRef<ModuleOp> original = module->clone();
  if (!checkpoints.empty()) {
    auto gnet = original->lookupSymbol<func::FuncOp>(netName);
    SmallVector<Value> extra(checkpoints.size());
    gnet.walk([&](Operation *op) {
      if (auto id = op->getAttrOfType<IntegerAttr>("npu.checkpoint"))
        extra[id.getInt()] = op->getResult(0);
    });
    auto ret = cast<func::ReturnOp>(gnet.getBody().front().getTerminator());
    SmallVector<Value> values(ret.getOperands());
    values.append(extra.begin(), extra.end());
    OpBuilder b(ret);
    b.create<func::ReturnOp>(ret.getLoc(), values);
    ret.erase();
    gnet.setType(FunctionType::get(&context, gnet.getArgumentTypes(), ValueRange(values).getTypes()));
  }
  std::vector<TensorInfo> goldenTensors = outputs;
  goldenTensors.insert(goldenTensors.end(), checkpoints.begin(), checkpoints.end());

  // --- stage 1+2: verify, memory plan -------------------------------------------------
  std::vector<std::string> overrides(configSets.begin(), configSets.end());
  {
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    pm.addPass(mlir::npu::createNpuVerifySupported());
    mlir::npu::NpuMemoryPlanOptions planOptions;
    planOptions.configPath = configFile;
    planOptions.configOverrides = overrides;
    planOptions.defaultMemLevel = defaultMemLevel;
    planOptions.activationMemLevel = activationMemLevel;
    planOptions.l2FromTop = true;
    pm.addPass(mlir::npu::createNpuMemoryPlan(planOptions));
    if (failed(pm.run(*module)))
      return 1;
  }
  if (stageIndex == 0) {
    module->print(llvm::outs());
    return 0;
  }

  llvm::json::Array planJson;
  uint64_t l2PlanStart = 0;
  auto recordPlacement = [&](Attribute attr, llvm::StringRef kind, llvm::StringRef producer,
                             Type type, Location loc) {
    auto p = dyn_cast_or_null<mlir::npu::PlacementAttr>(attr);
    if (!p)
      return;
    if (p.getLevel() == mlir::npu::MemLevel::L2 && (!l2PlanStart || p.getAddress() < l2PlanStart))
      l2PlanStart = p.getAddress();
    planJson.push_back(llvm::json::Object{{"level", mlir::npu::stringifyMemLevel(p.getLevel()).str()},
                                          {"address", static_cast<int64_t>(p.getAddress())},
                                          {"bytes", static_cast<int64_t>(p.getSize())},
                                          {"kind", kind.str()},
                                          {"type", typeString(type)},
                                          {"produced_by", producer.str()},
                                          {"location", locString(loc)}});
  };
  for (unsigned i = 0; i < net.getNumArguments(); ++i)
    recordPlacement(net.getArgAttr(i, "npu.placement"), "input", "argument", net.getArgumentTypes()[i],
                    net.getArgument(i).getLoc());
  net.walk([&](Operation *op) {
    if (op->getNumResults() != 1 || isa<tensor::EmptyOp>(op))
      return;
    llvm::StringRef kind = isa<arith::ConstantOp>(op) ? "weight"
                           : op->hasAttr("npu.staging") ? "staging"
                                                        : "activation";
    recordPlacement(op->getAttr("npu.placement"), kind, op->getName().getStringRef(),
                    op->getResult(0).getType(), op->getLoc());
  });
  std::vector<uint64_t> checkpointAddress(checkpoints.size(), 0);
  std::vector<std::string> checkpointLocation(checkpoints.size());
  net.walk([&](Operation *op) {
    auto id = op->getAttrOfType<IntegerAttr>("npu.checkpoint");
    auto p = op->getAttrOfType<mlir::npu::PlacementAttr>("npu.placement");
    if (id && p) {
      checkpointAddress[id.getInt()] = p.getAddress();
      checkpointLocation[id.getInt()] = locString(op->getLoc());
    }
  });
  llvm::json::Object usage;
  if (auto u = (*module)->getAttrOfType<DictionaryAttr>("npu.memory_usage"))
    for (auto entry : u)
      if (auto v = dyn_cast<IntegerAttr>(entry.getValue()))
        usage[entry.getName().getValue()] = v.getInt();
  // --- stage 3: bind the plan, bufferize in place -----------------------------------
  {
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    pm.addPass(mlir::npu::createNpuMaterializePlan());
    if (failed(pm.run(*module)))
      return 1;
  }
  std::vector<uint8_t> inData;
  for (auto [k, t] : llvm::enumerate(inputs)) {
    inData.resize(t.offset, 0);
    auto bytes = inputBytes(t, k);
    inData.insert(inData.end(), bytes.begin(), bytes.end());
  }
  std::vector<uint64_t> inAddrs, outAddrs;
  for (Attribute a : (*module)->getAttrOfType<ArrayAttr>("npu.inputs"))
    inAddrs.push_back(cast<mlir::npu::PlacementAttr>(a).getAddress());
  for (Attribute a : (*module)->getAttrOfType<ArrayAttr>("npu.outputs"))
    outAddrs.push_back(cast<mlir::npu::PlacementAttr>(a).getAddress());
  {
    // The inputs are data the linker places at their planned addresses,
    // like the weights.
    OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
    auto i8 = b.getI8Type();
    for (auto [k, t] : llvm::enumerate(inputs)) {
      auto bytes = inputBytes(t, k);
      std::vector<int8_t> values(bytes.begin(), bytes.end());
      auto type = MemRefType::get({static_cast<int64_t>(values.size())}, i8);
      std::string name = "npu_input_" + std::to_string(k);
      auto global = b.create<memref::GlobalOp>(
          net.getLoc(), name, b.getStringAttr("public"), type,
          DenseElementsAttr::get(RankedTensorType::get(type.getShape(), i8), llvm::ArrayRef<int8_t>(values)),
          /*constant=*/true, b.getI64IntegerAttr(64));
      global->setAttr("npu.section", b.getStringAttr(".npu.plan." + name));
      global->setAttr("npu.placement", (*module)->getAttrOfType<ArrayAttr>("npu.inputs")[k]);
    }
  }
  if (!runPipeline(*module, kBufferize))
    return 1;
  {
    bool alloc = false;
    module->walk([&](memref::AllocOp op) {
      op.emitError("bufferization needed a buffer the memory plan does not hold "
                   "(npuc: internal limitation, please report)");
      alloc = true;
    });
    if (alloc)
      return 1;
  }
  if (stageIndex == 1) {
    module->print(llvm::outs());
    return 0;
  }

  // --- stage 4: tiles for the SA and the workers -------------------------------------
  {
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    mlir::npu::NpuTileOptions options;
    options.configPath = configFile;
    options.configOverrides = overrides;
    pm.addPass(mlir::npu::createNpuTile(options));
    if (failed(pm.run(*module)))
      return 1;
  }
  if (stageIndex == 2) {
    module->print(llvm::outs());
    return 0;
  }

  // --- stage 5: schedule: SA calls, workers, DMA staging ------------------------------
  {
    PassManager pm(&context);
    if (!configure(pm))
      return 1;
    mlir::npu::NpuScheduleOptions options;
    options.configPath = configFile;
    options.configOverrides = overrides;
    if (injectFault != "skip-weight-load")
      options.injectFault = injectFault;
    pm.addPass(mlir::npu::createNpuSchedule(options));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    if (failed(pm.run(*module)))
      return 1;
  }
  // Data sections at planned addresses, recorded before the lowering drops
  // the attributes: (symbol, section, address, bytes, level).
  struct PlannedData {
    std::string symbol, section;
    uint64_t address, bytes;
    mlir::npu::MemLevel level;
  };
  std::vector<PlannedData> plannedData;
  // Buffers without data: symbols the linker defines at their addresses.
  std::vector<std::pair<std::string, uint64_t>> plannedSymbols;
  for (auto g : module->getOps<memref::GlobalOp>()) {
    auto section = g->getAttrOfType<StringAttr>("npu.section");
    auto p = g->getAttrOfType<mlir::npu::PlacementAttr>("npu.placement");
    if (section && p)
      plannedData.push_back({g.getSymName().str(), section.str(), p.getAddress(), p.getSize(), p.getLevel()});
    else if (p && g.isExternal())
      plannedSymbols.push_back({g.getSymName().str(), p.getAddress()});
  }
  for (auto g : module->getOps<memref::GlobalOp>())
    if (g.getSymName() == "npu_l2_stage")
      if (auto p = g->getAttrOfType<mlir::npu::PlacementAttr>("npu.placement")) {
        planJson.push_back(llvm::json::Object{{"level", "L2"},
                                              {"address", static_cast<int64_t>(p.getAddress())},
                                              {"bytes", static_cast<int64_t>(p.getSize())},
                                              {"kind", "staging"},
                                              {"type", typeString(g.getType())},
                                              {"produced_by", "npu-schedule (SA panels of L3 weights)"},
                                              {"location", ""}});
        if (p.getAddress() < l2PlanStart)
          l2PlanStart = p.getAddress();
      }
  std::string skippedWeight;
  if (injectFault == "skip-weight-load") {
    // An L2 weight buffer that is never loaded: its section becomes NOLOAD
    // (and `noinit`, which npusim's loader leaves unwritten), so the first
    // read of it is a memcheck finding.
    for (PlannedData &d : plannedData)
      if (d.level == mlir::npu::MemLevel::L2 && llvm::StringRef(d.symbol).starts_with("npu_weight_")) {
        skippedWeight = d.symbol;
        break;
      }
    if (skippedWeight.empty())
      return fail("--inject-fault=skip-weight-load needs a weight in L2 (use --default-mem-level=L2)");
  }
  if (stageIndex == 3) {
    module->print(llvm::outs());
    return 0;
  }
  // Which region end reads each checkpoint: the n-th end of region R.
  std::vector<std::pair<std::string, int64_t>> checkpointRegion(checkpoints.size(), {"", 0});
  {
    std::map<std::string, int64_t> ends;
    auto run = module->lookupSymbol<func::FuncOp>("npu_network_run");
    run.walk([&](func::CallOp call) {
      auto region = call->getAttrOfType<StringAttr>("npu.region");
      if (!region)
        return;
      int64_t n = ++ends[region.str()];
      if (auto id = call->getAttrOfType<IntegerAttr>("npu.checkpoint"))
        checkpointRegion[id.getInt()] = {region.str(), n};
    });
  }
  // The plan lives on in plannedData and the manifest; the lowering and the
  // LLVM IR translation see plain upstream IR.
  module->walk([](Operation *op) {
    llvm::SmallVector<StringAttr> names;
    for (NamedAttribute a : op->getDiscardableAttrs())
      if (a.getName().getValue().starts_with("npu."))
        names.push_back(a.getName());
    for (StringAttr n : names)
      op->removeDiscardableAttr(n);
  });

  // --- stage 6: loops and the LLVM dialect (index = i32 on RV32) ----------------------
  if (!runPipeline(*module, lowerToLLVM(32)))
    return 1;
  if (stageIndex == 4) {
    module->print(llvm::outs());
    return 0;
  }

  // --- stage 7: LLVM IR for riscv32 ------------------------------------------------------
  std::unique_ptr<llvm::TargetMachine> tm = makeTargetMachine(error);
  if (!tm)
    return fail("cannot create the riscv32 target machine: " + error);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(*module, llvmContext, netName);
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  llvmModule->setTargetTriple(tm->getTargetTriple().str());
  llvmModule->setDataLayout(tm->createDataLayout());
  llvmModule->addModuleFlag(llvm::Module::Error, "target-abi", llvm::MDString::get(llvmContext, "ilp32f"));
  {
    std::vector<llvm::GlobalValue *> used;
    for (const PlannedData &d : plannedData) {
      llvm::GlobalVariable *g = llvmModule->getNamedGlobal(d.symbol);
      if (!g)
        return fail("internal error: planned global " + d.symbol + " vanished in the lowering");
      g->setSection(d.section);
      used.push_back(g);
    }
    // Nothing references the data by symbol (code uses the plan's
    // addresses): keep it through the optimiser.
    llvm::appendToUsed(*llvmModule, used);
  }
  if (optLevel > 0) {
    static const llvm::OptimizationLevel levels[] = {
        llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1, llvm::OptimizationLevel::O2,
        llvm::OptimizationLevel::O3};
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(levels[std::min(optLevel.getValue(), 3u)]);
    mpm.run(*llvmModule, mam);
  }
  if (stageIndex == 5) {
    llvmModule->print(llvm::outs(), nullptr);
    return 0;
  }

  // --- stage 8: object file --------------------------------------------------------------
  if (std::error_code ec = llvm::sys::fs::create_directories(outDir))
    return fail("cannot create " + outDir + ": " + ec.message());
  auto outPath = [&](llvm::StringRef name) {
    llvm::SmallString<256> p(outDir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  };
  const std::string objPath = outPath("network.o");
  {
    std::error_code ec;
    llvm::ToolOutputFile obj(objPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail("cannot write " + objPath + ": " + ec.message());
    llvm::legacy::PassManager codegen;
    if (tm->addPassesToEmitFile(codegen, obj.os(), nullptr, llvm::CodeGenFileType::ObjectFile))
      return fail("the riscv32 target cannot emit an object file");
    codegen.run(*llvmModule);
    obj.keep();
  }
  if (stageIndex == 6)
    return 0;

  // --- stage 9: link -------------------------------------------------------------------------
  const std::string ldScript = outPath("npu.ld"), header = outPath("npu_platform.h");
  std::vector<std::string> fwgenArgs = {fwgenPath, "--config", configFile, "--ld", ldScript, "--header", header};
  for (const std::string &o : overrides) {
    fwgenArgs.push_back("--set");
    fwgenArgs.push_back(o);
  }
  if (runTool(fwgenPath, fwgenArgs) != 0)
    return fail("npu_fwgen failed for " + configFile);
  // Every planned data section at its planned address (AT: a segment of its
  // own, so the loader writes exactly these bytes); lld refuses overlaps.
  const std::string planScript = outPath("plan.ld");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(planScript, ec);
    if (ec)
      return fail("cannot write " + planScript + ": " + ec.message());
    os << "/* Generated by npuc: the memory plan's data at its planned addresses. */\nSECTIONS\n{\n";
    // In address order, each in its level's memory region (lld would
    // otherwise pick the first region with matching attributes).
    std::vector<PlannedData> sorted = plannedData;
    std::sort(sorted.begin(), sorted.end(),
              [](const PlannedData &a, const PlannedData &b) { return a.address < b.address; });
    for (PlannedData &d : sorted) {
      bool skipped = d.symbol == skippedWeight;
      std::string out = skipped ? ".npu.noinit." + d.symbol : d.section;
      os << llvm::formatv("  {0} {1:x8} {2}: AT({1:x8}) {{ KEEP(*({3})) } >{4}\n", out,
                          llvm::format_hex(d.address, 10), skipped ? "(NOLOAD) " : "", d.section,
                          d.level == mlir::npu::MemLevel::L3 ? "L3" : "CODE");
    }
    os << "}\nINSERT AFTER .l3.data;\n";
  }
  auto hex = [](uint64_t v) { return llvm::formatv("{0:x8}", llvm::format_hex(v, 10)).str(); };
  const std::string elfPath = outPath("firmware.elf");
  std::vector<std::string> ldArgs = {lldPath, "-T", ldScript, "-T", planScript, "--gc-sections", "--discard-locals",
                                     "-Map=" + outPath("firmware.map"), "-o", elfPath, crt0Path, mainObj, objPath,
                                     npurtLib, runtimeLib, "--start-group", libcPath, libgccPath, "--end-group"};
  if (l2PlanStart)
    ldArgs.push_back("--defsym=__npu_plan_l2_start=" + hex(l2PlanStart));
  for (const auto &[symbol, address] : plannedSymbols)
    ldArgs.push_back("--defsym=" + symbol + "=" + hex(address));
  if (runTool(lldPath, ldArgs) != 0)
    return fail("linking " + elfPath + " failed");

  // --- golden reference: the same network and inputs on the host ------------------------
  if (golden) {
    std::string err = runGolden(*original, netName, inputs, goldenTensors, inBytes, goldenBytes, inData,
                                outPath("golden.bin"));
    if (!err.empty())
      return fail("golden reference: " + err);
  }

  // --- manifest -------------------------------------------------------------------------------
  auto tensorJson = [](const TensorInfo &t, uint64_t address) {
    llvm::json::Array shape;
    for (int64_t d : t.type.getShape())
      shape.push_back(d);
    return llvm::json::Object{{"name", t.name},
                              {"shape", std::move(shape)},
                              {"element_type", typeString(t.type.getElementType())},
                              {"address", static_cast<int64_t>(address)},
                              {"bytes", static_cast<int64_t>(t.bytes)}};
  };
  llvm::json::Array inJson, outJson;
  for (auto [i, t] : llvm::enumerate(inputs)) {
    llvm::json::Object o = tensorJson(t, inAddrs[i]);
    o["file_offset"] = static_cast<int64_t>(t.offset);
    inJson.push_back(std::move(o));
  }
  for (auto [i, t] : llvm::enumerate(outputs)) {
    llvm::json::Object o = tensorJson(t, outAddrs[i]);
    o["golden_offset"] = static_cast<int64_t>(t.offset);
    outJson.push_back(std::move(o));
  }
  llvm::json::Array checkpointJson;
  for (auto [i, t] : llvm::enumerate(checkpoints)) {
    const auto &[region, occurrence] = checkpointRegion[i];
    if (region.empty() || !checkpointAddress[i])
      continue; // its op was scheduled without a region (none today)
    llvm::json::Object o = tensorJson(t, checkpointAddress[i]);
    o["name"] = occurrence > 1 ? region + "#" + std::to_string(occurrence) : region;
    o["region"] = region;
    o["occurrence"] = occurrence;
    o["golden_offset"] = static_cast<int64_t>(t.offset);
    o["location"] = checkpointLocation[i];
    checkpointJson.push_back(std::move(o));
  }
  llvm::json::Array overridesJson;
  for (const std::string &o : overrides)
    overridesJson.push_back(o);
  char fp[32];
  std::snprintf(fp, sizeof fp, "0x%016llx", static_cast<unsigned long long>(cfg->fingerprint()));
  llvm::SmallString<256> absConfig(configFile.getValue());
  llvm::sys::fs::make_absolute(absConfig);
  llvm::json::Object manifest{
      {"format", "npuc-manifest/1"},
      {"network", netName},
      {"source", inputFile.getValue()},
      {"config", std::string(absConfig)},
      {"config_overrides", std::move(overridesJson)},
      {"config_fingerprint", fp},
      {"default_mem_level", defaultMemLevel.getValue()},
      {"activation_mem_level", activationMemLevel.getValue()},
      {"inject_fault", injectFault.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(injectFault)},
      {"firmware", "firmware.elf"},
      {"input_file", "input.bin"},
      {"golden_file", golden ? llvm::json::Value("golden.bin") : llvm::json::Value(nullptr)},
      {"tolerance", llvm::json::Object{{"f32", llvm::json::Object{{"atol", kF32Atol}, {"rtol", kF32Rtol}}}}},
      {"input_pattern", "element i of input k: integers ((37*i + 11*k + 13) mod 256) - 128; f32 ((7*i + 3*k + 3) mod 17 - 8) / 8"},
      {"inputs", std::move(inJson)},
      {"outputs", std::move(outJson)},
      {"checkpoints", std::move(checkpointJson)},
      {"memory_plan", llvm::json::Object{{"enforced_by_codegen", true},
                                         {"peak_bytes", std::move(usage)},
                                         {"tensors", std::move(planJson)}}}};
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(outPath("manifest.json"), ec);
    if (ec)
      return fail("cannot write manifest.json: " + ec.message());
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
    llvm::raw_fd_ostream in(outPath("input.bin"), ec);
    if (ec)
      return fail("cannot write input.bin: " + ec.message());
    in.write(reinterpret_cast<const char *>(inData.data()), inData.size());
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  llvm::outs() << "npuc: " << netName << " -> " << elfPath << " (" << llvm::format("%.2f", seconds)
               << " s)\n";
  return 0;
}
