// The npu dialect: registration, the placement attribute's syntax, the
// verifier of npu.* discardable attributes.
#include "npu/Dialect/Npu/NpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::npu;

#include "npu/Dialect/Npu/NpuDialect.cpp.inc"
#include "npu/Dialect/Npu/NpuEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "npu/Dialect/Npu/NpuAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "npu/Dialect/Npu/NpuOps.cpp.inc"

void NpuDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "npu/Dialect/Npu/NpuAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "npu/Dialect/Npu/NpuOps.cpp.inc"
      >();
}

TargetAttr TargetAttr::lookup(Operation *op) {
  Operation *module = op;
  while (module && !module->hasAttr(kAttrName))
    module = module->getParentOp();
  return module ? module->getAttrOfType<TargetAttr>(kAttrName) : TargetAttr();
}

// #npu.placement<L2, address = 0x1C000040, size = 1024>. Hand-written so
// the address prints in hex, the way the memory map and reports show it.
Attribute PlacementAttr::parse(AsmParser &parser, Type) {
  StringRef levelName;
  uint64_t address = 0, size = 0;
  SMLoc levelLoc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword(&levelName))
    return {};
  std::optional<MemLevel> level = symbolizeMemLevel(levelName);
  if (!level) {
    parser.emitError(levelLoc, "expected memory level L2 or L3, got '")
        << levelName << "'";
    return {};
  }
  if (parser.parseComma() || parser.parseKeyword("address") ||
      parser.parseEqual() || parser.parseInteger(address) ||
      parser.parseComma() || parser.parseKeyword("size") ||
      parser.parseEqual() || parser.parseInteger(size) || parser.parseGreater())
    return {};
  return PlacementAttr::get(parser.getContext(), *level, address, size);
}

void PlacementAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyMemLevel(getLevel()) << ", address = 0x"
          << llvm::utohexstr(getAddress()) << ", size = " << getSize() << ">";
}

LogicalResult NpuDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kMemAttrName) {
    if (!isa<MemLevelAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kMemAttrName << "' must be #npu.mem<L2> or #npu.mem<L3>";
    return success();
  }
  if (name == kPlacementAttrName) {
    if (!isa<PlacementAttr>(attr.getValue()))
      return op->emitError() << "'" << kPlacementAttrName
                             << "' must be an #npu.placement attribute";
    return success();
  }
  if (name == kMemoryUsageAttrName) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kMemoryUsageAttrName << "' must be a dictionary";
    return success();
  }
  // What the later stages record (docs/compiler.md): checked for shape only.
  auto is = [&](auto typeTag, StringRef what) -> LogicalResult {
    using T = decltype(typeTag);
    if (!isa<T>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be " << what;
    return success();
  };
  if (name == kRegionsAttrName)
    return is(DictionaryAttr(), "a dictionary");
  if (name == TargetAttr::kAttrName)
    return is(TargetAttr(), "an #npu.target attribute");
  if (name == NpuDialect::InputsAttrHelper::getNameStr() ||
      name == NpuDialect::OutputsAttrHelper::getNameStr())
    return is(ArrayAttr(), "an array of #npu.placement");
  if (name == NpuDialect::NetworkAttrHelper::getNameStr() ||
      name == NpuDialect::SectionAttrHelper::getNameStr() ||
      name == NpuDialect::RegionAttrHelper::getNameStr())
    return is(StringAttr(), "a string");
  if (name == NpuDialect::StagingAttrHelper::getNameStr() ||
      name == NpuDialect::ZeroInitAttrHelper::getNameStr() ||
      name == NpuDialect::ParamsInL2AttrHelper::getNameStr() ||
      name == NpuDialect::SgdUpdateAttrHelper::getNameStr() ||
      name == NpuDialect::TrainableAttrHelper::getNameStr() ||
      name == NpuDialect::KeptForBackwardAttrHelper::getNameStr())
    return is(UnitAttr(), "a unit attribute");
  if (name == NpuDialect::TrainingAttrHelper::getNameStr())
    return is(DictionaryAttr(), "a dictionary");
  if (name == NpuDialect::TilesAttrHelper::getNameStr() ||
      name == NpuDialect::SaAttrHelper::getNameStr())
    return is(DenseI64ArrayAttr(), "an i64 array");
  if (name == NpuDialect::L1BytesAttrHelper::getNameStr() ||
      name == NpuDialect::L1BudgetAttrHelper::getNameStr() ||
      name == NpuDialect::SplitDimAttrHelper::getNameStr() ||
      name == NpuDialect::CheckpointAttrHelper::getNameStr() ||
      name == NpuDialect::MacsAttrHelper::getNameStr() ||
      name == NpuDialect::BPanelsAttrHelper::getNameStr())
    return is(IntegerAttr(), "an integer");
  return op->emitError() << "unknown npu attribute '" << name << "'";
}
