//===- ConvertTileToTileGPU.cpp - view accesses to global memory operations ----===//
//
// `convert-tile-to-tilegpu` replaces the program-relative view operations of the tile dialect
// with block-level ones in whole-array coordinates:
//
//  * An exclusive view is this program's piece: along axis a it starts at
//    origin_a = block_id(a) * tile_a (tile_a the view's static extent, or `tilegpu.piece_shape`
//    when dynamic) and ends at min(origin_a + tile_a, array_dim_a).
//  * A shared view is the whole array: it starts at 0 and ends at array_dim_a.
//  * `tile.load`/`tile.store` become `tilegpu.global_load`/`global_store` with offsets shifted by
//    the origin, the piece's `starts` (exclusive views only) and `bounds`, moving one element
//    per access until tile-vectorize-accesses widens them.
//  * `tile.atomic` becomes `tilegpu.global_atomic` bounded by the array's extents (an atomic
//    view is the whole array, like a shared one).
//  * `tile.dim` becomes the valid extent (max(0, min(tile, array_dim - origin)) for a piece,
//    array_dim for a shared view); `tile.piece_origin` becomes the origin (0 when shared).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/IR/Builders.h"

namespace tilecc {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// Index arithmetic on one view's geometry, built at one insertion point. Each quantity is
/// built once per axis; canonicalize and cse merge what several accesses share.
class ViewGeometry {
public:
  ViewGeometry(OpBuilder &b, Location loc, Value view)
      : b(b), loc(loc), view(view), type(llvm::cast<tile::ViewType>(view.getType())) {}

  bool exclusive() const { return type.isExclusive(); }

  Value constant(int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v); }

  Value arrayDim(unsigned axis) {
    return cached(arrayDims, axis, [&] {
      return b.create<tilegpu::ArrayDimOp>(loc, view, int32_t(axis)).getResult();
    });
  }

  /// The piece's tile extent along `axis` (static when the view type knows it).
  Value tileExtent(unsigned axis) {
    return cached(extents, axis, [&]() -> Value {
      int64_t d = type.getShape()[axis];
      if (!ShapedType::isDynamic(d))
        return constant(d);
      return b.create<tilegpu::PieceShapeOp>(loc, view, int32_t(axis));
    });
  }

  /// Where the view starts in its array along `axis`: block_id * tile for a piece, else 0.
  Value origin(unsigned axis) {
    return cached(origins, axis, [&]() -> Value {
      if (!exclusive())
        return constant(0);
      Value id = b.create<tile::BlockIdOp>(loc, int32_t(axis));
      return b.create<arith::MulIOp>(loc, id, tileExtent(axis));
    });
  }

  /// One past the last valid element of the view along `axis`, in array coordinates.
  Value end(unsigned axis) {
    if (!exclusive())
      return arrayDim(axis);
    Value pieceEnd = b.create<arith::AddIOp>(loc, origin(axis), tileExtent(axis));
    return b.create<arith::MinSIOp>(loc, pieceEnd, arrayDim(axis));
  }

  /// The valid extent of the view along `axis`: max(0, min(tile, array_dim - origin)) for a
  /// piece, array_dim for a whole array.
  Value validExtent(unsigned axis) {
    if (!exclusive())
      return arrayDim(axis);
    Value left = b.create<arith::SubIOp>(loc, arrayDim(axis), origin(axis));
    Value clipped = b.create<arith::MinSIOp>(loc, tileExtent(axis), left);
    return b.create<arith::MaxSIOp>(loc, clipped, constant(0));
  }

private:
  template <class Build>
  Value cached(llvm::SmallDenseMap<unsigned, Value> &cache, unsigned axis, Build build) {
    auto it = cache.find(axis);
    if (it != cache.end())
      return it->second;
    Value v = build();
    cache[axis] = v;
    return v;
  }

  OpBuilder &b;
  Location loc;
  Value view;
  tile::ViewType type;
  llvm::SmallDenseMap<unsigned, Value> arrayDims, extents, origins;
};

/// Whether `tile` has a distributed layout (tile-vectorize-accesses sizes the access from it).
bool hasLayout(Operation *op, Type tile) {
  if (llvm::isa_and_nonnull<tilegpu::LayoutEncodingAttrInterface>(
          cast<RankedTensorType>(tile).getEncoding()))
    return true;
  op->emitOpError("moves a tile without a layout; run tile-assign-layouts first");
  return false;
}

/// Offsets in array coordinates, starts (exclusive views only) and bounds for an access.
struct Window {
  SmallVector<Value> offsets, starts, bounds;
};

Window windowFor(OpBuilder &b, Location loc, Value view, ValueRange offsets) {
  ViewGeometry geo(b, loc, view);
  Window w;
  for (auto [axis, offset] : llvm::enumerate(offsets)) {
    if (geo.exclusive()) {
      Value origin = geo.origin(axis);
      w.offsets.push_back(b.create<arith::AddIOp>(loc, offset, origin));
      w.starts.push_back(origin);
    } else {
      w.offsets.push_back(offset);
    }
    w.bounds.push_back(geo.end(axis));
  }
  return w;
}

struct ConvertTileToTileGPUPass
    : public tilecc::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPUPass> {
  void runOnOperation() override;
};

} // namespace

void ConvertTileToTileGPUPass::runOnOperation() {
  func::FuncOp func = getOperation();
  SmallVector<Operation *> work;
  func.walk([&](Operation *op) {
    if (isa<tile::LoadOp, tile::StoreOp, tile::AtomicOp, tile::DimOp, tile::PieceOriginOp>(op))
      work.push_back(op);
  });

  bool anyFailed = false;
  OpBuilder b(&getContext());
  for (Operation *op : work) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      if (!hasLayout(op, load.getType())) {
        anyFailed = true;
        continue;
      }
      Window w = windowFor(b, loc, load.getView(), load.getOffsets());
      auto lowered = b.create<tilegpu::GlobalLoadOp>(loc, load.getType(), load.getView(),
                                                     w.offsets, w.starts, w.bounds, /*vector=*/1);
      load.replaceAllUsesWith(lowered.getResult());
      load.erase();
    } else if (auto store = dyn_cast<tile::StoreOp>(op)) {
      if (!hasLayout(op, store.getValue().getType())) {
        anyFailed = true;
        continue;
      }
      Window w = windowFor(b, loc, store.getView(), store.getOffsets());
      b.create<tilegpu::GlobalStoreOp>(loc, store.getValue(), store.getView(), w.offsets,
                                       w.starts, w.bounds, /*vector=*/1);
      store.erase();
    } else if (auto atomic = dyn_cast<tile::AtomicOp>(op)) {
      if (isa<RankedTensorType>(atomic.getType()) && !hasLayout(op, atomic.getType())) {
        anyFailed = true;
        continue;
      }
      Window w = windowFor(b, loc, atomic.getView(), atomic.getOffsets());
      auto lowered = b.create<tilegpu::GlobalAtomicOp>(
          loc, atomic.getType(), atomic.getKindAttr(), atomic.getValue(), atomic.getExpected(),
          atomic.getView(), w.offsets, w.bounds);
      atomic.replaceAllUsesWith(lowered.getResult());
      atomic.erase();
    } else if (auto dim = dyn_cast<tile::DimOp>(op)) {
      ViewGeometry geo(b, loc, dim.getView());
      dim.replaceAllUsesWith(geo.validExtent(dim.getAxis()));
      dim.erase();
    } else if (auto origin = dyn_cast<tile::PieceOriginOp>(op)) {
      ViewGeometry geo(b, loc, origin.getView());
      origin.replaceAllUsesWith(geo.origin(origin.getAxis()));
      origin.erase();
    }
  }
  if (anyFailed)
    signalPassFailure();
}
