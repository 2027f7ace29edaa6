//===- DataMovement.h - how a tile op moves elements between threads -*- C++ -*-===//
//
// The decisions, made on linear layouts, of how the ops that rearrange a tile reach their
// results: whether a reshape, broadcast, permute or layout conversion keeps every element in
// the thread that holds it (then it is a renaming of registers), or must exchange elements;
// and how a reduction combines within threads, across lanes and across warps. Layout
// inference uses them to choose free layouts, the shared-memory planner to size only the
// exchanges that remain, and CodeGen to print what was decided.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_DATAMOVEMENT_H
#define TILECC_DIALECT_TILEGPU_DATAMOVEMENT_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilecc::tilegpu {

/// The linear layout of a tile type's distributed layout in a program of `numWarps` warps,
/// or nullopt when the type has none.
std::optional<LinearLayout> linearLayoutOf(mlir::Type tile, unsigned numWarps);

/// What a thread must hold for a result layout, in the source's coordinates:
/// a reshape sees the same elements under the source's shape;
LinearLayout reshapeView(const LinearLayout &result, llvm::ArrayRef<int64_t> sourceShape);
/// The extents of `shape` other than 1, in order: two shapes with the same such extents hold
/// the same elements in the same row-major order.
llvm::SmallVector<int64_t> withoutUnitAxes(llvm::ArrayRef<int64_t> shape);
/// a broadcast drops the result axes the source repeats (new leading axes, size-1 axes);
LinearLayout broadcastView(const LinearLayout &result, llvm::ArrayRef<int64_t> sourceShape);
/// a permute (result axis k is source axis perm[k]) reorders the axes back;
LinearLayout permuteView(const LinearLayout &result, llvm::ArrayRef<int32_t> perm);
/// a cat along `axis` sees its two operands stacked along a new leading axis (lhs, then rhs),
LinearLayout catView(const LinearLayout &result, unsigned axis);
/// which threads hold as their operands' layout with the stack as the highest register bit;
LinearLayout stackedOperands(const LinearLayout &operand);
/// an extract sees sub-tile 0 of the source: the result's elements at the same coordinates.
LinearLayout extractView(const LinearLayout &result, llvm::ArrayRef<int64_t> sourceShape);
/// For an extract whose result layout `to` is free relative to `from` at sub-tile 0: the
/// source registers each bit of the sub-tile's row-major number adds (the last axis's bits
/// lowest), or nullopt when lanes or warps spread the sub-tiles.
std::optional<llvm::SmallVector<int64_t>> subTileRegisters(const LinearLayout &from,
                                                           const LinearLayout &to);

/// The leading registers of a thread that hold consecutive elements along one axis (the
/// axis of register 1): the elements one vector access can move.
int64_t vectorRun(const LinearLayout &layout);
/// The axis of that run (the axis of register 1), or nullopt when the run is one element.
std::optional<unsigned> vectorAxis(const LinearLayout &layout);

/// True when the movement keeps every element in its thread.
inline bool isFree(Movement m) { return m == Movement::None || m == Movement::Registers; }

/// How a shape op or convert_layout reaches its result.
struct ShapeMovement {
  Movement kind = Movement::SharedMemory;
  /// For a free movement: the source register of each bit of a result register (the
  /// source register of result register r is the XOR of those of its set bits).
  llvm::SmallVector<int64_t> registerBases;
  /// For Movement::WarpShuffle: where each result element lies in the warp's source tile.
  ShuffleMap shuffle;
  /// For Movement::WarpShuffle: the values span(shuffle.regFromThread, t) takes over the
  /// threads. Each result register costs one shuffle per value: every lane sends the same
  /// register and each keeps what it needs.
  llvm::SmallVector<int64_t> shuffleRounds;
  /// For a free extract: the source register bits each bit of the sub-tile's row-major number
  /// adds, so that result register r of sub-tile f is source register
  /// span(registerBases, r) ^ span(indexBases, f).
  llvm::SmallVector<int64_t> indexBases;
};

/// The most shuffles per result register before a movement within warps goes through shared
/// memory instead: two are about the cost of one shared-memory write and read, and need no
/// barrier.
inline constexpr size_t kMaxShuffleRounds = 2;
/// How a reshape, broadcast, permute, cat, extract or convert_layout moves its operand's
/// elements from layout `from` (a cat's operands share it) to the result's `to`. A cat or an
/// extract moves in registers or through shared memory, never by shuffles: a free cat picks
/// each result register from one operand, a free extract from the registers that hold the
/// chosen sub-tile. nullopt for other ops.
std::optional<ShapeMovement> planShapeMovement(mlir::Operation *op, const LinearLayout &from,
                                               const LinearLayout &to);
/// The same under the layouts of the op's types; nullopt also when a layout is missing or the
/// operands of a cat differ in layout.
std::optional<ShapeMovement> planShapeMovement(mlir::Operation *op, unsigned numWarps);

/// How a reduction along `axis` runs under its operand's layout: the registers along the
/// axis combine within each thread, the lanes along it by xor shuffles, and only when warps
/// spread the axis do per-warp partials cross through shared memory.
struct ReducePlan {
  LinearLayout source;            ///< the operand's layout
  LinearLayout slice;             ///< what each thread holds after the shuffles: the result
                                  ///< registers (one per key) in the slice of `source`
  uint64_t axisRegisters = 0;     ///< register bits along the axis (combined in the thread)
  llvm::SmallVector<unsigned> laneMasks; ///< xor-shuffle distances (lane bits along the axis)
  uint64_t axisWarps = 0;         ///< warp bits along the axis
  uint64_t writerMask = 0;        ///< thread-number bits that must be 0 to write a partial
  int64_t keys = 1;               ///< result registers per thread after the shuffles
  int64_t warpsAlongAxis = 1;     ///< partials per result that meet in shared memory
  bool inRegisters = false;       ///< the result needs no exchange after the shuffles
  /// When the combiner is one f32 maxnumf or minnumf: the device function ("fmaxf" or
  /// "fminf") that combines a thread's registers in one instruction. The hardware's max and
  /// min may return either of +0 and -0, which maxnumf orders, but the combination of many
  /// values differs from the exact one only where it comes out zero: a thread redoes its
  /// registers exactly only then. Empty for other combiners.
  llvm::StringRef hardwareMinMax;
};
/// nullopt when the operands' layouts differ or one mixes the axis with other axes in one
/// basis.
std::optional<ReducePlan> planReduce(tile::ReduceOp op, unsigned numWarps);

/// How a scan along `axis` runs in registers and shuffles. It applies when the axis's
/// elements lie, from the first, in a thread's registers, then in lanes, then in warps, then
/// in repeats of that pattern in registers (a blocked layout's order along any axis): each
/// thread scans its registers in order, the lanes along the axis scan the threads' totals by
/// shuffles, and only warps along the axis combine their totals through shared memory.
struct ScanPlan {
  LinearLayout slice; ///< the lines: the operand's layout without the axis (totals' indices)
  /// Register bits (each as the register number it adds) along the axis below the lanes, and
  /// above the warps (the repeats), the lowest axis bit first; and the registers' bits off it.
  llvm::SmallVector<int64_t> lowRegisters, highRegisters, keyRegisters;
  llvm::SmallVector<int64_t> axisLanes; ///< lane bits along the axis, as lane numbers
  uint64_t axisWarps = 0;               ///< warp bits along the axis
  uint64_t replicas = 0;                ///< thread-number bits of copies (must be 0 to write)
  int64_t lines = 1;                    ///< lines along the axis in the tile
  int64_t warpPositions = 1;            ///< warps along the axis
  int64_t repeats = 1;                  ///< repeats along the axis (2^highRegisters)
  /// Warps along the axis combine their totals (and those of the repeats) through shared
  /// memory; without them, the repeats' totals come from the last lane by shuffles.
  bool crossesWarps() const { return warpPositions > 1; }
};
/// nullopt when the operands' layouts differ or the axis's elements are not laid out as
/// above; the scan then stages the tile in shared memory (SharedScratch.h, scanSplit).
std::optional<ScanPlan> planScan(tile::ScanOp op, unsigned numWarps);

/// True when no basis of `layout` moves along `axis` and another axis at once, so that a
/// reduction along `axis` can leave the slice layout.
bool separatesAxis(const LinearLayout &layout, unsigned axis);

/// The bits of input dimension `in` (register, lane or warp) whose bases move along `axis`.
uint64_t inputBitsAlong(const LinearLayout &layout, unsigned axis, llvm::StringRef in);

} // namespace tilecc::tilegpu

#endif
