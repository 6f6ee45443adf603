// The module rewrites around the npu passes (npu/Pipeline/Passes.td).
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include "config/config.h"
#include "config/memory_map.h"
#include "npu/Pipeline/Pipeline.h"

namespace mlir::npu {
#define GEN_PASS_DEF_NPUATTACHTARGET
#define GEN_PASS_DEF_NPUTAGCHECKPOINTS
#define GEN_PASS_DEF_NPURETURNCHECKPOINTS
#define GEN_PASS_DEF_NPUINPUTGLOBALS
#define GEN_PASS_DEF_NPUCHECKNOALLOC
#define GEN_PASS_DEF_NPUSTRIPATTRIBUTES
#define GEN_PASS_DEF_NPUHOSTENTRY
#include "npu/Pipeline/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

constexpr llvm::StringLiteral kCheckpointAttrName =
    NpuDialect::CheckpointAttrHelper::getNameStr();

struct AttachTargetPass
    : public mlir::npu::impl::NpuAttachTargetBase<AttachTargetPass> {
  using NpuAttachTargetBase::NpuAttachTargetBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::vector<std::string> overrides(configOverrides.begin(),
                                       configOverrides.end());
    try {
      auto config = ::npu::cfg::config::load(configPath, overrides);
      auto map = ::npu::cfg::memory_map::build(config);
      const ::npu::cfg::region *l1 = map.find_region("l1");
      const ::npu::cfg::region *l2 = map.find_region("l2");
      const ::npu::cfg::region *l3 = map.find_region("l3");
      if (!l1 || !l2 || !l3) {
        module.emitError("platform config has no l1, l2 or l3 region");
        return signalPassFailure();
      }
      // npuc links the program into L2 beside its memory plan, and plans
      // all of L1 but the hart stacks for tiles: a program in L1 would
      // overlap them (and its link script has no L2 region for the plan).
      if (const std::string &code = config.text("firmware.code_region");
          code != "l2") {
        module.emitError("firmware.code_region = ")
            << code
            << ": npuc links the program into l2 (its plan uses all of L1 "
               "but the hart stacks for tiles); compile with "
               "firmware.code_region = l2 (hand-written firmware can run from "
            << code << ", docs/firmware.md)";
        return signalPassFailure();
      }
      if (config.count("cluster.workers") == 0) {
        module.emitError("cluster.workers = 0: npuc's kernels run on the "
                         "cluster's workers (the cluster controller only "
                         "dispatches them); give at least 1");
        return signalPassFailure();
      }
      Builder b(&getContext());
      SmallVector<Attribute> overrideAttrs;
      for (const std::string &o : overrides)
        overrideAttrs.push_back(b.getStringAttr(o));
      module->setAttr(
          TargetAttr::kAttrName,
          TargetAttr::get(
              &getContext(), configPath, b.getArrayAttr(overrideAttrs),
              config.fingerprint(), l1->base, config.size("l1.size"), l2->base,
              l2->size, l3->base, l3->size, config.count("sa.rows"),
              config.count("sa.cols"), config.count("cluster.workers"),
              config.size("firmware.stack_size")));
    } catch (const std::exception &error) {
      module.emitError("cannot read the platform config: ") << error.what();
      return signalPassFailure();
    }
  }
};

struct TagCheckpointsPass
    : public mlir::npu::impl::NpuTagCheckpointsBase<TagCheckpointsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    int64_t next = 0;
    getOperation().walk([&](linalg::LinalgOp op) {
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
      op->setAttr(kCheckpointAttrName, b.getI64IntegerAttr(next++));
    });
  }
};

struct ReturnCheckpointsPass
    : public mlir::npu::impl::NpuReturnCheckpointsBase<ReturnCheckpointsPass> {
  void runOnOperation() override {
    for (auto net : getOperation().getOps<func::FuncOp>()) {
      if (net.isExternal())
        continue;
      SmallVector<std::pair<int64_t, Value>> tagged;
      net.walk([&](Operation *op) {
        if (auto id = op->getAttrOfType<IntegerAttr>(kCheckpointAttrName))
          tagged.push_back({id.getInt(), op->getResult(0)});
      });
      if (tagged.empty())
        continue;
      llvm::sort(tagged, [](const auto &a, const auto &b) {
        return a.first < b.first;
      });
      auto ret = cast<func::ReturnOp>(net.getBody().front().getTerminator());
      SmallVector<Value> values(ret.getOperands());
      for (auto &[id, value] : tagged)
        values.push_back(value);
      OpBuilder b(ret);
      b.create<func::ReturnOp>(ret.getLoc(), values);
      ret.erase();
      net.setType(FunctionType::get(&getContext(), net.getArgumentTypes(),
                                    ValueRange(values).getTypes()));
    }
  }
};

struct InputGlobalsPass
    : public mlir::npu::impl::NpuInputGlobalsBase<InputGlobalsPass> {
  using NpuInputGlobalsBase::NpuInputGlobalsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto inputs = module->getAttrOfType<ArrayAttr>(
        NpuDialect::InputsAttrHelper::getNameStr());
    if (!inputs) {
      module.emitError("no npu.inputs: run -npu-materialize-plan first");
      return signalPassFailure();
    }
    auto run = module.lookupSymbol<func::FuncOp>("npu_network_run");
    Location loc = run ? run.getLoc() : module.getLoc();
    // Input k's type is that of its planned buffer: -npu-materialize-plan
    // creates the inputs' globals first, so the first global at the
    // input's placement is the input's.
    SmallVector<MemRefType> types;
    for (Attribute placement : inputs) {
      MemRefType type;
      for (auto g : module.getOps<memref::GlobalOp>())
        if (g->getAttr(kPlacementAttrName) == placement) {
          type = g.getType();
          break;
        }
      if (!type) {
        module.emitError("no planned buffer for input at ") << placement;
        return signalPassFailure();
      }
      types.push_back(type);
    }
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto i8 = b.getI8Type();
    for (auto [k, placement] : llvm::enumerate(inputs)) {
      auto tensor =
          RankedTensorType::get(types[k].getShape(), types[k].getElementType());
      std::string error;
      FailureOr<std::vector<uint8_t>> input =
          networkInput(tensor, k, inputFile, error, labelClasses(module, k));
      if (failed(input)) {
        module.emitError(error);
        return signalPassFailure();
      }
      std::vector<uint8_t> bytes = std::move(*input);
      std::vector<int8_t> values(bytes.begin(), bytes.end());
      auto type = MemRefType::get({static_cast<int64_t>(values.size())}, i8);
      std::string name = "npu_input_" + std::to_string(k);
      auto global = b.create<memref::GlobalOp>(
          loc, name, b.getStringAttr("public"), type,
          DenseElementsAttr::get(RankedTensorType::get(type.getShape(), i8),
                                 llvm::ArrayRef<int8_t>(values)),
          /*constant=*/true, b.getI64IntegerAttr(64));
      NpuDialect::SectionAttrHelper(b.getContext())
          .setAttr(global, b.getStringAttr(".npu.plan." + name));
      global->setAttr(kPlacementAttrName, placement);
    }
  }
};

struct CheckNoAllocPass
    : public mlir::npu::impl::NpuCheckNoAllocBase<CheckNoAllocPass> {
  void runOnOperation() override {
    bool alloc = false;
    getOperation().walk([&](memref::AllocOp op) {
      op.emitError(
          "bufferization needed a buffer the memory plan does not hold "
          "(npuc: internal limitation, please report)");
      alloc = true;
    });
    if (alloc)
      signalPassFailure();
  }
};

struct StripAttributesPass
    : public mlir::npu::impl::NpuStripAttributesBase<StripAttributesPass> {
  void runOnOperation() override {
    const std::string prefix = (NpuDialect::getDialectNamespace() + ".").str();
    getOperation()->walk([&](Operation *op) {
      SmallVector<StringAttr> names;
      for (NamedAttribute a : op->getDiscardableAttrs())
        if (a.getName().getValue().starts_with(prefix))
          names.push_back(a.getName());
      for (StringAttr n : names)
        op->removeDiscardableAttr(n);
    });
  }
};

struct HostEntryPass : public mlir::npu::impl::NpuHostEntryBase<HostEntryPass> {
  using NpuHostEntryBase::NpuHostEntryBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<func::FuncOp> found = findNetwork(module);
    if (failed(found) || !*found) {
      if (succeeded(found))
        module.emitError("no network function");
      return signalPassFailure();
    }
    func::FuncOp net = *found;
    // The bufferized signature, read back as tensors for the layout.
    auto asTensors = [](TypeRange types) {
      SmallVector<Type> out;
      for (Type t : types)
        if (auto m = dyn_cast<MemRefType>(t))
          out.push_back(
              RankedTensorType::get(m.getShape(), m.getElementType()));
        else
          out.push_back(t);
      return out;
    };
    std::vector<TensorInfo> inputs, outputs;
    uint64_t inBytes = 0, outBytes = 0;
    auto tensorNet =
        FunctionType::get(&getContext(), asTensors(net.getArgumentTypes()),
                          asTensors(net.getResultTypes()));
    if (failed(layoutTensors(net, tensorNet.getInputs(), "input", inputs,
                             inBytes)) ||
        failed(layoutTensors(net, tensorNet.getResults(), "output", outputs,
                             outBytes)))
      return signalPassFailure();
    std::vector<uint8_t> inData;
    for (auto [k, t] : llvm::enumerate(inputs)) {
      inData.resize(t.offset, 0);
      std::string error;
      FailureOr<std::vector<uint8_t>> bytes =
          networkInput(t.type, k, inputFile, error, labelClasses(module, k));
      if (failed(bytes)) {
        net.emitError(error);
        return signalPassFailure();
      }
      inData.insert(inData.end(), bytes->begin(), bytes->end());
    }

    OpBuilder b(&getContext());
    Location loc = net.getLoc();
    b.setInsertionPointToStart(module.getBody());
    auto i8 = b.getI8Type();
    auto i32 = b.getI32Type();
    auto inType = MemRefType::get(
        {static_cast<int64_t>(std::max<uint64_t>(inBytes, 1))}, i8);
    auto outType = MemRefType::get(
        {static_cast<int64_t>(std::max<uint64_t>(outBytes, 1))}, i8);
    auto scalarType = MemRefType::get({}, i32);
    std::vector<int8_t> inValues(inData.begin(), inData.end());
    inValues.resize(inType.getNumElements(), 0);
    auto inInit =
        DenseElementsAttr::get(RankedTensorType::get(inType.getShape(), i8),
                               llvm::ArrayRef<int8_t>(inValues));
    b.create<memref::GlobalOp>(loc, "npu_input", b.getStringAttr("public"),
                               inType, inInit,
                               /*constant=*/false, b.getI64IntegerAttr(64));
    b.create<memref::GlobalOp>(loc, "npu_output", b.getStringAttr("public"),
                               outType, b.getUnitAttr(), /*constant=*/false,
                               b.getI64IntegerAttr(64));
    auto sizeInit = [&](uint64_t v) {
      return DenseElementsAttr::get(
          RankedTensorType::get({}, i32),
          llvm::ArrayRef<int32_t>(static_cast<int32_t>(v)));
    };
    b.create<memref::GlobalOp>(
        loc, "npu_output_size", b.getStringAttr("public"), scalarType,
        sizeInit(outBytes), /*constant=*/true, IntegerAttr());
    b.create<memref::GlobalOp>(loc, "npu_input_size", b.getStringAttr("public"),
                               scalarType, sizeInit(inBytes), /*constant=*/true,
                               IntegerAttr());

    b.setInsertionPointToEnd(module.getBody());
    auto run = b.create<func::FuncOp>(loc, "npu_network_run",
                                      b.getFunctionType({}, {}));
    Block *body = run.addEntryBlock();
    b.setInsertionPointToStart(body);
    Value inBuf = b.create<memref::GetGlobalOp>(loc, inType, "npu_input");
    Value outBuf = b.create<memref::GetGlobalOp>(loc, outType, "npu_output");
    std::vector<Value> args;
    for (const TensorInfo &t : inputs) {
      Value off = b.create<arith::ConstantIndexOp>(loc, t.offset);
      auto type = MemRefType::get(t.type.getShape(), t.type.getElementType());
      args.push_back(
          b.create<memref::ViewOp>(loc, type, inBuf, off, ValueRange{}));
    }
    auto call = b.create<func::CallOp>(loc, net, args);
    for (auto [t, result] : llvm::zip(outputs, call.getResults())) {
      Value off = b.create<arith::ConstantIndexOp>(loc, t.offset);
      auto type = MemRefType::get(t.type.getShape(), t.type.getElementType());
      Value view =
          b.create<memref::ViewOp>(loc, type, outBuf, off, ValueRange{});
      b.create<memref::CopyOp>(loc, result, view);
    }
    b.create<func::ReturnOp>(loc);
  }
};

} // namespace
