//===- TensorMaps.h - one tensor map per view and box ---------------*- C++ -*-===//
//
// The `tilegpu.tensor_map` of a kernel argument view for stages of one box and layout: made
// once at the top of the function (after the maps made before it, in the order the passes ask
// for them) and shared by every copy or store that moves such stages of that view; and the
// copies that may go through one.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_TRANSFORMS_TENSORMAPS_H
#define TILECC_LIB_TRANSFORMS_TENSORMAPS_H

#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilecc {

inline tilegpu::TensorMapOp tensorMapOf(mlir::func::FuncOp func, mlir::Value view,
                                        tilegpu::BufferType stages, bool roundTF32 = false) {
  auto type = tilegpu::TensorMapType::get(func.getContext(), stages.getTile(), stages.getLayout(),
                                          roundTF32);
  mlir::Block &entry = func.getBody().front();
  for (auto map : entry.getOps<tilegpu::TensorMapOp>())
    if (map.getView() == view && map.getMap().getType() == type)
      return map;
  mlir::OpBuilder b = mlir::OpBuilder::atBlockBegin(&entry);
  for (auto map : entry.getOps<tilegpu::TensorMapOp>())
    b.setInsertionPointAfter(map);
  return b.create<tilegpu::TensorMapOp>(view.getLoc(), type, b.getI1Type(), view);
}

/// True when a copy of tiles of `view` at bounds `bounds` from starts `starts` into stages
/// laid out as `stages` may go through a tensor map: the view is a kernel argument, read
/// within its own shape (no starts, the bounds its extents: the map zero-fills outside the
/// same box), into stages a map can write.
inline bool copiesThroughTensorMap(mlir::Value view, mlir::ValueRange starts,
                                   mlir::ValueRange bounds, tilegpu::BufferType stages) {
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(view);
  if (!arg || !llvm::isa<mlir::func::FuncOp>(arg.getOwner()->getParentOp()) || !starts.empty())
    return false;
  for (auto [axis, bound] : llvm::enumerate(bounds)) {
    auto dim = bound.getDefiningOp<tilegpu::ArrayDimOp>();
    if (!dim || dim.getView() != view || dim.getAxis() != int64_t(axis))
      return false;
  }
  return tilegpu::tensorMapBox(stages.getTile(), stages.getLayout()).has_value();
}

} // namespace tilecc

#endif
