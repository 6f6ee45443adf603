// npu-tile: decides the tiles, before anything is scheduled. A matmul gets
// the SA tile sizes whose double-buffered L1 working set fits the L1 budget;
// an elementwise op gets the loop the workers split. The decisions are
// attributes (printable with npuc --emit=tiled) that npu-schedule executes.
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "npu_l1_plan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUTILE
#include "npu/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;
using namespace mlir::npu;

namespace {

uint64_t elementBytes(Type t) { return (t.getIntOrFloatBitWidth() + 7) / 8; }

struct Tiles {
  int64_t tm = 0, tn = 0, tk = 0;
  uint64_t l1Bytes = 0;
};

// The runtime's L1 layout (npu_l1_plan.h), in 64 bits.
uint64_t workingSet(int64_t tm, int64_t tn, int64_t tk, uint64_t ea,
                    uint64_t eb, uint64_t ec) {
  return NPU_L1_WORKING_SET(tm, tn, tk, ea, eb, ec);
}

// Sizes along one dimension: multiples of the array's extent, or the whole
// dimension (the edge tile takes the remainder).
SmallVector<int64_t> candidates(int64_t dim, int64_t unit) {
  SmallVector<int64_t> out;
  for (int64_t t = unit; t < dim; t += unit)
    out.push_back(t);
  out.push_back(dim);
  return out;
}

// The largest tile volume whose double-buffered working set fits, ties
// broken towards a larger tk (fewer re-accumulations) then tn.
std::optional<Tiles> chooseTiles(int64_t m, int64_t n, int64_t k, uint64_t ea,
                                 uint64_t eb, uint64_t ec, int64_t rows,
                                 int64_t cols, uint64_t budget) {
  std::optional<Tiles> best;
  for (int64_t tk : candidates(k, rows))
    for (int64_t tn : candidates(n, cols)) {
      if (workingSet(1, tn, tk, ea, eb, ec) > budget)
        continue;
      // The largest tm that fits for this (tn, tk).
      int64_t lo = 1, hi = m;
      while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (workingSet(mid, tn, tk, ea, eb, ec) <= budget)
          lo = mid;
        else
          hi = mid - 1;
      }
      Tiles t{lo, tn, tk, workingSet(lo, tn, tk, ea, eb, ec)};
      auto volume = [](const Tiles &x) { return x.tm * x.tn * x.tk; };
      if (!best || volume(t) > volume(*best) ||
          (volume(t) == volume(*best) &&
           (t.tk > best->tk || (t.tk == best->tk && t.tn > best->tn))))
        best = t;
    }
  return best;
}

struct NpuTilePass : public mlir::npu::impl::NpuTileBase<NpuTilePass> {
  using NpuTileBase::NpuTileBase;

  LogicalResult tileMatmul(linalg::MatmulOp mm, uint64_t budget, int64_t rows,
                           int64_t cols) {
    auto shaped = [](Value v) { return dyn_cast<ShapedType>(v.getType()); };
    ShapedType ta = shaped(mm.getDpsInputOperand(0)->get());
    ShapedType tb = shaped(mm.getDpsInputOperand(1)->get());
    ShapedType tc = shaped(mm.getDpsInitOperand(0)->get());
    if (!ta || !tb || !tc || !ta.hasStaticShape() || !tb.hasStaticShape() ||
        !tc.hasStaticShape())
      return mm.emitOpError("tiling needs statically shaped operands");
    Type ea = ta.getElementType(), eb = tb.getElementType(), ec = tc.getElementType();
    bool f32 = ea.isF32() && eb.isF32() && ec.isF32();
    bool i8 = ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32);
    if (!f32 && !i8)
      return mm.emitOpError("the SA computes i8 x i8 -> i32 or f32 x f32 -> "
                            "f32, not ")
             << ea << " x " << eb << " -> " << ec;
    int64_t m = ta.getDimSize(0), k = ta.getDimSize(1), n = tb.getDimSize(1);
    std::optional<Tiles> tiles;
    // A user's choice (npu.tiles on the matmul in the input, like npu.mem
    // for the plan) is kept if the SA and L1 can take it: for exploring.
    NpuDialect::TilesAttrHelper tilesAttr(mm.getContext());
    if (DenseI64ArrayAttr given = tilesAttr.getAttr(mm)) {
      if (given.size() != 3 || given[0] < 1 || given[0] > m || given[1] < 1 ||
          given[1] > n || given[2] < 1 || given[2] > k)
        return mm.emitOpError("npu.tiles must be [tm, tn, tk] with 1 <= tm <= ")
               << m << ", 1 <= tn <= " << n << ", 1 <= tk <= " << k;
      if ((given[1] % cols && given[1] != n) || (given[2] % rows && given[2] != k))
        return mm.emitOpError("npu.tiles: tn must be a multiple of the SA's ")
               << cols << " columns (or N), tk of its " << rows << " rows (or K)";
      uint64_t bytes = workingSet(given[0], given[1], given[2], elementBytes(ea),
                                  elementBytes(eb), elementBytes(ec));
      if (bytes > budget)
        return mm.emitOpError("npu.tiles [")
               << given[0] << ", " << given[1] << ", " << given[2] << "] need " << bytes
               << " bytes of L1 (double-buffered), the budget is " << budget;
      tiles = Tiles{given[0], given[1], given[2], bytes};
    } else {
      tiles = chooseTiles(m, n, k, elementBytes(ea), elementBytes(eb),
                          elementBytes(ec), rows, cols, budget);
    }
    if (!tiles)
      return mm.emitOpError("the L1 budget of ")
             << budget << " bytes cannot hold the smallest double-buffered "
             << "tile (" << workingSet(1, std::min(n, cols), std::min(k, rows),
                                       elementBytes(ea), elementBytes(eb),
                                       elementBytes(ec))
             << " bytes): raise l1.size or lower firmware.stack_size";
    Builder b(mm.getContext());
    MLIRContext *ctx = mm.getContext();
    tilesAttr.setAttr(mm, b.getDenseI64ArrayAttr({tiles->tm, tiles->tn, tiles->tk}));
    NpuDialect::L1BytesAttrHelper(ctx).setAttr(mm, b.getI64IntegerAttr(tiles->l1Bytes));
    NpuDialect::L1BudgetAttrHelper(ctx).setAttr(mm, b.getI64IntegerAttr(budget));
    NpuDialect::SaAttrHelper(ctx).setAttr(mm, b.getDenseI64ArrayAttr({rows, cols}));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = TargetAttr::lookup(module);
    if (!target) {
      module.emitError("no platform: run -npu-attach-target first");
      return signalPassFailure();
    }
    const uint64_t l1Size = target.getL1Size(), stacks = target.getStacksBytes();
    const int64_t rows = static_cast<int64_t>(target.getSaRows());
    const int64_t cols = static_cast<int64_t>(target.getSaCols());
    if (stacks + l1Reserve >= l1Size) {
      // Located at the first op that needs L1 tiles, not at the module's
      // unknown location, with the keys that make room.
      Operation *at = module;
      module.walk([&](linalg::LinalgOp op) {
        at = op;
        return WalkResult::interrupt();
      });
      at->emitError("L1 (")
          << l1Size << " bytes) holds no tile buffers after the hart stacks ("
          << stacks << " bytes) and l1-reserve (" << static_cast<uint64_t>(l1Reserve)
          << " bytes): lower firmware.stack_size (npuc --set "
             "firmware.stack_size=...) or raise l1.size";
      return signalPassFailure();
    }
    const uint64_t budget = l1Size - stacks - l1Reserve;

    bool ok = true;
    Builder b(module.getContext());
    module.walk([&](linalg::LinalgOp op) {
      if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        ok &= succeeded(tileMatmul(mm, budget, rows, cols));
        return;
      }
      // Elementwise work (staging copies go to the DMA): the workers split
      // the largest parallel loop, each taking one contiguous slice.
      if (isStagingCopy(op) || op.getNumReductionLoops() != 0)
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (ranges.empty() || llvm::any_of(ranges, ShapedType::isDynamic))
        return;
      int64_t dim = std::max_element(ranges.begin(), ranges.end()) - ranges.begin();
      NpuDialect::SplitDimAttrHelper(b.getContext()).setAttr(op, b.getI64IntegerAttr(dim));
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
