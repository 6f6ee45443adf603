// The npu dialect: registration, the placement attribute's syntax, the
// verifier of npu.* discardable attributes and the op verifiers.
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
      parser.parseEqual() || parser.parseInteger(size) ||
      parser.parseGreater())
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
      return op->emitError() << "'" << kMemAttrName
                             << "' must be #npu.mem<L2> or #npu.mem<L3>";
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
      return op->emitError() << "'" << kMemoryUsageAttrName
                             << "' must be a dictionary";
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
  if (name == "npu.inputs" || name == "npu.outputs")
    return is(ArrayAttr(), "an array of #npu.placement");
  if (name == "npu.network" || name == "npu.section" || name == "npu.region")
    return is(StringAttr(), "a string");
  if (name == "npu.staging" || name == "npu.zero_init")
    return is(UnitAttr(), "a unit attribute");
  if (name == "npu.tiles" || name == "npu.sa")
    return is(DenseI64ArrayAttr(), "an i64 array");
  if (name == "npu.l1_bytes" || name == "npu.l1_budget" || name == "npu.split_dim" ||
      name == "npu.checkpoint")
    return is(IntegerAttr(), "an integer");
  return op->emitError() << "unknown npu attribute '" << name << "'";
}

LogicalResult DmaCopyOp::verify() {
  auto source = cast<MemRefType>(getSource().getType());
  auto target = cast<MemRefType>(getTarget().getType());
  if (source.getShape() != target.getShape() ||
      source.getElementType() != target.getElementType())
    return emitOpError("source ")
           << source << " and target " << target
           << " must have the same shape and element type";
  return success();
}

LogicalResult SaMatmulOp::verify() {
  auto lhs = cast<MemRefType>(getLhs().getType());
  auto rhs = cast<MemRefType>(getRhs().getType());
  auto acc = cast<MemRefType>(getAcc().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2 || acc.getRank() != 2)
    return emitOpError("operands must be 2-D (M x K, K x N, M x N)");
  if (lhs.getDimSize(1) != rhs.getDimSize(0) ||
      lhs.getDimSize(0) != acc.getDimSize(0) ||
      rhs.getDimSize(1) != acc.getDimSize(1))
    return emitOpError("shapes ")
           << lhs << " x " << rhs << " -> " << acc
           << " do not form M x K, K x N -> M x N";
  Type a = lhs.getElementType(), b = rhs.getElementType(),
       c = acc.getElementType();
  bool int8 = a.isSignlessInteger(8) && b.isSignlessInteger(8) &&
              c.isSignlessInteger(32);
  bool fp32 = a.isF32() && b.isF32() && c.isF32();
  if (!int8 && !fp32)
    return emitOpError("element types ")
           << a << " x " << b << " -> " << c
           << " are not supported by the SA (i8 x i8 -> i32, f32 x f32 -> f32)";
  return success();
}
