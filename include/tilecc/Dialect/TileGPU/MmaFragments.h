//===- MmaFragments.h - the registers an mma reads and writes --------*- C++ -*-===//
//
// Which fragment layouts a `tile.mma` runs on: tile-infer-layouts gives them to its operands
// and result (so that what the kernel computes from an accumulator stays in its registers),
// tile-mma-layouts turns the mma into `tilegpu.mma` on them. One decision, made here.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_MMAFRAGMENTS_H
#define TILECC_DIALECT_TILEGPU_MMAFRAGMENTS_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include <optional>

namespace tilecc::tilegpu {

struct MmaFragments {
  MmaLayoutAttr acc;
  DotOperandLayoutAttr a, b;
};

/// The fragments of an mma of `a` ([B x] M x K) by `b` ([B x] K x N) into `acc` in a program
/// of `numWarps` warps, or nullopt where the tiles are not whole instruction tiles (M a
/// multiple of 16, N of 8, K of 8 x kWidth). The warps stack along M (`warpsPerBlock` [W, 1])
/// where M is a multiple of 16 W: the warpgroup mma's arrangement, and the one under which an
/// accumulator cast to 16 bits lies in the registers of the next mma's A operand (a chain such
/// as attention's P x V needs no exchange). Otherwise they form the grid that doubles whichever
/// side leaves the per-warp tile longer (M on ties) while the tile has room.
std::optional<MmaFragments> mmaFragments(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                         mlir::RankedTensorType acc, unsigned numWarps);

} // namespace tilecc::tilegpu

#endif
