// npu-schedule: decides who does what on the cluster. Matmuls go to the
// systolic array with the tiles npu-tile chose (the runtime kernel
// npurt_matmul executes that schedule:
// DMA per tile, double buffering, L3 staging); elementwise work is outlined
// and split across the workers; copies between levels become DMA transfers.
// Runs on bufferized IR whose buffers are the plan's globals
// (npu-materialize-plan), which is how it knows where each operand lives.
// Which engine lowers which op is the op registry's (OpRegistry.cpp); the
// lowerings themselves are here.
#include "OpRegistry.h"
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/Support/MathExtras.h"

#include <cstring>
#include <functional>
#include <map>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUSCHEDULE
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

// npurt_matmul flags (compiler/runtime/npurt.h).
constexpr uint32_t kF32 = 1, kAccumulate = 2, kBInL3 = 4, kDirectL3 = 8,
                   kUncheckedL1 = 16, kRelu = 32, kPerChannel = 64,
                   kParamsInL2 = 128;
// npurt_conv2d / npurt_dwconv2d / npurt_pool2d flags and modes
// (compiler/runtime/npurt_conv.h; F32 and UNCHECKED_L1 as above).
constexpr uint32_t kConvPerChannel = 2, kConvRelu = 4, kPoolAvg = 2;

uint64_t elementBytes(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

// The planned bytes a memref value views: its whole buffer (a subview or a
// reshape of it counts as all of it); none when it is not a plan buffer.
struct Span {
  MemLevel level;
  uint64_t begin, end;
};
std::optional<Span> spanOf(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto get = dyn_cast<memref::GetGlobalOp>(def)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          def, get.getNameAttr());
      auto p = global ? global->getAttrOfType<PlacementAttr>(kPlacementAttrName)
                      : PlacementAttr();
      if (!p)
        return std::nullopt;
      return Span{p.getLevel(), p.getAddress(), p.getAddress() + p.getSize()};
    }
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
             memref::SubViewOp>(def))
      return std::nullopt;
    v = def->getOperand(0);
  }
  return std::nullopt;
}

// The first op after `copy` that must not run before the copy's DMA is
// done: one touching its destination, writing its source, or the return.
// A memref operand that is not a plan buffer counts as touching both.
Operation *firstConflict(linalg::CopyOp copy) {
  std::optional<Span> src = spanOf(copy.getDpsInputOperand(0)->get());
  std::optional<Span> dst = spanOf(copy.getDpsInitOperand(0)->get());
  auto overlaps = [](std::optional<Span> a, std::optional<Span> b) {
    return !a || !b ||
           (a->level == b->level && a->begin < b->end && b->begin < a->end);
  };
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    if (isa<func::ReturnOp>(op))
      return op;
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    if (!dps && !isa<memref::CopyOp, func::CallOp>(op))
      continue;
    for (OpOperand &use : op->getOpOperands()) {
      if (!isa<MemRefType>(use.get().getType()))
        continue;
      std::optional<Span> span = spanOf(use.get());
      bool writes = dps ? dps.isDpsInit(&use)
                        : !isa<memref::CopyOp>(op) ||
                              use.getOperandNumber() == 1;
      if (overlaps(span, dst) || (writes && overlaps(span, src)))
        return op;
    }
  }
  return nullptr;
}

} // namespace

// npu-schedule's lowering state, which the registry's lowering hooks work
// on: the runtime functions declared, the region names and worker functions
// created, and the fault to inject.
class mlir::npu::Scheduler {
public:
  Scheduler(ModuleOp module, StringRef injectFault, uint64_t l1Size)
      : module(module), injectFault(injectFault.str()), l1Size(l1Size) {}

  ModuleOp module;
  std::string injectFault;
  uint64_t l1Size;
  // inject-fault=data-input-count: optimizer write-backs seen, and whether
  // one was shifted.
  int64_t writeBacks = 0;
  bool usedDataInputCount = false;
  // Whether a matmul took the injected fault.
  bool usedDirectL3 = false, usedUnchecked = false;
  // A conv network's inference: every copy to or from L3 is started and
  // waited for right before the first op that needs it done
  // (firstConflict); otherwise only a prefetched weight's copy is.
  bool asyncStaging = false;
  // The conv layer whose weights the l3-as-l2 fault reads straight from L3.
  Operation *faultedWeights = nullptr;

  // inject-fault=l3-as-l2 on a conv network: the first conv layer whose
  // weights the plan stages from L3 gets the L3 buffer itself and the
  // staging copy goes, so the kernel's DMA reads L3 into L1 as if it were L2.
  void dropFirstConvWeightStaging(func::FuncOp f) {
    if (injectFault != "l3-as-l2" || faultedWeights)
      return;
    SmallVector<linalg::CopyOp> copies;
    f.walk([&](Operation *op) {
      if (faultedWeights)
        return;
      if (auto copy = dyn_cast<linalg::CopyOp>(op)) {
        copies.push_back(copy);
        return;
      }
      auto k = dyn_cast<ConvKernelOp>(op);
      if (!k || !k.getWeights())
        return;
      Origin w = originOf(k.getWeights());
      for (linalg::CopyOp copy : copies) {
        Value src = copy.getDpsInputOperand(0)->get();
        Origin dst = originOf(copy.getDpsInitOperand(0)->get());
        if (originOf(src).level == MemLevel::L3 && dst.level == w.level &&
            dst.offset && dst.offset == w.offset &&
            src.getType() == k.getWeights().getType()) {
          k.getWeightsMutable().assign(src);
          copy.erase();
          faultedWeights = k;
          usedDirectL3 = true;
          return;
        }
      }
    });
  }
  unsigned nameIndex = 0, workerIndex = 0;
  std::map<std::string, std::string> nameSymbols; // region name -> its global
  // The L2 buffer the SA schedule stages L3 weight panels through (planned
  // here, below the memory plan, because its size follows from the tiles).
  std::string stageSymbol;

  func::FuncOp declare(StringRef name, TypeRange args, TypeRange results) {
    if (auto f = module.lookupSymbol<func::FuncOp>(name))
      return f;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto f = b.create<func::FuncOp>(module.getLoc(), name,
                                    b.getFunctionType(args, results));
    f.setPrivate();
    return f;
  }

  Value i32(OpBuilder &b, Location loc, int64_t v) {
    return b.create<arith::ConstantIntOp>(loc, v, 32);
  }

  // The address of a memref's first element, as the i32 the runtime takes.
  Value address(OpBuilder &b, Location loc, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    Value base = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, memref);
    auto md = b.create<memref::ExtractStridedMetadataOp>(loc, memref);
    Value bytes =
        b.create<arith::MulIOp>(loc, md.getOffset(),
                                b.create<arith::ConstantIndexOp>(
                                    loc, elementBytes(type.getElementType())));
    Value addr = b.create<arith::AddIOp>(loc, base, bytes);
    return b.create<arith::IndexCastOp>(loc, b.getI32Type(), addr);
  }

  // An optional operand's address in a kernel's argument block: 0 if absent.
  Value addressOrNull(OpBuilder &b, Location loc, Value memref) {
    return memref ? address(b, loc, memref) : i32(b, loc, 0);
  }

  // A NUL-terminated name in a private constant global, for the region markers.
  Value name(OpBuilder &b, Location loc, StringRef text) {
    auto type =
        MemRefType::get({static_cast<int64_t>(text.size() + 1)}, b.getI8Type());
    std::string &sym = nameSymbols[text.str()];
    if (sym.empty()) {
      SmallVector<int8_t> bytes(text.begin(), text.end());
      bytes.push_back(0);
      sym = "npu_region_name_" + std::to_string(nameIndex++);
      OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
      mb.create<memref::GlobalOp>(
          loc, sym, mb.getStringAttr("private"), type,
          DenseElementsAttr::get(
              RankedTensorType::get(type.getShape(), mb.getI8Type()),
              ArrayRef<int8_t>(bytes)),
          /*constant=*/true, IntegerAttr());
    }
    Value g = b.create<memref::GetGlobalOp>(loc, type, sym);
    return address(b, loc, g);
  }

  // Multiply-accumulates of one scheduled op, from its operand shapes: the
  // report's MAC/cycle per layer. A pooling window's sums count as MACs (a
  // sum pool is a convolution with ones); elementwise layers have none.
  static int64_t layerMacs(Operation *op) {
    auto shape = [](Value v) {
      return cast<ShapedType>(v.getType()).getShape();
    };
    if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
      ArrayRef<int64_t> a = shape(mm.getDpsInputOperand(0)->get()),
                        c = shape(mm.getDpsInitOperand(0)->get());
      return c[0] * c[1] * a[1];
    }
    if (auto k = dyn_cast<MatmulKernelOp>(op)) {
      ArrayRef<int64_t> a = shape(k.getA()), c = shape(k.getInit());
      return c[0] * c[1] * a[1];
    }
    if (auto k = dyn_cast<ConvKernelOp>(op)) {
      int64_t macs = ShapedType::getNumElements(shape(k.getInit()));
      for (int64_t w : k.getWindow())
        macs *= w;
      if (k.getKernel() == "conv2d")
        macs *= shape(k.getInput()).back();
      return macs;
    }
    return 0;
  }

  // A region marker. The end of the region of an op npuc checkpoints
  // (npu.checkpoint: a layer result npusim compares with the golden) carries
  // the checkpoint and the region name, so npuc can tell npusim when to read it.
  void region(OpBuilder &b, Location loc, StringRef text, bool begin,
              Operation *of = nullptr) {
    Type i32Type = b.getI32Type();
    StringRef fn = begin ? "npurt_region_begin" : "npurt_region_end";
    declare(fn, {i32Type}, {});
    auto call = b.create<func::CallOp>(loc, fn, TypeRange{},
                                       ValueRange{name(b, loc, text)});
    if (!begin) {
      NpuDialect::RegionAttrHelper(b.getContext())
          .setAttr(call, b.getStringAttr(text));
      if (of)
        NpuDialect::MacsAttrHelper(b.getContext())
            .setAttr(call, b.getI64IntegerAttr(layerMacs(of)));
      NpuDialect::CheckpointAttrHelper checkpoint(b.getContext());
      if (of)
        if (IntegerAttr ckpt = checkpoint.getAttr(of))
          checkpoint.setAttr(call, ckpt);
    }
  }

  // Stores B's constant weights (K x N) in L3, which the kernel stages
  // into L2 panel by panel, in column panels of the tiles' width tn, one
  // after another: panel j holds columns [j*tn, j*tn + w), w = min(tn,
  // N - j*tn), as K rows of w elements -- the layout a deployment flow
  // gives weights it streams from external memory (DORY's L3 tiling), read
  // by npurt_matmul_panels / npurt_matmul_ep_panels (npurt.h). A panel then
  // reaches L2 as contiguous blocks: 1-D transfers of full DMA bursts, each
  // one PSRAM transaction, instead of K rows of w elements, each a
  // transaction of its own that pays the pins' command and latency (for
  // int8 and tn = 32, every 32 bytes). Not for weights in L2: there a row
  // is a burst the L1 side takes at the same 8 B/cycle, and a 1-D tile's
  // 256-byte bursts only pipeline coarser (mlp_int8 and autoencoder_int8
  // measured 0.2 and 0.7 % slower packed); nor for weights the 'l3-as-l2'
  // fault reads from L3 as if from L2 (the kernel's L2 path, row-major).
  // The golden reference runs the original module, whose weights stay
  // row-major; the global keeps its K x N type and records the packing
  // (npu.b_panels). Weights read anywhere else, and trained weights, stay
  // as they are (panelPackableWeights); one panel (tn >= N) is the
  // row-major order. True if B is stored in panels.
  bool packWeightPanels(Value bm, int64_t k, int64_t n, int64_t tn) {
    auto global = dyn_cast_or_null<memref::GlobalOp>(panelPackableWeights(bm));
    if (!global || tn >= n || tn <= 0)
      return false;
    auto init = cast<DenseElementsAttr>(global.getInitialValueAttr());
    if (!init.isSplat()) {
      ArrayRef<char> raw = init.getRawData();
      const uint64_t elems = uint64_t(k) * uint64_t(n);
      if (raw.size() % elems != 0)
        return false; // sub-byte elements: no such weights reach the SA
      const uint64_t eb = raw.size() / elems;
      std::vector<char> packed(raw.size());
      char *out = packed.data();
      for (int64_t j0 = 0; j0 < n; j0 += tn) {
        const uint64_t w = uint64_t(std::min(tn, n - j0)) * eb;
        for (int64_t r = 0; r < k; ++r, out += w)
          std::memcpy(out, raw.data() + (uint64_t(r) * n + j0) * eb, w);
      }
      global.setInitialValueAttr(
          DenseElementsAttr::getFromRawBuffer(init.getType(), packed));
    }
    NpuDialect::BPanelsAttrHelper(global->getContext())
        .setAttr(global, IntegerAttr::get(
                             IntegerType::get(global->getContext(), 64), tn));
    return true;
  }

  // A linalg.matmul -> npurt_matmul; a fused dense layer
  // (npu.matmul_kernel) -> npurt_matmul_ep, whose C is its output.
  LogicalResult scheduleMatmul(Operation *mm, const std::string &layer) {
    auto kernel = dyn_cast<MatmulKernelOp>(mm);
    Value a = mm->getOperand(0);
    Value bm = mm->getOperand(1);
    Value c = kernel ? kernel.getInit()
                     : cast<linalg::MatmulOp>(mm).getDpsInitOperand(0)->get();
    auto ta = dyn_cast<MemRefType>(a.getType());
    auto tb = dyn_cast<MemRefType>(bm.getType());
    auto tc = dyn_cast<MemRefType>(c.getType());
    if (!ta || !tb || !tc)
      return mm->emitOpError("npu-schedule runs on bufferized IR (memrefs)");
    for (MemRefType t : {ta, tb, tc})
      if (!t.hasStaticShape() || !t.getLayout().isIdentity())
        return mm->emitOpError("SA schedule needs dense, statically shaped "
                               "row-major operands, got ")
               << t;
    // -npu-tile checked the element types (i8 x i8 -> i32 or all f32).
    MLIRContext *ctx = mm->getContext();
    DenseI64ArrayAttr tiles = NpuDialect::TilesAttrHelper(ctx).getAttr(mm);
    IntegerAttr tiledBytes = NpuDialect::L1BytesAttrHelper(ctx).getAttr(mm);
    if (!tiles || tiles.size() != 3 || !tiledBytes)
      return mm->emitOpError("has no tiles: run -npu-tile first");
    const int64_t tm = tiles[0], tn = tiles[1], tk = tiles[2];
    const bool f32 = ta.getElementType().isF32();
    Origin oa = originOf(a), ob = originOf(bm), oc = originOf(c);
    if (!oa.level || !ob.level || !oc.level)
      return mm->emitOpError("operand is not a planned buffer (run "
                             "-npu-materialize-plan before bufferization)");
    if (*oa.level != MemLevel::L2 || *oc.level != MemLevel::L2)
      return mm->emitOpError("the SA schedule reads A and writes C in L2; "
                             "only B (the weights) may be in L3");

    int64_t m = ta.getDimSize(0), k = ta.getDimSize(1), n = tb.getDimSize(1);
    uint32_t flags = f32 ? kF32 : 0;
    bool accumulate =
        !kernel && !NpuDialect::ZeroInitAttrHelper(ctx).isAttrPresent(mm);
    if (accumulate)
      flags |= kAccumulate;
    if (*ob.level == MemLevel::L3) {
      if (injectFault == "l3-as-l2") {
        flags |= kDirectL3;
        usedDirectL3 = true;
      } else {
        flags |= kBInL3;
      }
    }

    // npurt_matmul_panels / npurt_matmul_ep_panels read B in column panels.
    const bool panels = (flags & kBInL3) && packWeightPanels(bm, k, n, tn);

    uint64_t l1Bytes = tiledBytes.getInt();
    // In a training step the fault goes to the first backward kernel (the
    // weight-gradient GEMM with its fused SGD update).
    bool training = NpuDialect::TrainingAttrHelper(ctx).isAttrPresent(module);
    if (injectFault == "unchecked-l1-alloc" && !usedUnchecked &&
        (!training || NpuDialect::SgdUpdateAttrHelper(ctx).isAttrPresent(mm))) {
      // More than L1 holds: npu_l1_malloc returns NULL, used unchecked.
      flags |= kUncheckedL1;
      l1Bytes = l1Size + 4096;
      usedUnchecked = true;
    }

    OpBuilder b(mm);
    Location loc = mm->getLoc();
    Type i32Type = b.getI32Type();
    std::string regionName = layer + ".matmul";
    region(b, loc, regionName, true);
    Value stage =
        (flags & kBInL3) && !stageSymbol.empty()
            ? address(b, loc,
                      b.create<memref::GetGlobalOp>(
                          loc,
                          module.lookupSymbol<memref::GlobalOp>(stageSymbol)
                              .getType(),
                          stageSymbol))
            : i32(b, loc, 0);
    func::CallOp call;
    if (kernel) {
      call = callMatmulEp(b, kernel, flags, m, n, k, tm, tn, tk, l1Bytes, stage,
                          panels);
    } else {
      SmallVector<Type> args(12, i32Type);
      const char *callee = panels ? "npurt_matmul_panels" : "npurt_matmul";
      declare(callee, args, {});
      SmallVector<Value> operands = {address(b, loc, a),
                                     address(b, loc, bm),
                                     address(b, loc, c),
                                     i32(b, loc, m),
                                     i32(b, loc, n),
                                     i32(b, loc, k),
                                     i32(b, loc, tm),
                                     i32(b, loc, tn),
                                     i32(b, loc, tk),
                                     i32(b, loc, flags),
                                     i32(b, loc, static_cast<int64_t>(l1Bytes)),
                                     stage};
      call = b.create<func::CallOp>(loc, callee, TypeRange{}, operands);
    }
    // The tiling decision stays readable in --emit=schedule.
    for (StringAttr attr : {NpuDialect::TilesAttrHelper(ctx).getName(),
                            NpuDialect::ParamsInL2AttrHelper(ctx).getName(),
                            NpuDialect::L1BytesAttrHelper(ctx).getName(),
                            NpuDialect::L1BudgetAttrHelper(ctx).getName(),
                            NpuDialect::SaAttrHelper(ctx).getName()})
      if (Attribute a = mm->getAttr(attr))
        call->setAttr(attr, a);
    region(b, loc, regionName, false, mm);
    mm->erase();
    return success();
  }

  // npurt_matmul_ep's argument block (npurt.h: 32-bit words) in a stack
  // slot of the calling function, one per function (allocated at its entry,
  // so a training loop does not grow the stack), filled before each call.
  func::CallOp callMatmulEp(OpBuilder &b, MatmulKernelOp k, uint32_t flags,
                            int64_t m, int64_t n, int64_t kk, int64_t tm,
                            int64_t tn, int64_t tk, uint64_t l1Bytes,
                            Value stage, bool panels) {
    Location loc = k.getLoc();
    SmallVector<Value> words;
    auto word = [&](int64_t v) { words.push_back(i32(b, loc, v)); };
    auto ptr = [&](Value v) { words.push_back(addressOrNull(b, loc, v)); };
    ptr(k.getA()), ptr(k.getB()), ptr(k.getInit()), ptr(k.getBias()),
        ptr(k.getMult()), ptr(k.getShift());
    word(m), word(n), word(kk), word(tm), word(tn), word(tk);
    word(k.getActMin()), word(k.getActMax());
    if (k.getRelu())
      flags |= kRelu;
    if (NpuDialect::ParamsInL2AttrHelper(k.getContext()).isAttrPresent(k))
      flags |= kParamsInL2;
    if (k.getMult() &&
        cast<ShapedType>(k.getMult().getType()).getNumElements() > 1)
      flags |= kPerChannel;
    word(flags), word(static_cast<int64_t>(l1Bytes));
    words.push_back(stage);
    auto fn = k->getParentOfType<func::FuncOp>();
    auto type =
        MemRefType::get({static_cast<int64_t>(words.size())}, b.getI32Type());
    Value &block = argBlocks[fn];
    if (!block) {
      OpBuilder eb = OpBuilder::atBlockBegin(&fn.getBody().front());
      block = eb.create<memref::AllocaOp>(loc, type, IntegerAttr());
      block.getDefiningOp()->setAttr("alignment", eb.getI64IntegerAttr(4));
    }
    for (auto [i, w] : llvm::enumerate(words))
      b.create<memref::StoreOp>(
          loc, w, block, ValueRange{b.create<arith::ConstantIndexOp>(loc, i)});
    Type i32Type = b.getI32Type();
    const char *callee = panels ? "npurt_matmul_ep_panels" : "npurt_matmul_ep";
    declare(callee, {i32Type}, {});
    return b.create<func::CallOp>(loc, callee, TypeRange{},
                                  ValueRange{address(b, loc, block)});
  }
  llvm::DenseMap<Operation *, Value> argBlocks; // per function

  // One npurt_conv2d / npurt_dwconv2d / npurt_pool2d call with the tiles
  // npu-tile chose; its argument block (npurt_conv.h: 32-bit words) is
  // filled right before the call.
  LogicalResult scheduleConvKernel(ConvKernelOp k, const std::string &layer) {
    MLIRContext *ctx = k.getContext();
    auto memrefOf = [](Value v) {
      return v ? dyn_cast<MemRefType>(v.getType()) : MemRefType();
    };
    auto ti = memrefOf(k.getInput()), to = memrefOf(k.getInit());
    if (!ti || !to)
      return k.emitOpError("npu-schedule runs on bufferized IR (memrefs)");
    for (Value v : k->getOperands()) {
      auto t = memrefOf(v);
      if (!t || !t.hasStaticShape() || !t.getLayout().isIdentity())
        return k.emitOpError("the conv kernels need dense, statically shaped "
                             "operands, got ")
               << v.getType();
      Origin o = originOf(v);
      if (!o.level)
        return k.emitOpError("operand is not a planned buffer (run "
                             "-npu-materialize-plan before bufferization)");
      if (*o.level != MemLevel::L2 &&
          !(faultedWeights == k && v == k.getWeights()))
        return k.emitOpError(
            "the conv kernels read and write L2 (npu-memory-plan "
            "stages L3 tensors into L2 before the call)");
    }
    DenseI64ArrayAttr tiles = NpuDialect::TilesAttrHelper(ctx).getAttr(k);
    IntegerAttr tiledBytes = NpuDialect::L1BytesAttrHelper(ctx).getAttr(k);
    if (!tiles || tiles.size() < 2 || tiles.size() > 3 || !tiledBytes)
      return k.emitOpError("has no tiles: run -npu-tile first");
    // A third tile size, the K chunk: npurt_conv2d_ksplit.
    const bool ksplit = tiles.size() == 3;
    const bool f32 = ti.getElementType().isF32();
    StringRef kernel = k.getKernel();
    uint32_t flags = f32 ? kF32 : 0;
    if (!f32 && k.getMult())
      flags |= kConvPerChannel;
    if (k.getRelu())
      flags |= kConvRelu;
    uint64_t l1Bytes = tiledBytes.getInt();
    if (injectFault == "unchecked-l1-alloc" && !usedUnchecked) {
      flags |= kUncheckedL1;
      l1Bytes = l1Size + 4096;
      usedUnchecked = true;
    }

    OpBuilder b(k);
    Location loc = k.getLoc();
    SmallVector<Value> words;
    auto word = [&](int64_t v) { words.push_back(i32(b, loc, v)); };
    auto ptr = [&](Value v) { words.push_back(addressOrNull(b, loc, v)); };
    ArrayRef<int64_t> in = ti.getShape(); // [1, h, w, c]
    ArrayRef<int64_t> win = k.getWindow(), st = k.getStrides(),
                      dil = k.getDilations(), pad = k.getPadding();
    // A depthwise or pooling layer's channel tile below its channels: the
    // channel-slicing kernel (its argument block ends with the slice).
    const bool csplit = kernel != "conv2d" && tiles[1] < in[3];
    std::string fn;
    if (kernel == "conv2d") {
      fn = !ksplit ? "npurt_conv2d"
           : f32   ? "npurt_conv2d_ksplit"
                   : "npurt_conv2d_ksplit_i8";
      ptr(k.getInput()), ptr(k.getWeights()), ptr(k.getBias()),
          ptr(k.getMult()), ptr(k.getShift()), ptr(k.getResidual()),
          ptr(k.getInit());
      word(in[1]), word(in[2]), word(in[3]), word(to.getDimSize(3));
    } else if (kernel == "dwconv2d") {
      fn = csplit ? "npurt_dwconv2d_csplit" : "npurt_dwconv2d";
      ptr(k.getInput()), ptr(k.getWeights()), ptr(k.getBias()),
          ptr(k.getMult()), ptr(k.getShift()), ptr(k.getInit());
      word(in[1]), word(in[2]), word(in[3]);
    } else {
      fn = csplit ? "npurt_pool2d_csplit" : "npurt_pool2d";
      ptr(k.getInput()), ptr(k.getInit());
      word(in[1]), word(in[2]), word(in[3]);
    }
    word(win[0]), word(win[1]), word(st[0]), word(st[1]);
    if (kernel != "avgpool2d")
      word(dil[0]), word(dil[1]);
    word(pad[0]), word(pad[1]), word(pad[2]), word(pad[3]);
    if (kernel == "avgpool2d") {
      float divisor = k.getDivisor().convertToFloat();
      uint32_t bits;
      std::memcpy(&bits, &divisor, 4);
      word(kPoolAvg), word(k.getPoolMult()), word(k.getPoolShift());
      word(k.getActMin()), word(k.getActMax());
      word(static_cast<int32_t>(bits));
    } else {
      word(k.getActMin()), word(k.getActMax());
    }
    if (kernel == "conv2d")
      word(k.getResMult()), word(k.getResShift());
    word(tiles[0]);
    if (kernel == "conv2d")
      word(tiles[1]);
    word(flags), word(static_cast<int64_t>(l1Bytes)), word(0);
    if (ksplit)
      word(tiles[2]);
    if (csplit)
      word(tiles[1]);

    std::string regionName = layer + "." + kernel.str();
    region(b, loc, regionName, true);
    // One block for every call (they run one after the other on the
    // controller), in L1 .bss: not on the controller's stack, which the
    // kernels' call chain nearly fills (a block there overflowed it into the
    // tile buffers: MobileNet at 64 KiB of L1), and not in L2, where the
    // workers' reads of it in the epilogue loops cost ~10 % of the cycles.
    constexpr int64_t kArgsWords = 32;
    if (static_cast<int64_t>(words.size()) > kArgsWords)
      return k.emitOpError("internal error: ")
             << words.size() << " argument words";
    auto argsType = MemRefType::get({kArgsWords}, b.getI32Type());
    StringRef argsSymbol = "npu_conv_args";
    if (!module.lookupSymbol(argsSymbol)) {
      OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
      auto global = mb.create<memref::GlobalOp>(
          loc, argsSymbol, mb.getStringAttr("private"), argsType,
          mb.getUnitAttr(), /*constant=*/false, mb.getI64IntegerAttr(4));
      NpuDialect::SectionAttrHelper(ctx).setAttr(global,
                                                 mb.getStringAttr(".l1.bss"));
    }
    Value block = b.create<memref::GetGlobalOp>(loc, argsType, argsSymbol);
    for (auto [i, w] : llvm::enumerate(words))
      b.create<memref::StoreOp>(
          loc, w, block, ValueRange{b.create<arith::ConstantIndexOp>(loc, i)});
    Type i32Type = b.getI32Type();
    declare(fn, {i32Type}, {});
    auto call = b.create<func::CallOp>(loc, fn, TypeRange{},
                                       ValueRange{address(b, loc, block)});
    for (StringAttr attr : {NpuDialect::TilesAttrHelper(ctx).getName(),
                            NpuDialect::L1BytesAttrHelper(ctx).getName(),
                            NpuDialect::L1BudgetAttrHelper(ctx).getName()})
      if (Attribute a = k->getAttr(attr))
        call->setAttr(attr, a);
    region(b, loc, regionName, false, k);
    k.erase();
    return success();
  }

  // inject-fault=data-input-count: the optimizer's copy-out of a training
  // step (the write-back of an updated L3 weight, npu.sgd_update) indexes
  // the step's slot table [data inputs..., weights...] as if the step had
  // one data input where it has two, so weight k lands in slot k - 1 of the
  // weights (weight 0 in the step's labels slot), as many bytes as that
  // slot holds. Returns the slot written instead, or none.
  std::optional<PlacementAttr> shiftedWriteBack(linalg::CopyOp copy) {
    MLIRContext *ctx = copy.getContext();
    if (injectFault != "data-input-count" ||
        !NpuDialect::SgdUpdateAttrHelper(ctx).isAttrPresent(copy))
      return std::nullopt;
    auto training = NpuDialect::TrainingAttrHelper(ctx).getAttr(module);
    auto inputs = NpuDialect::InputsAttrHelper(ctx).getAttr(module);
    auto outputs = NpuDialect::OutputsAttrHelper(ctx).getAttr(module);
    Origin dst = originOf(copy.getDpsInitOperand(0)->get());
    if (!training || !inputs || !outputs || !dst.offset)
      return std::nullopt;
    int64_t steps = training.getAs<IntegerAttr>("steps").getInt();
    int64_t dataInputs = training.getAs<IntegerAttr>("data_inputs").getInt();
    // The trained weights are the outputs after steps.done and the losses,
    // in order.
    SmallVector<PlacementAttr> weights;
    for (Attribute a : outputs.getValue().drop_front(steps + 1))
      weights.push_back(cast<PlacementAttr>(a));
    auto k = llvm::find_if(weights,
                           [&](PlacementAttr p) {
                             return static_cast<int64_t>(p.getAddress()) ==
                                    *dst.offset;
                           }) -
             weights.begin();
    if (k == static_cast<int64_t>(weights.size()) || dataInputs < 2)
      return std::nullopt;
    int64_t step = writeBacks++ / static_cast<int64_t>(weights.size());
    usedDataInputCount = true;
    if (k > 0)
      return weights[k - 1];
    return cast<PlacementAttr>(inputs[step * dataInputs + dataInputs - 1]);
  }

  // The DMA transfer of a copy between levels (one end in L3).
  LogicalResult scheduleCopy(linalg::CopyOp copy, const std::string &layer) {
    Value src = copy.getDpsInputOperand(0)->get();
    Value dst = copy.getDpsInitOperand(0)->get();
    auto ts = cast<MemRefType>(src.getType());
    auto td = cast<MemRefType>(dst.getType());
    if (!ts.hasStaticShape() || !ts.getLayout().isIdentity() ||
        !td.getLayout().isIdentity() || ts.getShape() != td.getShape() ||
        ts.getElementType() != td.getElementType())
      return copy.emitOpError(
          "a DMA copy needs two dense buffers of the same type");
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    Type i32Type = b.getI32Type();
    declare("npurt_copy", {i32Type, i32Type, i32Type}, {});
    int64_t bytes = ts.getNumElements() * elementBytes(ts.getElementType());
    region(b, loc, layer + ".stage", true);
    Value to = address(b, loc, dst);
    if (std::optional<PlacementAttr> slot = shiftedWriteBack(copy)) {
      to = i32(b, loc, slot->getAddress());
      bytes = slot->getSize();
    }
    SmallVector<Value, 3> args{to, address(b, loc, src), i32(b, loc, bytes)};
    if (asyncStaging) {
      // The memory plan put an activation's copy from L3 before the layer
      // preceding its reader, and its reader right after its producer
      // reads the L2 result: a write-back runs while the next layer
      // computes.
      declare("npurt_copy_start", {i32Type, i32Type, i32Type}, {i32Type});
      declare("npurt_copy_wait", {i32Type}, {});
      Value ids = b.create<func::CallOp>(loc, "npurt_copy_start",
                                         TypeRange{i32Type}, args)
                      .getResult(0);
      Operation *at = firstConflict(copy);
      OpBuilder wb = at ? OpBuilder(at) : b;
      wb.create<func::CallOp>(loc, "npurt_copy_wait", TypeRange{},
                              ValueRange{ids});
    } else if (std::optional<Operation *> reader = l3ToL2Reader(copy)) {
      // Into L2 from L3: in pieces on parallel channels (one channel is
      // bound by L3's latency). When the memory plan put the copy before an
      // earlier layer, it runs while that layer computes and its reader
      // waits for it; otherwise right here.
      declare("npurt_copy_start", {i32Type, i32Type, i32Type}, {i32Type});
      declare("npurt_copy_wait", {i32Type}, {});
      Value ids = b.create<func::CallOp>(loc, "npurt_copy_start",
                                         TypeRange{i32Type}, args)
                      .getResult(0);
      OpBuilder wb = *reader ? OpBuilder(*reader) : b;
      wb.create<func::CallOp>(loc, "npurt_copy_wait", TypeRange{},
                              ValueRange{ids});
    } else {
      b.create<func::CallOp>(loc, "npurt_copy", TypeRange{}, args);
    }
    region(b, loc, layer + ".stage", false, copy);
    copy.erase();
    return success();
  }

  // For a copy from L3 into L2: its buffer's first reader when a layer
  // computes between the copy and it (a weight the memory plan prefetches),
  // else null. None for other copies.
  std::optional<Operation *> l3ToL2Reader(linalg::CopyOp copy) {
    Origin from = originOf(copy.getDpsInputOperand(0)->get());
    Origin to = originOf(copy.getDpsInitOperand(0)->get());
    if (from.level != MemLevel::L3 || to.level != MemLevel::L2 || !to.offset)
      return std::nullopt;
    bool layerBetween = false;
    for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
      if (llvm::any_of(op->getOperands(), [&](Value v) {
            Origin o = originOf(v);
            return o.level == to.level && o.offset == to.offset;
          }))
        return layerBetween ? op : nullptr;
      if (isa<linalg::LinalgOp, ConvKernelOp, MatmulKernelOp>(op) &&
          !isa<linalg::CopyOp>(op))
        layerBetween = true;
    }
    return nullptr;
  }

  // Outlines a linalg op into @npu_worker_<i>() and runs it on every
  // worker; each takes a contiguous slice of loop npu.split_dim (a parallel
  // loop, so a reduction runs whole inside each slice, in program order).
  // npu.split_dim = -1: worker 0 runs it all, the others return.
  LogicalResult scheduleElementwise(linalg::LinalgOp op,
                                    const std::string &layer) {
    if (!op.hasPureBufferSemantics())
      return op->emitOpError("npu-schedule runs on bufferized IR (memrefs)");
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    NpuDialect::SplitDimAttrHelper splitDim(op->getContext());
    IntegerAttr split = splitDim.getAttr(op);
    if (!split || split.getInt() < -1 ||
        split.getInt() >= static_cast<int64_t>(ranges.size()) ||
        (split.getInt() >= 0 && ShapedType::isDynamic(ranges[split.getInt()])))
      return op->emitOpError("has no worker split: run -npu-tile first");
    const bool whole = split.getInt() < 0;
    unsigned dim = whole ? 0 : split.getInt();
    if (!whole &&
        op.getIteratorTypesArray()[dim] != utils::IteratorType::parallel)
      return op->emitOpError("npu.split_dim ")
             << dim << " is a reduction loop: the workers split a parallel one";

    Location loc = op.getLoc();
    MLIRContext *ctx = module.getContext();
    std::string fnName = "npu_worker_" + std::to_string(workerIndex++);
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    auto fn =
        mb.create<func::FuncOp>(loc, fnName, FunctionType::get(ctx, {}, {}));
    fn.setPrivate();
    Block *entry = fn.addEntryBlock();
    OpBuilder wb = OpBuilder::atBlockBegin(entry);

    // The worker rebuilds its operands from the (static) plan views and the
    // constants the op's body captures.
    IRMapping map;
    std::function<LogicalResult(Value)> cloneChain =
        [&](Value v) -> LogicalResult {
      if (map.contains(v))
        return success();
      Operation *def = v.getDefiningOp();
      if (!def || def->getNumRegions() != 0 || !isPure(def))
        return op->emitOpError("an operand or captured value is not a "
                               "constant or a buffer of the memory plan");
      for (Value operand : def->getOperands())
        if (failed(cloneChain(operand)))
          return failure();
      wb.clone(*def, map);
      return success();
    };
    for (Value operand : op->getOperands())
      if (failed(cloneChain(operand)))
        return failure();
    llvm::SetVector<Value> captured;
    getUsedValuesDefinedAbove(op->getRegions(), captured);
    for (Value v : captured)
      if (failed(cloneChain(v)))
        return failure();

    Type i32Type = wb.getI32Type();
    declare("npurt_worker_id", {}, {i32Type});
    declare("npurt_num_workers", {}, {i32Type});
    auto toIndex = [&](Value v) {
      return wb.create<arith::IndexCastUIOp>(loc, wb.getIndexType(), v)
          .getResult();
    };
    Value id = toIndex(wb.create<func::CallOp>(loc, "npurt_worker_id",
                                               TypeRange{i32Type}, ValueRange{})
                           .getResult(0));
    Value count =
        toIndex(wb.create<func::CallOp>(loc, "npurt_num_workers",
                                        TypeRange{i32Type}, ValueRange{})
                    .getResult(0));
    if (whole) {
      // One worker: the others skip the op.
      Value zero = wb.create<arith::ConstantIndexOp>(loc, 0);
      auto first = wb.create<scf::IfOp>(
          loc,
          wb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, id, zero),
          /*withElseRegion=*/false);
      OpBuilder tb = first.getThenBodyBuilder();
      Operation *clone = tb.clone(*op.getOperation(), map);
      clone->removeAttr(kPlacementAttrName);
      splitDim.removeAttr(clone);
    } else {
      Value range = wb.create<arith::ConstantIndexOp>(loc, ranges[dim]);
      // ceil(range / count), spelled out: arith.ceildivui needs arith-expand.
      Value one = wb.create<arith::ConstantIndexOp>(loc, 1);
      Value chunk = wb.create<arith::DivUIOp>(
          loc,
          wb.create<arith::SubIOp>(
              loc, wb.create<arith::AddIOp>(loc, range, count), one),
          count);
      Value lo = wb.create<arith::MinUIOp>(
          loc, wb.create<arith::MulIOp>(loc, id, chunk), range);
      Value hi = wb.create<arith::MinUIOp>(
          loc, wb.create<arith::AddIOp>(loc, lo, chunk), range);
      Value size = wb.create<arith::SubIOp>(loc, hi, lo);

      SmallVector<Value> sliced;
      AffineExpr d = wb.getAffineDimExpr(dim);
      for (OpOperand &operand : op->getOpOperands()) {
        Value v = map.lookup(operand.get());
        auto type = dyn_cast<MemRefType>(v.getType());
        if (!type) {
          sliced.push_back(v);
          continue;
        }
        AffineMap indexing = op.getMatchingIndexingMap(&operand);
        std::optional<unsigned> pos;
        for (unsigned r = 0; r < indexing.getNumResults(); ++r)
          if (indexing.getResult(r) == d)
            pos = r;
        if (!pos) {
          sliced.push_back(v);
          continue;
        }
        SmallVector<OpFoldResult> offsets, sizes, strides;
        for (unsigned r = 0; r < type.getRank(); ++r) {
          offsets.push_back(r == *pos ? OpFoldResult(lo) : wb.getIndexAttr(0));
          sizes.push_back(r == *pos ? OpFoldResult(size)
                                    : wb.getIndexAttr(type.getDimSize(r)));
          strides.push_back(wb.getIndexAttr(1));
        }
        sliced.push_back(
            wb.create<memref::SubViewOp>(loc, v, offsets, sizes, strides));
      }
      Operation *clone = wb.clone(*op.getOperation(), map);
      for (auto [i, v] : llvm::enumerate(sliced))
        clone->setOperand(i, v);
      clone->removeAttr(kPlacementAttrName);
      splitDim.removeAttr(clone);
    }
    wb.create<func::ReturnOp>(loc);

    OpBuilder b(op);
    auto fnType = fn.getFunctionType();
    declare("npurt_parallel", {fnType}, {});
    std::string regionName = layer + "." + op->getName().stripDialect().str();
    region(b, loc, regionName, true);
    Value fnRef =
        b.create<func::ConstantOp>(loc, fnType, SymbolRefAttr::get(fn));
    auto call = b.create<func::CallOp>(loc, "npurt_parallel", TypeRange{},
                                       ValueRange{fnRef});
    splitDim.setAttr(call, b.getI64IntegerAttr(dim));
    region(b, loc, regionName, false, op);
    op->erase();
    return success();
  }

  // Two K x tn panels for the largest L3-weight matmul, placed right below
  // the lowest planned L2 buffer; npuc moves the heap's end below it.
  LogicalResult planStage() {
    if (injectFault == "l3-as-l2")
      return success(); // the fault is that nothing is staged
    uint64_t need = 0;
    Operation *neediest = nullptr; // the matmul whose panels set `need`
    module.walk([&](Operation *mm) {
      if (!isa<linalg::MatmulOp, MatmulKernelOp>(mm))
        return;
      Value bm = mm->getOperand(1);
      auto tb = dyn_cast<MemRefType>(bm.getType());
      DenseI64ArrayAttr tiles =
          NpuDialect::TilesAttrHelper(mm->getContext()).getAttr(mm);
      if (!tb || !tb.hasStaticShape() || !tiles || tiles.size() != 3 ||
          originOf(bm).level != MemLevel::L3)
        return;
      uint64_t panels =
          2 * tb.getDimSize(0) * tiles[1] * elementBytes(tb.getElementType());
      if (panels > need)
        need = panels, neediest = mm;
    });
    if (need == 0)
      return success();
    const auto [l2Base, lowest] = l2PlanBounds(module);
    if (!lowest || !l2Base)
      return module.emitError(
          "npu-schedule: no L2 memory plan to place the L3 staging buffer "
          "below (run -npu-memory-plan / -npu-materialize-plan first)");
    uint64_t address = llvm::alignDown(*lowest - need, 64);
    if (*lowest < need || address < l2Base) {
      // At the matmul that needs it, with its panels' shape and the ways
      // out (npu-tile already took the narrowest panels it could).
      auto tb = cast<MemRefType>(neediest->getOperand(1).getType());
      DenseI64ArrayAttr tiles =
          NpuDialect::TilesAttrHelper(neediest->getContext()).getAttr(neediest);
      std::string element;
      llvm::raw_string_ostream(element) << tb.getElementType();
      return neediest->emitOpError("the L2 staging buffer for L3 weights (")
             << need << " bytes: two " << tb.getDimSize(0) << " x " << tiles[1]
             << " " << element << " panels of B, tiles " << tiles[0] << "x"
             << tiles[1] << "x" << tiles[2] << ") does not fit in the "
             << (*lowest > l2Base ? *lowest - l2Base : 0)
             << " bytes of L2 below the memory plan: pin a narrower tn "
                "(npuc --tile <region>=<tm>x<tn>x<tk>), place the weights in "
                "L2, or raise l2.size";
    }
    OpBuilder mb = OpBuilder::atBlockEnd(module.getBody());
    stageSymbol = "npu_l2_stage";
    auto global = mb.create<memref::GlobalOp>(
        module.getLoc(), stageSymbol, mb.getStringAttr("public"),
        MemRefType::get({static_cast<int64_t>(need)}, mb.getI8Type()),
        Attribute(),
        /*constant=*/false, IntegerAttr());
    global->setAttr(
        kPlacementAttrName,
        PlacementAttr::get(module.getContext(), MemLevel::L2, address, need));
    return success();
  }
};

LogicalResult mlir::npu::lowerToSystolicArray(Scheduler &scheduler,
                                              Operation *op,
                                              const std::string &layer) {
  return scheduler.scheduleMatmul(op, layer);
}

LogicalResult mlir::npu::lowerConvKernel(Scheduler &scheduler, Operation *op,
                                         const std::string &layer) {
  return scheduler.scheduleConvKernel(cast<ConvKernelOp>(op), layer);
}

LogicalResult mlir::npu::lowerToWorkers(Scheduler &scheduler, Operation *op,
                                        const std::string &layer) {
  return scheduler.scheduleElementwise(cast<linalg::LinalgOp>(op), layer);
}

// A copy with an end in L3 is a DMA transfer (the cores cannot reach L3);
// any other copy is elementwise work.
LogicalResult mlir::npu::lowerCopy(Scheduler &scheduler, Operation *op,
                                   const std::string &layer) {
  auto copy = cast<linalg::CopyOp>(op);
  if (originOf(copy.getDpsInputOperand(0)->get()).level == MemLevel::L3 ||
      originOf(copy.getDpsInitOperand(0)->get()).level == MemLevel::L3)
    return scheduler.scheduleCopy(copy, layer);
  return scheduler.scheduleElementwise(copy, layer);
}

namespace {

struct NpuSchedulePass
    : public mlir::npu::impl::NpuScheduleBase<NpuSchedulePass> {
  using NpuScheduleBase::NpuScheduleBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!injectFault.empty() && injectFault != "l3-as-l2" &&
        injectFault != "unchecked-l1-alloc" &&
        injectFault != "data-input-count") {
      module.emitError("npu-schedule: unknown inject-fault '")
          << injectFault
          << "' (l3-as-l2, unchecked-l1-alloc, data-input-count)";
      return signalPassFailure();
    }
    auto target = TargetAttr::lookup(module);
    if (!target) {
      module.emitError("no platform: run -npu-attach-target first");
      return signalPassFailure();
    }
    Scheduler scheduler(module, injectFault, target.getL1Size());
    if (failed(scheduler.planStage()))
      return signalPassFailure();

    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal() && !f.getSymName().starts_with("npu_worker_"))
        funcs.push_back(f);
    bool ok = true;
    for (func::FuncOp f : funcs) {
      const bool hasConv =
          f.walk([](ConvKernelOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      scheduler.asyncStaging =
          hasConv && !NpuDialect::TrainingAttrHelper(module.getContext())
                           .isAttrPresent(module);
      // A zero fill of the accumulator right before a matmul becomes the
      // first SA job's "C = A*B" (no accumulate): no pass over C on the cores.
      f.walk([&](linalg::MatmulOp mm) {
        Value c = mm.getDpsInitOperand(0)->get();
        // Between the fill and the matmul there may be staging copies of
        // the other operands (into other buffers) and pure ops.
        Operation *prev = mm->getPrevNode();
        while (prev && !isa<linalg::FillOp>(prev)) {
          auto copy = dyn_cast<linalg::CopyOp>(prev);
          bool other =
              copy && originOf(copy.getDpsInitOperand(0)->get()).offset !=
                          originOf(c).offset;
          if (!other && !isPure(prev))
            break;
          prev = prev->getPrevNode();
        }
        auto fill = dyn_cast_or_null<linalg::FillOp>(prev);
        if (!fill || !fill.hasPureBufferSemantics())
          return;
        Value init = fill.getDpsInitOperand(0)->get();
        Origin of = originOf(init), oc = originOf(c);
        Value v = fill.getDpsInputOperand(0)->get();
        auto ivalue = getConstantIntValue(v);
        auto fvalue = v.getDefiningOp<arith::ConstantFloatOp>();
        bool zero =
            (ivalue && *ivalue == 0) ||
            (fvalue && fvalue.value().isZero() && !fvalue.value().isNegative());
        if (zero && of.level && of.level == oc.level && of.offset &&
            of.offset == oc.offset && init.getType() == c.getType()) {
          fill.erase();
          NpuDialect::ZeroInitAttrHelper(mm.getContext())
              .setAttr(mm, UnitAttr::get(mm.getContext()));
        }
      });
      // Materializing an output that already lives in its buffer leaves a
      // copy of a buffer onto itself.
      f.walk([&](memref::CopyOp copy) {
        Origin src = originOf(copy.getSource()),
               dst = originOf(copy.getTarget());
        if (src.level && src.offset && src.level == dst.level &&
            src.offset == dst.offset &&
            copy.getSource().getType() == copy.getTarget().getType())
          copy.erase();
      });
      scheduler.dropFirstConvWeightStaging(f);
      SmallVector<Operation *> work;
      f.walk([&](Operation *op) {
        if (isa<linalg::LinalgOp, ConvKernelOp, MatmulKernelOp>(op))
          work.push_back(op);
      });
      unsigned layerIndex = 0;
      bool seenLayerStart = false;
      for (Operation *op : work) {
        const OpEntry *entry = lookupOp(op);
        if (!entry || !entry->lower) {
          op->emitOpError("has no lowering in npu-schedule (npuc compiles: ")
              << supportedOpList() << ")";
          ok = false;
          continue;
        }
        if (entry->startsLayer) {
          ++layerIndex;
          seenLayerStart = true;
        }
        std::string layer =
            "layer" + std::to_string(seenLayerStart ? layerIndex : 1);
        ok &= succeeded(entry->lower(scheduler, op, layer));
      }
    }
    if (ok && injectFault == "l3-as-l2" && !scheduler.usedDirectL3) {
      module.emitError("inject-fault=l3-as-l2 needs a matmul weight in L3 "
                       "(compile with --default-mem-level=L3)");
      ok = false;
    }
    if (ok && injectFault == "unchecked-l1-alloc" && !scheduler.usedUnchecked) {
      module.emitError("inject-fault=unchecked-l1-alloc needs a linalg.matmul "
                       "or a convolution layer");
      ok = false;
    }
    if (ok && injectFault == "data-input-count" &&
        !scheduler.usedDataInputCount) {
      module.emitError("inject-fault=data-input-count needs a training step "
                       "(npuc --train) with labels and weights in L3 (the "
                       "optimizer's copy-out: --default-mem-level=L3)");
      ok = false;
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
