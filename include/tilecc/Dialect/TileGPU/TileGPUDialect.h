//===- TileGPUDialect.h - the tilegpu dialect ------------------------*- C++ -*-===//
//
// Block-level tile IR: layouts (blocked, slice, mma, dot operand, shared) as tensor encodings,
// each a linear layout (LayoutEncodingAttrInterface), global memory accesses with absolute
// coordinates, bounds and vector widths, and shared-memory ring buffers filled by async copies. See TileGPUOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_TILEGPUDIALECT_H
#define TILECC_DIALECT_TILEGPU_TILEGPUDIALECT_H

#include "tilecc/Dialect/Tile/TileDialect.h"

#include "tilecc/Layout/LinearLayout.h"

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h.inc"

#include "tilecc/Dialect/TileGPU/TileGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUOps.h.inc"

namespace tilecc::tilegpu {
/// Function attribute: the number of warps per tile program chosen by layout assignment.
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tilegpu.num_warps";
/// The warps per tile program of function `func` (1 where layout assignment has not run).
inline unsigned numWarpsOf(mlir::Operation *func) {
  auto attr = func->getAttrOfType<mlir::IntegerAttr>(kNumWarpsAttrName);
  return attr ? unsigned(attr.getInt()) : 1;
}
/// Function attributes set by tilegpu-plan-occupancy: tile programs per CUDA block, and blocks
/// each multiprocessor should hold at once (the second argument of __launch_bounds__).
inline constexpr llvm::StringLiteral kProgramsPerBlockAttrName = "tilegpu.programs_per_block";
inline constexpr llvm::StringLiteral kBlocksPerSMAttrName = "tilegpu.blocks_per_sm";
/// Unit attribute set by tilegpu-plan-occupancy where the blocks-per-multiprocessor bound also
/// binds the runs instance of a specialized launch (it leaves each thread at least
/// kUnestimatedRegisters); without it only the whole instance is bounded.
inline constexpr llvm::StringLiteral kRunsBoundedAttrName = "tilegpu.runs_bounded";
/// Function attribute set by tilegpu-sequence-programs: tile programs each CUDA block runs one
/// after the other (its body loops over them).
inline constexpr llvm::StringLiteral kProgramsInSequenceAttrName = "tilegpu.programs_in_sequence";
/// Function attribute set by tilegpu-persistent-programs: the launch starts as many blocks as
/// the multiprocessors hold at once (at most one per program), and each block loops over the
/// programs `tilegpu.program_stride` apart.
inline constexpr llvm::StringLiteral kPersistentAttrName = "tilegpu.persistent";
/// Function attribute set by tile-specialize-launch: the facts of the arguments under which
/// the kernel's `whole` accesses need no test per element, a dictionary of `divisible` and
/// `vectors`, each a list of [argument, axis, n] (the array extent along the axis is a
/// multiple of n; the view allows n-byte vectors along the axis).
inline constexpr llvm::StringLiteral kSpecializationAttrName = "tilegpu.specialization";
/// Argument attribute set by tile-version-unit-strides on a version of a kernel: the view
/// argument has stride 1 along this axis in every launch of the version.
inline constexpr llvm::StringLiteral kUnitStrideAttrName = "tilegpu.unit_stride";
/// Function attributes of kernel versions: a kernel lists its versions, the launcher tries
/// them in that order (`tilegpu.versions`, symbols); each version names its kernel
/// (`tilegpu.version_of`) and is launched only through it.
inline constexpr llvm::StringLiteral kVersionsAttrName = "tilegpu.versions";
inline constexpr llvm::StringLiteral kVersionOfAttrName = "tilegpu.version_of";
/// The axis along which `view`, a kernel argument, has stride 1 in every launch, if known.
std::optional<unsigned> unitStrideAxis(mlir::Value view);
/// A tile moving through a view of higher rank spans the view's last axes and is one element
/// thick along the others: tile axis a is view axis a + leadingAxes(view, tile rank).
unsigned leadingAxes(mlir::Value view, int64_t tileRank);
/// The tile axis along which `view` has stride 1 in every launch (unitStrideAxis), if known
/// and one of the axes a tile of rank `tileRank` spans.
std::optional<unsigned> unitStrideTileAxis(mlir::Value view, int64_t tileRank);

/// The coalesced layout of a tile of `shape` whose accesses run along `fastAxis`: `vector`
/// elements per thread along it, lanes spread from that axis outward (then from the last axis
/// down), and warps likewise but over the axes in `reduced` (a bit per axis) last, so that a
/// reduction along them combines within warps. Only a tile smaller than one warp-wide (or
/// block-wide) vector row is replicated, on its slowest axis.
BlockedLayoutAttr coalescedLayout(mlir::MLIRContext *ctx, llvm::ArrayRef<int64_t> shape,
                                  unsigned fastAxis, int64_t vector, unsigned numWarps,
                                  uint64_t reduced = 0);
} // namespace tilecc::tilegpu

#endif
