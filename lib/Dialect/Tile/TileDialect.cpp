//===- TileDialect.cpp - tile dialect registration and types -----------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilecc::tile;

#include "tilecc/Dialect/Tile/TileDialect.cpp.inc"
#include "tilecc/Dialect/Tile/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilecc/Dialect/Tile/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilecc/Dialect/Tile/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilecc/Dialect/Tile/TileOps.cpp.inc"
      >();
}

// !tile.view<128x?xf32, exclusive>; the access mode is omitted when shared.
Type ViewType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  if (parser.parseLess() || parser.parseDimensionList(shape, /*allowDynamic=*/true) ||
      parser.parseType(elementType))
    return {};
  Access access = Access::Shared;
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<Access> parsed = symbolizeAccess(keyword);
    if (!parsed) {
      parser.emitError(loc, "expected 'shared', 'exclusive' or 'atomic'");
      return {};
    }
    access = *parsed;
  }
  if (parser.parseGreater())
    return {};
  if (shape.empty() || shape.size() > 4) {
    parser.emitError(parser.getNameLoc(), "a view has rank 1 to 4");
    return {};
  }
  return ViewType::get(parser.getContext(), shape, elementType, access);
}

void ViewType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t d : getShape()) {
    if (ShapedType::isDynamic(d))
      printer << "?";
    else
      printer << d;
    printer << "x";
  }
  printer << getElementType();
  if (getAccess() != Access::Shared)
    printer << ", " << stringifyAccess(getAccess());
  printer << ">";
}
