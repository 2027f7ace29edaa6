//===- TensorMaps.h - one tensor map per view and box ---------------*- C++ -*-===//
//
// The `tilegpu.tensor_map` of a kernel argument view for stages of one box and layout: made
// once at the top of the function (after the maps made before it, in the order the passes ask
// for them) and shared by every copy or store that moves such stages of that view.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_TRANSFORMS_TENSORMAPS_H
#define TILECC_LIB_TRANSFORMS_TENSORMAPS_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace tilecc {

inline tilegpu::TensorMapOp tensorMapOf(mlir::func::FuncOp func, mlir::Value view,
                                        tilegpu::BufferType stages) {
  auto type = tilegpu::TensorMapType::get(func.getContext(), stages.getTile(), stages.getLayout());
  mlir::Block &entry = func.getBody().front();
  for (auto map : entry.getOps<tilegpu::TensorMapOp>())
    if (map.getView() == view && map.getMap().getType() == type)
      return map;
  mlir::OpBuilder b = mlir::OpBuilder::atBlockBegin(&entry);
  for (auto map : entry.getOps<tilegpu::TensorMapOp>())
    b.setInsertionPointAfter(map);
  return b.create<tilegpu::TensorMapOp>(view.getLoc(), type, b.getI1Type(), view);
}

} // namespace tilecc

#endif
