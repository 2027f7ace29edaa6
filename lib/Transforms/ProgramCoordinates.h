//===- ProgramCoordinates.h - tile programs a block runs in a loop ----*- C++ -*-===//
//
// A pass that makes a block loop over several tile programs (tilegpu-sequence-programs,
// tilegpu-persistent-programs) replaces each `tile.block_id` in the loop by the coordinate
// of the program the loop is running.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_PROGRAMCOORDINATES_H
#define TILECC_TRANSFORMS_PROGRAMCOORDINATES_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilecc {

/// Replaces every `tile.block_id` under `root` by `tilegpu.program_coord` of the linear
/// program `program()`, asked for once, at the first block id there is.
inline void replaceBlockIds(mlir::Operation *root, llvm::function_ref<mlir::Value()> program) {
  mlir::Value linear;
  root->walk([&](tile::BlockIdOp id) {
    if (!linear)
      linear = program();
    mlir::OpBuilder at(id);
    id.replaceAllUsesWith(at.create<tilegpu::ProgramCoordOp>(id.getLoc(), at.getIndexType(),
                                                             linear, id.getAxisAttr())
                              .getResult());
    id.erase();
  });
}

} // namespace tilecc

#endif
