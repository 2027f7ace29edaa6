//===- TileGPUOps.cpp - tilegpu dialect op verifiers ---------------------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

/// Global accesses move a laid-out tile with one offset and one bound per axis.
static LogicalResult verifyGlobalAccess(Operation *op, tile::ViewType view,
                                        RankedTensorType value, size_t numOffsets,
                                        size_t numStarts, size_t numBounds) {
  if (value.getElementType() != view.getElementType())
    return op->emitOpError("tile and view element types differ");
  if (value.getRank() != int64_t(view.getRank()) || numOffsets != view.getRank() ||
      numBounds != view.getRank())
    return op->emitOpError("expected one offset and one bound per axis of the view");
  if (numStarts != 0 && numStarts != view.getRank())
    return op->emitOpError("expected no starts or one start per axis of the view");
  if (!llvm::isa_and_nonnull<BlockedLayoutAttr>(value.getEncoding()))
    return op->emitOpError("the tile has no layout; run layout assignment first");
  return success();
}

LogicalResult GlobalLoadOp::verify() {
  return verifyGlobalAccess(*this, getView().getType(), getResult().getType(),
                            getOffsets().size(), getStarts().size(), getBounds().size());
}

LogicalResult GlobalStoreOp::verify() {
  if (!getView().getType().isExclusive())
    return emitOpError("cannot store through a view that is not exclusive");
  return verifyGlobalAccess(*this, getView().getType(), getValue().getType(),
                            getOffsets().size(), getStarts().size(), getBounds().size());
}

LogicalResult GlobalAtomicOp::verify() {
  tile::ViewType view = getView().getType();
  if (view.getAccess() != tile::Access::Atomic)
    return emitOpError("updates a view that is not atomic");
  if (bool(getExpected()) != (getKind() == tile::AtomicKind::Cas))
    return emitOpError("takes an expected value exactly when it is a cas");
  if (auto tile = dyn_cast<RankedTensorType>(getValue().getType()))
    return verifyGlobalAccess(*this, view, tile, getOffsets().size(), 0, getBounds().size());
  if (getValue().getType() != view.getElementType() || getOffsets().size() != view.getRank() ||
      getBounds().size() != view.getRank())
    return emitOpError("expected an element of the view's type, and one offset and one bound "
                       "per axis");
  return success();
}

#define GET_OP_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUOps.cpp.inc"
