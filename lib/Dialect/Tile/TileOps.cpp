//===- TileOps.cpp - tile dialect op verifiers ---------------------------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilecc::tile;

static LogicalResult verifyAxis(Operation *op, ViewType view, int32_t axis) {
  if (axis >= static_cast<int32_t>(view.getRank()))
    return op->emitOpError() << "axis " << axis << " is out of range for a rank-"
                             << view.getRank() << " view";
  return success();
}

/// Loads and stores move a tile of the view's element type and rank.
static LogicalResult verifyAccess(Operation *op, ViewType view, RankedTensorType tile,
                                  size_t numOffsets) {
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError() << "tile element type " << tile.getElementType()
                             << " differs from the view's " << view.getElementType();
  if (tile.getRank() != static_cast<int64_t>(view.getRank()))
    return op->emitOpError() << "a rank-" << tile.getRank() << " tile cannot move through a rank-"
                             << view.getRank() << " view";
  if (numOffsets != view.getRank())
    return op->emitOpError() << "expected " << view.getRank() << " offsets, got " << numOffsets;
  if (!tile.hasStaticShape())
    return op->emitOpError("tile shapes are static");
  return success();
}

LogicalResult DimOp::verify() { return verifyAxis(*this, getView().getType(), getAxis()); }

LogicalResult PieceOriginOp::verify() {
  return verifyAxis(*this, getView().getType(), getAxis());
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getView().getType(), getResult().getType(), getOffsets().size());
}

LogicalResult StoreOp::verify() {
  ViewType view = getView().getType();
  if (!view.isExclusive())
    return emitOpError() << "cannot store through a " << stringifyAccess(view.getAccess())
                         << " view; only this program's exclusive piece is writable";
  return verifyAccess(*this, view, getValue().getType(), getOffsets().size());
}

LogicalResult SplatOp::verify() {
  if (getScalar().getType() != getResult().getType().getElementType())
    return emitOpError() << "scalar type " << getScalar().getType()
                         << " differs from the tile element type "
                         << getResult().getType().getElementType();
  return success();
}

LogicalResult IotaOp::verify() {
  if (getResult().getType().getRank() != 1)
    return emitOpError("iota produces a rank-1 tile");
  return success();
}

#define GET_OP_CLASSES
#include "tilecc/Dialect/Tile/TileOps.cpp.inc"
