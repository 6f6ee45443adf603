// npu-tile: decides the tiles, before anything is scheduled. A matmul gets
// the SA tile sizes whose double-buffered L1 working set fits the L1 budget;
// an elementwise op gets the loop the workers split. The decisions are
// attributes (printable with npuc --emit=tiled) that npu-schedule executes.
#include "OpRegistry.h"
#include "npu/Analysis/BufferKind.h"
#include "npu/Dialect/Npu/NpuDialect.h"
#include "npu/Transforms/Passes.h"

#include "npu_conv_l1_plan.h"
#include "npu_l1_plan.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MathExtras.h"
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
  double cost = 0; // chooseTiles' cost model
};

// A fused dense layer's epilogue (npu.matmul_kernel -> npurt_matmul_ep):
// what its L1 buffers depend on. eo = 0: a plain matmul.
struct EpilogueL1 {
  uint64_t eo = 0; // output element bytes
  uint64_t n = 0;  // output channels (the parameters are loaded whole)
  bool bias = false, perChannel = false;
};

// The same epilogue with its parameters read from L2 (no L1 copy).
EpilogueL1 withoutParams(EpilogueL1 ep) {
  ep.bias = ep.perChannel = false;
  return ep;
}

// The runtime's L1 layout (npu_l1_plan.h), in 64 bits.
uint64_t workingSet(int64_t tm, int64_t tn, int64_t tk, uint64_t ea,
                    uint64_t eb, uint64_t ec, const EpilogueL1 &ep) {
  uint64_t bytes = NPU_L1_WORKING_SET(tm, tn, tk, ea, eb, ec);
  if (ep.eo)
    bytes += NPU_L1_EPILOGUE_BYTES(uint64_t(tm), uint64_t(tn), ep.eo, ep.n,
                                   ep.bias, ep.perChannel);
  return bytes;
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

// The conv tilers' cost model, in cycles: the bytes the DMA moves at the
// cluster DMA's 8 bytes per cycle (L2 <-> L1, docs/memory-map.md) plus a
// fixed cost per pipeline step (an SA job, the DMA programming of its tiles,
// the waits). The SA's own work is the same for every tiling (its folds are
// whole multiples of the array wherever the tiles are), so it is left out.
// (The matmul tiler's model, matmulCost below, follows its pipeline.)
constexpr double kDmaBytesPerCycle = 8.0;
constexpr double kStepCycles = 2000.0;
double tilingCost(double dmaBytes, double steps) {
  return dmaBytes / kDmaBytesPerCycle + kStepCycles * steps;
}

// The matmul tiler's cost model, in cycles: npurt_matmul's pipeline
// (compiler/runtime/npurt.c) as it runs. It steps k fastest, then m, then
// n; each step is one SA job on an A and a B tile, whose DMA loads overlap
// the previous step's job, and a fused layer's epilogue of a finished C
// tile runs on the workers while the SA computes the next step. So:
//   fill       the first step's A and B tiles, which nothing overlaps
//   + sum over steps of max(SA job, DMA of the next step's tiles)
//     + kMatmulStepCycles
//   + per C tile, the part of its epilogue the next step's job does not hide
//   + tail     the last C tile's epilogue and its write-back, which nothing
//              follows (a plain matmul: its C write-back)
// The SA job is the closed form of docs/sa.md (weight_buffers = 1, a
// weight tile max(2R + C - 2 + M, its bytes at kSaPortBytesPerCycle)); the
// epilogue kForkJoinCycles plus kEpilogueElementCycles per element of a
// worker's share. The constants are GAP9-class (gap9.cfg) and were fitted to
// npusim's cycles of the MLPs' and the autoencoder's dense layers over every
// tile that fits (docs/compiler.md, "-npu-tile"): the tiler no longer takes
// one large C tile whose epilogue nothing overlaps.
// A B in L3 is staged into L2 panel by panel (K rows of tn columns), the
// next panel while the current one's steps run. The pins of gap9's OctoSPI
// PSRAM carry 1.08 B a cluster cycle (400 MB/s at 370 MHz), and every row of
// a panel is a transaction of its own: 10 PSRAM clocks (18.5 cycles) of
// command and latency on the pins, and the staging channels' turnaround
// (docs/memory-map.md, L3). kL3RowCycles = 50 per row was fitted to npusim's
// cycles of the MLPs' and the autoencoder's layers with their weights in L3
// over every tile that fits (when the model summed the staging, without the
// panels' timeline matmulCost follows now): narrow panels pay it K times
// each. Constant weights npu-schedule stores in column panels
// (npurt_matmul_panels) are staged as contiguous blocks instead: one
// transaction per DMA burst (kDmaBurstBytes, gap9's dma.burst_size), each
// paying the command and latency, kL3BurstCycles.
constexpr double kL3BytesPerCycle = 1.08;
constexpr double kL3RowCycles = 50.0;
constexpr double kL3BurstCycles = 18.5;
constexpr double kDmaBurstBytes = 256.0;
constexpr double kSaPortBytesPerCycle = 64.0;
constexpr double kSaJobSetupCycles = 8.0;
constexpr double kMatmulStepCycles = 400.0;
constexpr double kForkJoinCycles = 600.0;
constexpr double kEpilogueElementCycles = 45.0;

struct MatmulShape {
  int64_t m, n, k;
  uint64_t ea, eb, ec;
  uint64_t eo;        // a fused layer's output element bytes; 0: a plain matmul
  int64_t rows, cols; // the SA
  int64_t workers;
  bool bPanels = false; // B: constant weights in L3, stored in panels
};

// A dimension of `dim` in tiles of `t`: (extent, how many) of its full
// tiles and of its edge tile.
SmallVector<std::pair<int64_t, int64_t>, 2> tileParts(int64_t dim, int64_t t) {
  SmallVector<std::pair<int64_t, int64_t>, 2> out;
  if (dim / t)
    out.push_back({t, dim / t});
  if (dim % t)
    out.push_back({dim % t, 1});
  return out;
}

// The SA's cycles for a job of mi x ni x ki (docs/sa.md, weight_buffers = 1).
double saJobCycles(const MatmulShape &s, int64_t mi, int64_t ni, int64_t ki) {
  double cycles = kSaJobSetupCycles;
  for (auto [nw, cn] : tileParts(ni, s.cols))
    for (auto [kw, ck] : tileParts(ki, s.rows)) {
      const double compute = double(2 * s.rows + s.cols - 2 + mi);
      // B's and A's bytes, and C's read (accumulate) and write, which only
      // a job's first and last K tile have: counted on every tile, an upper
      // bound that matters only where the port, not the array, bounds it.
      const double bytes =
          double(kw * nw * s.eb + mi * kw * s.ea + 2 * mi * nw * 4);
      cycles += double(cn * ck) *
                std::max(compute, std::ceil(bytes / kSaPortBytesPerCycle));
    }
  return cycles;
}

double epilogueCycles(const MatmulShape &s, int64_t mi, int64_t ni) {
  return kForkJoinCycles +
         kEpilogueElementCycles * double(llvm::divideCeil(mi * ni, s.workers));
}

// bInL3: B is staged from L3 through L2 panels.
double matmulCost(const MatmulShape &s, int64_t tm, int64_t tn, int64_t tk,
                  bool bInL3) {
  auto dmaCycles = [&](int64_t mi, int64_t ni, int64_t ki) {
    return double(mi * ki * s.ea + ki * ni * s.eb) / kDmaBytesPerCycle;
  };
  double cycles = 0;
  for (auto [mi, cm] : tileParts(s.m, tm))
    for (auto [ni, cn] : tileParts(s.n, tn)) {
      double lastJob = 0;
      for (auto [ki, ck] : tileParts(s.k, tk)) {
        const double sa = saJobCycles(s, mi, ni, ki);
        const double dma = dmaCycles(mi, ni, ki);
        cycles +=
            double(cm * cn * ck) * (std::max(sa, dma) + kMatmulStepCycles);
        lastJob = sa;
      }
      // Each C tile's epilogue beyond the next step's job (taken as long as
      // this tile's last one). The last C tile's is counted here too and
      // again, whole, in the tail below: the constants were fitted so.
      if (s.eo)
        cycles += double(cm * cn) *
                  std::max(0.0, epilogueCycles(s, mi, ni) - lastJob);
    }
  const int64_t lastM = s.m - (llvm::divideCeil(s.m, tm) - 1) * tm;
  const int64_t lastN = s.n - (llvm::divideCeil(s.n, tn) - 1) * tn;
  const int64_t lastK = s.k - (llvm::divideCeil(s.k, tk) - 1) * tk;
  // A step's job overlaps the next step's loads: the first step's loads
  // are the fill, and the last job has none beside it (the sum above gave
  // it its own).
  const double fill = dmaCycles(tm, tn, tk);
  cycles -= std::max(0.0, dmaCycles(lastM, lastN, lastK) -
                              saJobCycles(s, lastM, lastN, lastK));
  double tail =
      double(lastM * lastN * (s.eo ? s.eo : s.ec)) / kDmaBytesPerCycle;
  if (s.eo)
    tail += epilogueCycles(s, lastM, lastN);
  if (!bInL3)
    return fill + cycles + tail;
  // B in L3, staged panel by panel (npurt_matmul): panel 0 before
  // anything; panel j + 1 from panel j's first step on (the pins are idle
  // from panel j's arrival until then: its first tile's loads), and panel
  // j's first step once it has arrived, its first tile is in L1 and panel
  // j - 1's steps are done. So the steps wait for the pins, or the pins
  // for the steps, panel by panel, every panel's first loads between.
  auto staging = [&](int64_t ni) {
    const double bytes = double(s.k * ni * s.eb);
    if (s.bPanels)
      return bytes / kL3BytesPerCycle +
             std::ceil(bytes / kDmaBurstBytes) * kL3BurstCycles;
    return double(s.k) * (double(ni * s.eb) / kL3BytesPerCycle + kL3RowCycles);
  };
  // A panel's steps (every row tile's K steps) and the epilogues they do
  // not hide, summed as above.
  auto panelSteps = [&](int64_t ni) {
    double c = 0;
    for (auto [mi, cm] : tileParts(s.m, tm)) {
      double lastJob = 0;
      for (auto [ki, ck] : tileParts(s.k, tk)) {
        const double sa = saJobCycles(s, mi, ni, ki);
        c += double(cm * ck) *
             (std::max(sa, dmaCycles(mi, ni, ki)) + kMatmulStepCycles);
        lastJob = sa;
      }
      if (s.eo)
        c += double(cm) * std::max(0.0, epilogueCycles(s, mi, ni) - lastJob);
    }
    return c;
  };
  const int64_t panels = llvm::divideCeil(s.n, tn);
  auto width = [&](int64_t j) { return std::min(tn, s.n - j * tn); };
  double arrived = staging(width(0)), done = 0;
  for (int64_t j = 0; j < panels; ++j) {
    const double start = std::max(
        arrived + dmaCycles(std::min(tm, s.m), width(j), std::min(tk, s.k)),
        done);
    if (j + 1 < panels)
      arrived = start + staging(width(j + 1));
    done = start + panelSteps(width(j));
  }
  const double timeline =
      done -
      std::max(0.0, dmaCycles(lastM, lastN, lastK) -
                        saJobCycles(s, lastM, lastN, lastK)) +
      tail;
  // The tiler does not know how fast the platform's L3 is (its timing keys
  // are not in the config fingerprint): the timeline assumes gap9's PSRAM,
  // under which a layer is mostly bound by the pins and the tiles matter
  // only at the panels' edges, while under a faster L3 (siracusa's memory
  // port) the steps bound it. The cost is the sum of both, the timeline and
  // the steps as if B were in L2: on the MLPs and the autoencoder with
  // their weights in L3 it beat the timeline alone on siracusa (which it
  // made up to 52 % slower) and on gap9 (docs/compiler.md, -npu-tile).
  return timeline + fill + cycles + tail;
}

// npurt_matmul's tiles for C[m x n] (+)= A[m x k] * B[k x n]: the cheapest
// under matmulCost of the tile triples whose double-buffered working set
// fits the budget. For each (tn, tk) the largest tm that fits is taken (the
// fewest B re-reads). Ties go to the largest volume, then to a larger tk
// (fewer re-accumulations), then tn. A B in L3 is staged through two K x tn
// panels in L2 (npu-schedule): tiles whose panels exceed `panelBudget`
// bytes are taken only when no tile's panels fit it.
std::optional<Tiles> chooseTiles(const MatmulShape &s, uint64_t budget,
                                 std::optional<uint64_t> panelBudget,
                                 const EpilogueL1 &ep) {
  struct Scored {
    Tiles t;
    double cost;
  };
  auto better = [](const Scored &a, const Scored &b) {
    auto volume = [](const Tiles &x) { return x.tm * x.tn * x.tk; };
    if (a.cost != b.cost)
      return a.cost < b.cost;
    if (volume(a.t) != volume(b.t))
      return volume(a.t) > volume(b.t);
    return a.t.tk > b.t.tk || (a.t.tk == b.t.tk && a.t.tn > b.t.tn);
  };
  const int64_t m = s.m;
  std::optional<Scored> best, bestPanelFits;
  for (int64_t tk : candidates(s.k, s.rows))
    for (int64_t tn : candidates(s.n, s.cols)) {
      if (workingSet(1, tn, tk, s.ea, s.eb, s.ec, ep) > budget)
        continue;
      // The largest tm that fits for this (tn, tk).
      int64_t lo = 1, hi = m;
      while (lo < hi) {
        int64_t mid = (lo + hi + 1) / 2;
        if (workingSet(mid, tn, tk, s.ea, s.eb, s.ec, ep) <= budget)
          lo = mid;
        else
          hi = mid - 1;
      }
      Tiles t{lo, tn, tk, workingSet(lo, tn, tk, s.ea, s.eb, s.ec, ep)};
      t.cost = matmulCost(s, t.tm, tn, tk, panelBudget.has_value());
      Scored c{t, t.cost};
      if (!best || better(c, *best))
        best = c;
      if (panelBudget && 2 * uint64_t(s.k) * tn * s.eb <= *panelBudget &&
          (!bestPanelFits || better(c, *bestPanelFits)))
        bestPanelFits = c;
    }
  if (bestPanelFits)
    return bestPanelFits->t;
  if (best)
    return best->t;
  return std::nullopt;
}

// The L1 working sets of the conv kernels for given tiles: the formulas of
// npu_conv_l1_plan.h, which npurt_conv2d_l1_bytes / npurt_dwconv2d_l1_bytes
// / npurt_pool2d_l1_bytes evaluate on the firmware too (in 32 bits; here in
// 64, as the tile search tries sizes that would wrap). The kernel stops with
// the needed bytes if the two ever disagree.
struct ConvShape {
  StringRef kernel;
  int64_t h, w, c, cout, oh, ow, kh, kw, sh, dh;
  int64_t pad[4];
  uint64_t e, eo; // element bytes in and out
  bool bias, perChannel, residual, f32;
};

// A depthwise or pooling layer's channel tile below all of its channels is
// a slice (npurt_dwconv2d_csplit / npurt_pool2d_csplit), whose working set
// is the unsliced one with the slice's channels.
uint64_t convL1Bytes(const ConvShape &s, int64_t tileOh, int64_t tileCout) {
  uint64_t toh = std::min(tileOh, s.oh);
  uint64_t inRows =
      std::min<uint64_t>(s.h, (toh - 1) * s.sh + (s.kh - 1) * s.dh + 1);
  uint64_t c = s.kernel == "conv2d" ? s.c : std::min(tileCout, s.c);
  uint64_t in = inRows * s.w * c * s.e;
  uint64_t rowTiles = NPU_POOL2D_L1_BYTES(in, toh * s.ow * c * s.eo);
  if (s.kernel == "avgpool2d")
    return rowTiles;
  uint64_t params =
      NPU_CONV_PARAMS_BYTES(uint64_t(s.kernel == "conv2d" ? s.cout : c), s.bias,
                            !s.f32 && s.perChannel);
  if (s.kernel == "dwconv2d")
    return NPU_DWCONV2D_L1_BYTES(s.kh * s.kw * c * s.e, params, rowTiles);
  uint64_t tn = std::min(tileCout, s.cout), m = toh * s.ow,
           k = s.kh * s.kw * s.c;
  bool direct = s.kh == 1 && s.kw == 1 && s.sh == 1 && !s.pad[0] && !s.pad[1] &&
                !s.pad[2] && !s.pad[3] && s.ow == s.w;
  uint64_t need;
  NPU_CONV2D_L1_BYTES(need, m, tn, k, s.e, in, tn < uint64_t(s.cout), direct,
                      s.residual, params);
  return need;
}

// npurt_conv2d_ksplit's working set (npu_conv_l1_plan.h).
uint64_t convKSplitL1Bytes(const ConvShape &s, int64_t tileOh, int64_t tileCout,
                           uint64_t tileK) {
  uint64_t toh = std::min(tileOh, s.oh);
  uint64_t inRows =
      std::min<uint64_t>(s.h, (toh - 1) * s.sh + (s.kh - 1) * s.dh + 1);
  uint64_t tn = std::min(tileCout, s.cout);
  return NPU_CONV2D_KSPLIT_L1_BYTES(
      toh * s.ow, tn, tileK, s.e, inRows * s.w * s.c * s.e, s.residual,
      NPU_CONV_PARAMS_BYTES(uint64_t(s.cout), s.bias, !s.f32 && s.perChannel));
}

struct NpuTilePass : public mlir::npu::impl::NpuTileBase<NpuTilePass> {
  // Ops pinned by --tile, with the pin as given (for the diagnostics).
  llvm::DenseMap<Operation *, std::string> pinnedBy;
  // A pin's ",params=L1|L2" (fused dense layers): true = L2.
  llvm::DenseMap<Operation *, bool> paramsPin;

  using NpuTileBase::NpuTileBase;

  // A linalg.matmul, or a fused dense layer (npu.matmul_kernel: its C is
  // the accumulator in L1, its epilogue's buffers count too).
  LogicalResult tileMatmul(Operation *mm, uint64_t budget, int64_t rows,
                           int64_t cols, uint64_t workers) {
    auto shaped = [](Value v) { return dyn_cast<ShapedType>(v.getType()); };
    auto kernel = dyn_cast<MatmulKernelOp>(mm);
    ShapedType ta = shaped(mm->getOperand(0));
    ShapedType tb = shaped(mm->getOperand(1));
    ShapedType tc =
        shaped(kernel ? kernel.getInit()
                      : cast<linalg::MatmulOp>(mm).getDpsInitOperand(0)->get());
    if (!ta || !tb || !tc || !ta.hasStaticShape() || !tb.hasStaticShape() ||
        !tc.hasStaticShape())
      return mm->emitOpError("tiling needs statically shaped operands");
    Type ea = ta.getElementType(), eb = tb.getElementType(),
         ec = tc.getElementType();
    EpilogueL1 ep;
    if (kernel) {
      ep.eo = elementBytes(ec);
      ep.n = tc.getDimSize(1);
      ep.bias = kernel.getBias() != nullptr;
      ep.perChannel =
          kernel.getMult() && shaped(kernel.getMult()).getNumElements() > 1;
      Builder eb32(mm->getContext());
      if (!((ea.isF32() && ec.isF32()) || (ea.isInteger(8) && ec.isInteger(8))))
        return mm->emitOpError("a fused dense layer computes i8 -> i8 or "
                               "f32 -> f32, not ")
               << ea << " -> " << ec;
      ec = ea.isF32() ? Type(eb32.getF32Type()) : Type(eb32.getI32Type());
    }
    bool f32 = ea.isF32() && eb.isF32() && ec.isF32();
    bool i8 = ea.isInteger(8) && eb.isInteger(8) && ec.isInteger(32);
    if (!f32 && !i8)
      return mm->emitOpError("the SA computes i8 x i8 -> i32 or f32 x f32 -> "
                             "f32, not ")
             << ea << " x " << eb << " -> " << ec;
    int64_t m = ta.getDimSize(0), k = ta.getDimSize(1), n = tb.getDimSize(1);
    std::optional<Tiles> tiles;
    bool paramsInL2 = false;
    // A user's choice (npu.tiles on the matmul in the input, like npu.mem
    // for the plan) is kept if the SA and L1 can take it: for exploring.
    NpuDialect::TilesAttrHelper tilesAttr(mm->getContext());
    if (DenseI64ArrayAttr given = tilesAttr.getAttr(mm)) {
      if (given.size() != 3 || given[0] < 1 || given[0] > m || given[1] < 1 ||
          given[1] > n || given[2] < 1 || given[2] > k)
        return mm->emitOpError(tileSource(mm))
               << " must be [tm, tn, tk] with 1 <= tm <= " << m
               << ", 1 <= tn <= " << n << ", 1 <= tk <= " << k;
      if ((given[1] % cols && given[1] != n) ||
          (given[2] % rows && given[2] != k))
        return mm->emitOpError(tileSource(mm))
               << ": tn must be a multiple of the SA's " << cols
               << " columns (or N), tk of its " << rows << " rows (or K)";
      uint64_t bytes =
          workingSet(given[0], given[1], given[2], elementBytes(ea),
                     elementBytes(eb), elementBytes(ec), ep);
      // A fused layer's parameters: where the pin says (",params=L1|L2"),
      // else in L2 only if their L1 copy is what does not fit.
      auto pin = paramsPin.find(mm);
      if (pin != paramsPin.end()) {
        if (!ep.eo)
          return mm->emitOpError(tileSource(mm))
                 << ": params= applies to a fused dense layer (a matmul "
                    "with its epilogue), not to a plain matmul";
        paramsInL2 = pin->second;
      } else if (bytes > budget && ep.eo &&
                 workingSet(given[0], given[1], given[2], elementBytes(ea),
                            elementBytes(eb), elementBytes(ec),
                            withoutParams(ep)) <= budget) {
        paramsInL2 = true;
      }
      if (paramsInL2)
        bytes =
            workingSet(given[0], given[1], given[2], elementBytes(ea),
                       elementBytes(eb), elementBytes(ec), withoutParams(ep));
      if (bytes > budget)
        return mm->emitOpError(tileSource(mm))
               << " [" << given[0] << ", " << given[1] << ", " << given[2]
               << "] need " << bytes
               << " bytes of L1 (double-buffered), the budget is " << budget;
      tiles = Tiles{given[0], given[1], given[2], bytes};
    } else {
      // A B in L3: its panels may take half of the L2 below the plan (the
      // rest is the firmware image's and its heap's); none without a plan.
      std::optional<uint64_t> panelBudget;
      if (originOf(mm->getOperand(1)).level == MemLevel::L3) {
        const auto [l2Base, lowest] =
            l2PlanBounds(mm->getParentOfType<ModuleOp>());
        panelBudget =
            lowest && l2Base && *lowest > l2Base ? (*lowest - l2Base) / 2 : 0;
      }
      const MatmulShape shape{
          m, n, k, elementBytes(ea), elementBytes(eb), elementBytes(ec), ep.eo,
          rows, cols, static_cast<int64_t>(std::max<uint64_t>(1, workers)),
          // npu-schedule stores constant weights in L3 in panels (but
          // those the 'l3-as-l2' fault reads, which it leaves row-major
          // and whose tiles this model does not follow anyway).
          panelBudget.has_value() &&
              panelPackableWeights(mm->getOperand(1)) != nullptr};
      tiles = chooseTiles(shape, budget, panelBudget, ep);
      // A fused layer's parameters (all n channels, loaded once) take L1
      // from the tiles; read from L2 by the workers instead when the tiles
      // that leaves room for cost less (a small L1).
      if (ep.eo && (ep.bias || ep.perChannel)) {
        std::optional<Tiles> inL2 =
            chooseTiles(shape, budget, panelBudget, withoutParams(ep));
        if (inL2 && (!tiles || inL2->cost < tiles->cost)) {
          tiles = inL2;
          paramsInL2 = true;
        }
      }
    }
    if (!tiles)
      return mm->emitOpError("the L1 budget of ")
             << budget << " bytes cannot hold the smallest double-buffered "
             << "tile ("
             << workingSet(1, std::min(n, cols), std::min(k, rows),
                           elementBytes(ea), elementBytes(eb), elementBytes(ec),
                           ep)
             << " bytes): raise l1.size or lower firmware.stack_size";
    Builder b(mm->getContext());
    MLIRContext *ctx = mm->getContext();
    tilesAttr.setAttr(
        mm, b.getDenseI64ArrayAttr({tiles->tm, tiles->tn, tiles->tk}));
    NpuDialect::L1BytesAttrHelper(ctx).setAttr(
        mm, b.getI64IntegerAttr(tiles->l1Bytes));
    NpuDialect::L1BudgetAttrHelper(ctx).setAttr(mm,
                                                b.getI64IntegerAttr(budget));
    NpuDialect::SaAttrHelper(ctx).setAttr(mm,
                                          b.getDenseI64ArrayAttr({rows, cols}));
    NpuDialect::ParamsInL2AttrHelper paramsAttr(ctx);
    if (paramsInL2)
      paramsAttr.setAttr(mm, UnitAttr::get(ctx));
    else if (paramsAttr.isAttrPresent(mm))
      paramsAttr.removeAttr(mm);
    return success();
  }

  // Row and output-channel tiles of a conv kernel call: the cheapest of the
  // tile pairs that fit the budget under the tilers' cost model
  // (tilingCost): bytes the DMA moves (weights again for every row tile
  // when they are split by channels, the halo rows of every row tile), plus
  // a fixed cost per pipeline step (SA job, worker barrier, DMA
  // programming). The SA and epilogue work is the same for every tiling.
  // Output-channel tiles of a layer: all of cout, multiples of the SA's
  // columns, then fractions of them when even one column panel of K x cols
  // weights does not fit (the kernel does not split K). Depthwise and
  // pooling layers take all channels (sliceTiles when those do not fit).
  static SmallVector<int64_t> channelTiles(const ConvShape &s, int64_t cols) {
    SmallVector<int64_t> couts = {s.cout};
    if (s.kernel == "conv2d") {
      for (int64_t tn = (s.cout - 1) / cols * cols; tn >= cols; tn -= cols)
        couts.push_back(tn);
      for (int64_t tn = std::min(s.cout, cols) / 2; tn >= 1; tn /= 2)
        couts.push_back(tn);
    }
    return couts;
  }

  // Channel slices of a depthwise or pooling layer, for when no row tile of
  // all its channels fits: halves of the channels (rounded up, so the
  // slices are even), down to one.
  static SmallVector<int64_t> sliceTiles(const ConvShape &s) {
    SmallVector<int64_t> slices;
    if (s.kernel != "conv2d")
      for (int64_t tc = (s.c + 1) / 2; tc < s.c && tc >= 1;
           tc = tc == 1 ? 0 : (tc + 1) / 2)
        slices.push_back(tc);
    return slices;
  }

  // How the diagnostics name a given tile: the --tile pin (with the layer's
  // region name) or npu.tiles written in the input.
  std::string tileSource(Operation *op) const {
    auto it = pinnedBy.find(op);
    return it == pinnedBy.end() ? "npu.tiles" : "--tile " + it->second;
  }

  // --tile <region>=<sizes>: npu.tiles on the conv / matmul op whose region
  // npu-schedule names <region> (layer<i>.<kernel>, counted the same way),
  // then checked like a tile written in the input.
  LogicalResult applyPins(ModuleOp module) {
    llvm::StringMap<SmallVector<Operation *>> named;
    std::vector<std::string> names;
    unsigned layerIndex = 0;
    bool seenLayerStart = false;
    module.walk([&](Operation *op) {
      if (!isa<linalg::LinalgOp, ConvKernelOp, MatmulKernelOp>(op))
        return;
      const OpEntry *entry = lookupOp(op);
      if (!entry)
        return;
      if (entry->startsLayer) {
        ++layerIndex;
        seenLayerStart = true;
      }
      std::string layer =
          "layer" + std::to_string(seenLayerStart ? layerIndex : 1);
      if (auto k = dyn_cast<ConvKernelOp>(op))
        layer += "." + k.getKernel().str();
      else if (isa<linalg::MatmulOp, MatmulKernelOp>(op))
        layer += ".matmul";
      else
        return;
      if (!named.count(layer))
        names.push_back(layer);
      named[layer].push_back(op);
    });
    Builder b(module.getContext());
    for (const std::string &pin : pins) {
      auto [name, sizesText] = StringRef(pin).split('=');
      auto it = named.find(name);
      if (it == named.end()) {
        InFlightDiagnostic d = module.emitError("--tile ")
                               << pin << ": no conv or matmul layer '" << name
                               << "' (the layers:";
        for (const std::string &n : names)
          d << " " << n;
        return d << ")";
      }
      // A fused dense layer's pin may say where its epilogue parameters
      // live: <tm>x<tn>x<tk>,params=L1|L2 (the manifest's tiles say so too).
      auto [sizesOnly, option] = sizesText.split(',');
      std::optional<bool> paramsInL2;
      if (!option.empty()) {
        if (option != "params=L1" && option != "params=L2")
          return module.emitError("--tile ")
                 << pin << ": '" << option << "' is not params=L1 or params=L2";
        paramsInL2 = option == "params=L2";
      }
      sizesText = sizesOnly;
      SmallVector<StringRef> parts;
      sizesText.split(parts, 'x');
      SmallVector<int64_t> sizes;
      for (StringRef p : parts) {
        int64_t v;
        if (p.trim().getAsInteger(10, v))
          return module.emitError("--tile ")
                 << pin << ": '" << p << "' is not a number "
                 << "(sizes are written like 4x16)";
        sizes.push_back(v);
      }
      Operation *op = it->second.front();
      size_t want = isa<ConvKernelOp>(op) ? 2 : 3;
      if (sizes.size() != want)
        return op->emitError("--tile ")
               << pin << ": " << name << " takes "
               << (want == 2 ? "<output rows>x<output channels>"
                             : "<tm>x<tn>x<tk>");
      for (Operation *o : it->second) {
        NpuDialect::TilesAttrHelper(b.getContext())
            .setAttr(o, b.getDenseI64ArrayAttr(sizes));
        pinnedBy[o] = pin;
        if (paramsInL2)
          paramsPin[o] = *paramsInL2;
      }
    }
    return success();
  }

  LogicalResult tileConvKernel(ConvKernelOp k, uint64_t budget, int64_t rows,
                               int64_t cols) {
    auto ti = dyn_cast<MemRefType>(k.getInput().getType());
    auto to = dyn_cast<MemRefType>(k.getInit().getType());
    if (!ti || !to || !ti.hasStaticShape() || !to.hasStaticShape())
      return k.emitOpError("tiling needs statically shaped operands");
    ConvShape s;
    s.kernel = k.getKernel();
    s.h = ti.getDimSize(1), s.w = ti.getDimSize(2), s.c = ti.getDimSize(3);
    s.oh = to.getDimSize(1), s.ow = to.getDimSize(2), s.cout = to.getDimSize(3);
    s.kh = k.getWindow()[0], s.kw = k.getWindow()[1];
    s.sh = k.getStrides()[0],
    s.dh = s.kernel == "avgpool2d" ? 1 : k.getDilations()[0];
    for (int i = 0; i < 4; ++i)
      s.pad[i] = k.getPadding()[i];
    s.f32 = ti.getElementType().isF32();
    s.e = elementBytes(ti.getElementType());
    s.eo = elementBytes(to.getElementType());
    s.bias = static_cast<bool>(k.getBias());
    s.perChannel = static_cast<bool>(k.getMult());
    s.residual = static_cast<bool>(k.getResidual());
    MLIRContext *ctx = k.getContext();
    NpuDialect::TilesAttrHelper tilesAttr(ctx);
    int64_t bestOh = 0, bestCout = 0;
    uint64_t bestBytes = 0, bestK = 0, bestSteps = 0;
    if (DenseI64ArrayAttr given = tilesAttr.getAttr(k)) {
      // A user's choice (npu.tiles = [rows, channels]), kept if it fits.
      if (given.size() != 2 || given[0] < 1 || given[1] < 1)
        return k.emitOpError(tileSource(k))
               << " must be [output rows, output channels], both >= 1";
      bestOh = given[0], bestCout = given[1];
      if (bestOh > s.oh || bestCout > s.cout)
        return k.emitOpError(tileSource(k))
               << " [" << bestOh << ", " << bestCout << "]: the layer has "
               << s.oh << " output rows and " << s.cout << " output channels";
      // The channel tiles the kernels take (those the search below tries).
      SmallVector<int64_t> couts = channelTiles(s, cols);
      llvm::append_range(couts, sliceTiles(s));
      if (!llvm::is_contained(couts, bestCout)) {
        InFlightDiagnostic d = k.emitOpError(tileSource(k));
        d << " [" << bestOh << ", " << bestCout << "]: a " << s.kernel
          << " layer takes an output-channel tile of";
        for (int64_t c : couts)
          d << " " << c;
        return d;
      }
      bestBytes = convL1Bytes(s, bestOh, bestCout);
      if (bestBytes > budget)
        return k.emitOpError(tileSource(k))
               << " [" << bestOh << ", " << bestCout << "] need " << bestBytes
               << " bytes of L1, the budget is " << budget;
    } else {
      SmallVector<int64_t> couts = channelTiles(s, cols);
      double bestCost = 0;
      auto search = [&](ArrayRef<int64_t> couts) {
        for (int64_t tn : couts) {
          if (convL1Bytes(s, 1, tn) > budget)
            continue;
          for (int64_t toh = 1; toh <= s.oh; ++toh) {
            uint64_t bytes = convL1Bytes(s, toh, tn);
            if (bytes > budget)
              break;
            int64_t rowTiles = (s.oh + toh - 1) / toh,
                    chTiles = (s.cout + tn - 1) / tn;
            int64_t inRows =
                std::min(s.h, (toh - 1) * s.sh + (s.kh - 1) * s.dh + 1);
            double dma = double(rowTiles) * inRows * s.w * s.c * s.e;
            if (s.kernel == "conv2d")
              dma += double(tn < s.cout ? rowTiles : 1) * s.kh * s.kw * s.c *
                     s.cout * s.e;
            double cost = tilingCost(dma, double(rowTiles) * chTiles);
            if (!bestOh || cost < bestCost) {
              bestCost = cost, bestOh = toh, bestCout = tn, bestBytes = bytes;
            }
          }
        }
      };
      search(couts);
      // Nothing fits with all channels: a depthwise or pooling layer runs
      // in channel slices (the same cost model: the input moves once
      // either way, each slice adds its steps).
      if (!bestOh)
        search(sliceTiles(s));
      // Nothing fits npurt_conv2d (an f32 layer, or int8 ResNet-8's 3x3
      // convolutions, in a small L1): the K-split kernel, the largest tile
      // that fits (K chunks of multiples of the SA's rows, the fewest SA
      // jobs first).
      if (!bestOh && s.kernel == "conv2d") {
        uint64_t k = s.kh * s.kw * s.c;
        for (int64_t tn : couts)
          for (uint64_t tk = k; tk >= 1;
               tk = tk > uint64_t(rows) ? llvm::alignDown(tk - 1, rows)
                                        : tk - 1) {
            if (tk == 0)
              break;
            for (int64_t toh = s.oh; toh >= 1; --toh) {
              uint64_t bytes = convKSplitL1Bytes(s, toh, tn, tk);
              if (bytes > budget)
                continue;
              uint64_t steps = ((s.oh + toh - 1) / toh) *
                               ((s.cout + tn - 1) / tn) * ((k + tk - 1) / tk);
              if (!bestOh || steps < bestSteps)
                bestSteps = steps, bestOh = toh, bestCout = tn, bestK = tk,
                bestBytes = bytes;
              break;
            }
          }
      }
      if (!bestOh) {
        // The smallest tile of the kernels this layer could run on.
        uint64_t smallest = convL1Bytes(s, 1, 1);
        if (s.kernel == "conv2d")
          for (int64_t tn : couts)
            smallest = std::min(smallest, convKSplitL1Bytes(s, 1, tn, 1));
        return k.emitOpError("the L1 budget of ")
               << budget
               << " bytes cannot hold the smallest tile of this layer ("
               << smallest
               << " bytes): raise l1.size or lower firmware.stack_size";
      }
    }
    Builder b(ctx);
    // [output rows, output channels] for npurt_conv2d; a third entry, the K
    // chunk, selects npurt_conv2d_ksplit.
    SmallVector<int64_t> tiles = {bestOh, bestCout};
    if (bestK)
      tiles.push_back(static_cast<int64_t>(bestK));
    tilesAttr.setAttr(k, b.getDenseI64ArrayAttr(tiles));
    NpuDialect::L1BytesAttrHelper(ctx).setAttr(k,
                                               b.getI64IntegerAttr(bestBytes));
    NpuDialect::L1BudgetAttrHelper(ctx).setAttr(k, b.getI64IntegerAttr(budget));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target = TargetAttr::lookup(module);
    if (!target) {
      module.emitError("no platform: run -npu-attach-target first");
      return signalPassFailure();
    }
    const uint64_t l1Size = target.getL1Size(),
                   stacks = target.getStacksBytes();
    const int64_t rows = static_cast<int64_t>(target.getSaRows());
    const int64_t cols = static_cast<int64_t>(target.getSaCols());
    if (stacks + l1Reserve >= l1Size) {
      // Located at the first op that needs L1 tiles, not at the module's
      // unknown location, with the keys that make room. Fused layers are
      // npu kernel ops by now, not linalg ones (an MLP has no linalg op left).
      Operation *at = module;
      module.walk([&](Operation *op) {
        if (!isa<ConvKernelOp, MatmulKernelOp, linalg::LinalgOp>(op))
          return WalkResult::advance();
        at = op;
        return WalkResult::interrupt();
      });
      at->emitError("L1 (")
          << l1Size << " bytes) holds no tile buffers after the hart stacks ("
          << stacks << " bytes) and l1-reserve ("
          << static_cast<uint64_t>(l1Reserve)
          << " bytes): lower firmware.stack_size (npuc --set "
             "firmware.stack_size=...) or raise l1.size";
      return signalPassFailure();
    }
    const uint64_t budget = l1Size - stacks - l1Reserve;

    if (failed(applyPins(module)))
      return signalPassFailure();
    bool ok = true;
    Builder b(module.getContext());
    // The conv kernels' state (npurt_conv.h: 420 bytes) and npu-schedule's
    // argument block (128 bytes) are L1 .bss the matmul-only programs do not
    // have.
    constexpr uint64_t kConvStateBytes = 640;
    module.walk([&](ConvKernelOp k) {
      ok &= succeeded(tileConvKernel(
          k, budget > kConvStateBytes ? budget - kConvStateBytes : 0, rows,
          cols));
    });
    module.walk([&](MatmulKernelOp k) {
      ok &= succeeded(tileMatmul(k, budget, rows, cols, target.getWorkers()));
    });
    module.walk([&](linalg::LinalgOp op) {
      if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
        ok &=
            succeeded(tileMatmul(mm, budget, rows, cols, target.getWorkers()));
        return;
      }
      // Worker work (staging copies go to the DMA): the workers split the
      // loop workerSplitDim picks, each taking one contiguous slice; -1
      // when there is none (one worker runs it).
      if (isStagingCopy(op))
        return;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      if (llvm::any_of(ranges, ShapedType::isDynamic))
        return;
      std::optional<unsigned> dim =
          ranges.empty() ? std::nullopt : workerSplitDim(op);
      NpuDialect::SplitDimAttrHelper(b.getContext())
          .setAttr(op,
                   b.getI64IntegerAttr(dim ? static_cast<int64_t>(*dim) : -1));
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
