// The phases of npuc and the pass pipeline that runs them.
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/Path.h"

#include "npu/Pipeline/Pipeline.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "npu/Analysis/BufferKind.h"
#include "npu/Transforms/Passes.h"

#include <cstring>
#include <map>

namespace mlir::npu {
#define GEN_PASS_REGISTRATION
#include "npu/Pipeline/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

constexpr std::pair<Phase, llvm::StringLiteral> kPhaseNames[] = {
    {Phase::Verify, "verify"},
    {Phase::Plan, "plan"},
    {Phase::Bufferize, "bufferized"},
    {Phase::Tile, "tiled"},
    {Phase::Schedule, "schedule"},
    {Phase::LLVMDialect, "llvm-dialect"},
    {Phase::LLVMIR, "llvm-ir"},
    {Phase::Object, "obj"},
    {Phase::Elf, "elf"}};

const char *kBufferize =
    "empty-tensor-to-alloc-tensor,one-shot-bufferize{"
    "bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map}";

std::string lowerToLLVM(unsigned indexBits) {
  const std::string ib = "{index-bitwidth=" + std::to_string(indexBits) + "}";
  return "func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,"
         "expand-strided-metadata,lower-affine,finalize-memref-to-llvm" +
         ib + ",convert-arith-to-llvm" + ib +
         ",convert-math-to-llvm,convert-math-to-libm,convert-func-to-llvm" +
         ib + ",convert-cf-to-llvm" + ib + ",reconcile-unrealized-casts";
}

// The textual pipelines name registered passes; they were checked when
// registered, so a parse failure is a bug here.
void addTextual(OpPassManager &pm, llvm::StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("npu pipeline: cannot parse " + pipeline);
}

struct CallbackPass
    : public PassWrapper<CallbackPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CallbackPass)
  explicit CallbackPass(std::function<LogicalResult(ModuleOp)> fn)
      : fn(std::move(fn)) {}
  llvm::StringRef getArgument() const override { return "npu-callback"; }
  void runOnOperation() override {
    if (failed(fn(getOperation())))
      signalPassFailure();
  }
  std::function<LogicalResult(ModuleOp)> fn;
};

uint64_t elementBytes(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

} // namespace

llvm::StringRef mlir::npu::phaseName(Phase phase) {
  for (const auto &[p, name] : kPhaseNames)
    if (p == phase)
      return name;
  llvm_unreachable("unknown phase");
}

std::optional<Phase> mlir::npu::parsePhase(llvm::StringRef name) {
  for (const auto &[p, n] : kPhaseNames)
    if (n == name)
      return p;
  return std::nullopt;
}

std::string mlir::npu::phaseList() {
  std::string out;
  for (const auto &[p, name] : kPhaseNames)
    out += (out.empty() ? "" : ", ") + name.str();
  return out;
}

std::unique_ptr<Pass>
mlir::npu::createCallbackPass(std::function<LogicalResult(ModuleOp)> fn) {
  return std::make_unique<CallbackPass>(std::move(fn));
}

void mlir::npu::buildNpuPipeline(OpPassManager &pm,
                                 const NpuPipelineOptions &options, Phase from,
                                 Phase to, const PipelineHooks &hooks) {
  std::vector<std::string> overrides(options.configOverrides.begin(),
                                     options.configOverrides.end());
  auto last = std::min(to, kLastMLIRPhase);
  for (int i = static_cast<int>(from); i <= static_cast<int>(last); ++i) {
    const Phase phase = static_cast<Phase>(i);
    if (hooks.beforePhase)
      hooks.beforePhase(phase, pm);
    switch (phase) {
    case Phase::Verify: {
      NpuAttachTargetOptions target;
      target.configPath = options.configPath;
      target.configOverrides = overrides;
      pm.addPass(createNpuAttachTarget(target));
      pm.addPass(createNpuLegalizeLinalg());
      pm.addPass(createNpuTagCheckpoints());
      pm.addPass(createNpuVerifySupported());
      break;
    }
    case Phase::Plan: {
      NpuMemoryPlanOptions plan;
      plan.defaultMemLevel = options.defaultMemLevel;
      plan.activationMemLevel = options.activationMemLevel;
      // The firmware image and heap take the bottom of L2.
      plan.l2FromTop = true;
      pm.addPass(createNpuFuseConv());
      if (options.fuseMatmul)
        pm.addPass(createNpuFuseMatmul());
      pm.addPass(createNpuMemoryPlan(plan));
      break;
    }
    case Phase::Bufferize: {
      pm.addPass(createNpuMaterializePlan());
      NpuInputGlobalsOptions inputGlobals;
      inputGlobals.inputFile = options.inputFile;
      pm.addPass(createNpuInputGlobals(inputGlobals));
      addTextual(pm, kBufferize);
      pm.addPass(createNpuCheckNoAlloc());
      break;
    }
    case Phase::Tile: {
      NpuTileOptions tile;
      tile.pins = options.tilePins;
      pm.addPass(createNpuTile(tile));
      break;
    }
    case Phase::Schedule: {
      NpuScheduleOptions schedule;
      // skip-weight-load is the linker's (a NOLOAD section); the IR is the
      // correct one.
      if (options.injectFault != "skip-weight-load")
        schedule.injectFault = options.injectFault;
      pm.addPass(createNpuSchedule(schedule));
      pm.addPass(createCanonicalizerPass());
      pm.addPass(createCSEPass());
      pm.addPass(createCallbackPass(loopTrainingStepsOnDevice));
      break;
    }
    case Phase::LLVMDialect:
      pm.addPass(createNpuStripAttributes());
      // index = i32 on RV32.
      addTextual(pm, lowerToLLVM(32));
      break;
    default:
      llvm_unreachable("not an MLIR phase");
    }
    if (hooks.afterPhase)
      hooks.afterPhase(phase, pm);
  }
}

void mlir::npu::buildHostPipeline(OpPassManager &pm,
                                  llvm::StringRef inputFile) {
  pm.addPass(createCallbackPass(loopTrainingStepsOnHost));
  pm.addPass(createNpuReturnCheckpoints());
  addTextual(pm, kBufferize);
  NpuHostEntryOptions entry;
  entry.inputFile = inputFile.str();
  pm.addPass(createNpuHostEntry(entry));
  // Plain upstream IR for the translation, as on the device.
  pm.addPass(createNpuStripAttributes());
  addTextual(pm, lowerToLLVM(64));
}

void mlir::npu::registerNpuPipeline() {
  registerTransformsPasses();
  registerConversionPasses();
  bufferization::registerBufferizationPasses();
  registerLinalgPasses();
  memref::registerMemRefPasses();
  registerNpuPasses();
  registerNpuPipelinePasses();
  PassPipelineRegistration<NpuPipelineOptions>(
      "npu-pipeline",
      "npuc's pipeline from verify to the phase `to` (default llvm-dialect), "
      "exactly as npuc --emit=<phase> runs it",
      [](OpPassManager &pm, const NpuPipelineOptions &options) {
        std::optional<Phase> to = parsePhase(options.to);
        if (!to || *to > kLastMLIRPhase) {
          // The builder cannot fail: the run does, before any pass.
          std::string name = options.to;
          pm.addPass(createCallbackPass([name](ModuleOp m) {
            return m.emitError("npu-pipeline: to=")
                   << name
                   << " is not an MLIR phase (verify, "
                      "plan, bufferized, tiled, schedule, llvm-dialect)";
          }));
          return;
        }
        buildNpuPipeline(pm, options, Phase::Verify, *to);
      });
}

// --- what the driver reads from the IR --------------------------------------------

std::string mlir::npu::typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::string mlir::npu::locString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            llvm::Twine(file.getLine()) + ":" + llvm::Twine(file.getColumn()))
        .str();
  // An imported ONNX node (NameLoc), or the nodes one fused layer came
  // from (a conv and its bias, residual, ReLU and QuantizeLinear).
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    std::string names;
    for (Location part : fused.getLocations())
      if (std::string s = locString(part); !s.empty())
        names += (names.empty() ? "" : " + ") + s;
    return names;
  }
  return "";
}

FailureOr<func::FuncOp> mlir::npu::findNetwork(ModuleOp module) {
  func::FuncOp net;
  for (auto f : module.getOps<func::FuncOp>()) {
    if (f.isExternal())
      continue;
    if (net) {
      f.emitError(
          "npuc compiles one network function per module; found a second one");
      return failure();
    }
    net = f;
  }
  return net;
}

LogicalResult mlir::npu::layoutTensors(func::FuncOp net, TypeRange types,
                                       llvm::StringRef prefix,
                                       std::vector<TensorInfo> &into,
                                       uint64_t &total) {
  for (auto [i, t] : llvm::enumerate(types)) {
    auto rt = dyn_cast<RankedTensorType>(t);
    if (!rt || !rt.hasStaticShape() || !rt.getElementType().isIntOrFloat())
      return net.emitError("npuc needs statically shaped tensor arguments and "
                           "results, got ")
             << t;
    TensorInfo info{(prefix + llvm::Twine(i)).str(), rt, 0, 0};
    info.bytes = rt.getNumElements() * elementBytes(rt.getElementType());
    total = llvm::alignTo(total, 16);
    info.offset = total;
    total += info.bytes;
    into.push_back(info);
  }
  return success();
}

LogicalResult mlir::npu::collectInterface(func::FuncOp net,
                                          std::vector<TensorInfo> &inputs,
                                          std::vector<TensorInfo> &outputs,
                                          uint64_t &inBytes,
                                          uint64_t &outBytes) {
  if (failed(layoutTensors(net, net.getArgumentTypes(), "input", inputs,
                           inBytes)) ||
      failed(layoutTensors(net, net.getResultTypes(), "output", outputs,
                           outBytes)))
    return failure();
  return success();
}

std::vector<TensorInfo> mlir::npu::collectCheckpoints(func::FuncOp net,
                                                      uint64_t &goldenBytes) {
  std::map<int64_t, RankedTensorType> tagged;
  net.walk([&](Operation *op) {
    if (auto id = op->getAttrOfType<IntegerAttr>(
            NpuDialect::CheckpointAttrHelper::getNameStr()))
      tagged[id.getInt()] = cast<RankedTensorType>(op->getResult(0).getType());
  });
  std::vector<TensorInfo> checkpoints;
  for (auto &[id, rt] : tagged) {
    TensorInfo t{"", rt, 0,
                 rt.getNumElements() * elementBytes(rt.getElementType())};
    goldenBytes = llvm::alignTo(goldenBytes, 16);
    t.offset = goldenBytes;
    goldenBytes += t.bytes;
    checkpoints.push_back(t);
  }
  return checkpoints;
}

// Element i of input k is ((37*i + 11*k + 13) mod 256) - 128 for integers
// (the whole int8 range), ((7*i + 3*k + 3) mod 17 - 8) / 8 for f32.
int64_t mlir::npu::labelClasses(ModuleOp module, unsigned k) {
  auto training = NpuDialect::TrainingAttrHelper(module.getContext())
                      .getAttr(module.getOperation());
  if (!training)
    return 0;
  auto classes = training.getAs<IntegerAttr>("classes");
  auto dataInputs = training.getAs<IntegerAttr>("data_inputs");
  if (!classes || !dataInputs || classes.getInt() <= 0 ||
      dataInputs.getInt() != 2 || k % 2 != 1)
    return 0;
  return classes.getInt();
}

std::vector<uint8_t> mlir::npu::inputPattern(RankedTensorType type, unsigned k,
                                             int64_t classes) {
  std::vector<uint8_t> out;
  Type et = type.getElementType();
  int64_t n = type.getNumElements();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t raw;
    unsigned width = et.getIntOrFloatBitWidth();
    if (isa<FloatType>(et)) {
      float f = static_cast<float>((7 * i + 3 * k + 3) % 17 - 8) / 8.0f;
      uint32_t u;
      std::memcpy(&u, &f, 4);
      raw = u;
    } else if (classes > 0) {
      raw = static_cast<uint64_t>((7 * i + 3 * k) % classes);
    } else {
      raw = static_cast<uint64_t>((37 * i + 11 * k + 13) % 256 - 128);
    }
    for (unsigned b = 0; b < (width + 7) / 8; ++b)
      out.push_back(static_cast<uint8_t>(raw >> (8 * b)));
  }
  return out;
}

FailureOr<std::vector<uint8_t>>
mlir::npu::networkInput(RankedTensorType type, unsigned k, llvm::StringRef file,
                        std::string &error, int64_t classes) {
  if (file.empty())
    return inputPattern(type, k, classes);
  if (k != 0) {
    error = "--input gives input 0 only; the network has several inputs";
    return failure();
  }
  auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false);
  if (!buffer) {
    error = "cannot read --input " + file.str() + ": " +
            buffer.getError().message();
    return failure();
  }
  llvm::StringRef data = (*buffer)->getBuffer();
  Type et = type.getElementType();
  uint64_t bytes = type.getNumElements() * elementBytes(et);
  if (file.ends_with(".npy")) {
    // NPY 1.0/2.0: magic, version, header length, a dict with 'descr',
    // 'fortran_order' and 'shape'; the data follow, C order.
    if (!data.starts_with("\x93NUMPY") || data.size() < 10) {
      error = file.str() + " is not a .npy file";
      return failure();
    }
    unsigned major = static_cast<uint8_t>(data[6]);
    if (major < 1 || major > 3 || (major > 1 && data.size() < 12)) {
        error = "--input " + file.str() + ": .npy format version " +
                std::to_string(major) + " (npuc reads 1, 2 and 3)";
        return failure();
    }
    size_t headerLen =
        major == 1
            ? static_cast<uint8_t>(data[8]) | static_cast<uint8_t>(data[9]) << 8
            : llvm::support::endian::read32le(data.data() + 8);
    size_t start = (major == 1 ? 10 : 12) + headerLen;
    if (start > data.size()) {
      error = "--input " + file.str() + ": the .npy header (" +
              std::to_string(headerLen) + " bytes) runs past the end of the "
              "file (" + std::to_string(data.size()) + " bytes)";
      return failure();
    }
    llvm::StringRef header = data.substr(major == 1 ? 10 : 12, headerLen);
    std::string want = et.isF32()         ? "'<f4'"
                       : et.isInteger(8)  ? "'|i1'"
                       : et.isInteger(32) ? "'<i4'"
                                          : "";
    if (want.empty() || !header.contains(want) ||
        header.contains("'fortran_order': True")) {
      error = "--input " + file.str() + ": header " + header.rtrim().str() +
              " is not a C-order " + want + " array (the input is " +
              [&] {
                std::string t;
                llvm::raw_string_ostream os(t);
                os << type;
                return t;
              }() +
              ")";
      return failure();
    }
    // The shape, as the input's: the same bytes in another shape (a
    // transposed array) would be taken silently as this one.
    std::string shape = "?";
    size_t at = header.find("'shape':");
    if (at != llvm::StringRef::npos) {
      llvm::StringRef rest = header.drop_front(at + 8).ltrim();
      size_t close = rest.find(')');
      if (rest.starts_with("(") && close != llvm::StringRef::npos) {
        llvm::SmallVector<llvm::StringRef> dims;
        rest.slice(1, close).split(dims, ',', -1, /*KeepEmpty=*/false);
        shape.clear();
        for (llvm::StringRef d : dims)
          if (!d.trim().empty())
            shape += (shape.empty() ? "" : "x") + d.trim().str();
      }
    }
    std::string want_shape;
    for (int64_t d : type.getShape())
      want_shape += (want_shape.empty() ? "" : "x") + std::to_string(d);
    if (shape != want_shape) {
      error = "--input " + file.str() + ": shape " +
              (shape.empty() ? std::string("() (a scalar)") : shape) +
              " is not the input's " + want_shape;
      return failure();
    }
    data = data.substr(start);
  }
  if (data.size() != bytes) {
    error = "--input " + file.str() + " holds " + std::to_string(data.size()) +
            " bytes of data, the input takes " + std::to_string(bytes);
    return failure();
  }
  return std::vector<uint8_t>(data.begin(), data.end());
}

PlanSummary mlir::npu::collectPlan(func::FuncOp net, ModuleOp module,
                                   size_t numCheckpoints) {
  PlanSummary plan;
  auto record = [&](Attribute attr, llvm::StringRef kind,
                    llvm::StringRef producer, Type type, Location loc) {
    auto p = dyn_cast_or_null<PlacementAttr>(attr);
    if (!p)
      return;
    if (p.getLevel() == MemLevel::L2 &&
        (!plan.l2PlanStart || p.getAddress() < plan.l2PlanStart))
      plan.l2PlanStart = p.getAddress();
    plan.tensors.push_back(
        llvm::json::Object{{"level", stringifyMemLevel(p.getLevel()).str()},
                           {"address", static_cast<int64_t>(p.getAddress())},
                           {"bytes", static_cast<int64_t>(p.getSize())},
                           {"kind", kind.str()},
                           {"type", typeString(type)},
                           {"produced_by", producer.str()},
                           {"location", locString(loc)}});
  };
  for (unsigned i = 0; i < net.getNumArguments(); ++i)
    record(net.getArgAttr(i, kPlacementAttrName), "input", "argument",
           net.getArgumentTypes()[i], net.getArgument(i).getLoc());
  net.walk([&](Operation *op) {
    if (op->getNumResults() != 1 || isa<tensor::EmptyOp>(op))
      return;
    // The manifest's kinds: inputs are listed above, outputs as activations.
    const BufferKind k = classifyBuffer(op->getResult(0));
    llvm::StringRef kind = k == BufferKind::Weight    ? "weight"
                           : k == BufferKind::Staging ? "staging"
                                                      : "activation";
    record(op->getAttr(kPlacementAttrName), kind, op->getName().getStringRef(),
           op->getResult(0).getType(), op->getLoc());
    // A training step's roles (npu-derive-training), only where they apply
    // so an inference manifest is unchanged.
    MLIRContext *ctx = op->getContext();
    if (!plan.tensors.empty() && op->getAttr(kPlacementAttrName)) {
      llvm::json::Object &row = *plan.tensors.back().getAsObject();
      if (NpuDialect::KeptForBackwardAttrHelper(ctx).isAttrPresent(op))
        row["kept_for_backward"] = true;
      if (NpuDialect::TrainableAttrHelper(ctx).isAttrPresent(op) ||
          NpuDialect::SgdUpdateAttrHelper(ctx).isAttrPresent(op))
        row["trained"] = true;
    }
  });
  plan.checkpointAddress.assign(numCheckpoints, 0);
  plan.checkpointLocation.assign(numCheckpoints, "");
  net.walk([&](Operation *op) {
    auto id = op->getAttrOfType<IntegerAttr>(
        NpuDialect::CheckpointAttrHelper::getNameStr());
    auto p = op->getAttrOfType<PlacementAttr>(kPlacementAttrName);
    if (id && p) {
      plan.checkpointAddress[id.getInt()] = p.getAddress();
      plan.checkpointLocation[id.getInt()] = locString(op->getLoc());
    }
  });
  if (auto u = module->getAttrOfType<DictionaryAttr>(kMemoryUsageAttrName))
    for (auto entry : u)
      if (auto v = dyn_cast<IntegerAttr>(entry.getValue()))
        plan.peakBytes[entry.getName().getValue()] = v.getInt();
  return plan;
}

ScheduledPlan mlir::npu::collectScheduledPlan(ModuleOp module,
                                              size_t numCheckpoints) {
  ScheduledPlan s;
  for (auto g : module.getOps<memref::GlobalOp>()) {
    auto section = g->getAttrOfType<StringAttr>(
        NpuDialect::SectionAttrHelper::getNameStr());
    auto p = g->getAttrOfType<PlacementAttr>(kPlacementAttrName);
    if (section && p)
      s.data.push_back({g.getSymName().str(), section.str(), p.getAddress(),
                        p.getSize(), p.getLevel()});
    else if (p && g.isExternal())
      s.symbols.push_back({g.getSymName().str(), p.getAddress()});
    else if (section)
      s.sectioned.push_back({g.getSymName().str(), section.str()});
  }
  for (auto g : module.getOps<memref::GlobalOp>())
    if (g.getSymName() == "npu_l2_stage")
      if (auto p = g->getAttrOfType<PlacementAttr>(kPlacementAttrName)) {
        s.staging = llvm::json::Object{
            {"level", "L2"},
            {"address", static_cast<int64_t>(p.getAddress())},
            {"bytes", static_cast<int64_t>(p.getSize())},
            {"kind", "staging"},
            {"type", typeString(g.getType())},
            {"produced_by", "npu-schedule (SA panels of L3 weights)"},
            {"location", ""}};
        s.stagingAddress = p.getAddress();
      }
  if (auto a = module->getAttrOfType<ArrayAttr>(
          NpuDialect::InputsAttrHelper::getNameStr()))
    for (Attribute p : a)
      s.inputAddress.push_back(cast<PlacementAttr>(p).getAddress());
  if (auto a = module->getAttrOfType<ArrayAttr>(
          NpuDialect::OutputsAttrHelper::getNameStr()))
    for (Attribute p : a)
      s.outputAddress.push_back(cast<PlacementAttr>(p).getAddress());
  // Which region end reads each checkpoint: the n-th end of region R.
  s.checkpointRegion.assign(numCheckpoints, {"", 0});
  std::map<std::string, int64_t> ends;
  // A layer's kernel call (with its tiles) sits between the region's start
  // and end markers.
  std::string tiles;
  // A training step's layers run once per step (npu-loop-training-steps):
  // their MACs are the run's, as npusim's region cycles are.
  int64_t times = 1;
  if (auto training = NpuDialect::TrainingAttrHelper(module.getContext())
                          .getAttr(module))
    times = training.getAs<IntegerAttr>("steps").getInt();
  if (auto run = module.lookupSymbol<func::FuncOp>("npu_network_run"))
    run.walk([&](func::CallOp call) {
      if (auto t = NpuDialect::TilesAttrHelper(call.getContext())
                       .getAttr(call)) {
        tiles.clear();
        for (int64_t v : t.asArrayRef())
          tiles += (tiles.empty() ? "" : "x") + std::to_string(v);
        // As --tile takes it back (npu_sweep.py --fix-tiles pins it).
        if (NpuDialect::ParamsInL2AttrHelper(call.getContext())
                .isAttrPresent(call))
          tiles += ",params=L2";
      }
      auto region = call->getAttrOfType<StringAttr>(
          NpuDialect::RegionAttrHelper::getNameStr());
      if (!region)
        return;
      if (!tiles.empty())
        s.regionTiles.emplace(region.str(), tiles);
      tiles.clear();
      int64_t n = ++ends[region.str()];
      if (auto attr = call->getAttrOfType<IntegerAttr>(
              NpuDialect::MacsAttrHelper::getNameStr())) {
        const int64_t macs = attr.getInt() * times;
        auto it = llvm::find_if(s.regionMacs, [&](const auto &r) {
          return r.first == region.str();
        });
        if (it == s.regionMacs.end())
          s.regionMacs.push_back({region.str(), macs});
        else
          it->second += macs;
      }
      if (auto id = call->getAttrOfType<IntegerAttr>(
              NpuDialect::CheckpointAttrHelper::getNameStr()))
        s.checkpointRegion[id.getInt()] = {region.str(), n};
    });
  return s;
}
