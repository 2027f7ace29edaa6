//===- SharedStaging.h - how an exchange lays a tile out in shared memory -*- C++ -*-===//
//
// A layout conversion or shape op that moves through shared memory writes its source tile
// into a buffer and reads it back in the result's layout. `Staging` is where element `lin`
// (row-major in the source tile) lies in that buffer: rows of the source's last axis, each
// followed by `pad` elements, the `vec`-element groups of row r stored at
// group ^ ((r / perPhase) % maxPhase), the `#tilegpu.shared` swizzle; a buffer's rows longer
// than 128 bytes are cut into blocks stored one block column after the other. A buffer laid
// out along the tile's first axis (shared layout order [0, 1]: a column-major stage) stores
// the tile's transpose: its columns are the stored rows (`tileCols`).
//
// `planStaging` picks the staging: among the plain buffer, padded rows and the swizzles, the
// one whose writes and reads take the fewest shared-memory wavefronts (bank conflicts
// counted as the hardware serves them), then the smallest buffer. tilegpu-plan-shared-memory
// records it on the op (`tilegpu.staging`, `tilegpu.staging_pad`); CodeGen prints it.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_SHAREDSTAGING_H
#define TILECC_DIALECT_TILEGPU_SHAREDSTAGING_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"
#include "tilecc/Layout/LinearLayout.h"

#include "mlir/IR/Operation.h"

namespace tilecc::tilegpu {

inline constexpr llvm::StringLiteral kStagingAttrName = "tilegpu.staging";
inline constexpr llvm::StringLiteral kStagingPadAttrName = "tilegpu.staging_pad";

struct Staging {
  int64_t cols = 1;     ///< elements per row: the source tile's last axis
  int64_t pad = 0;      ///< elements after each row
  int64_t vec = 1;      ///< elements per swizzled group
  int64_t perPhase = 1; ///< rows that share one XOR phase
  int64_t maxPhase = 1; ///< distinct phases (1: no swizzle)
  int64_t block = 0;    ///< elements of a row block stored on its own (0: whole rows)
  int64_t rows = 1;     ///< stored rows, when they are cut into blocks
  int64_t tileCols = 0; ///< 0: the tile's rows are stored; else the tile (of tileCols
                        ///< columns) is stored transposed, a stored row per tile column

  /// The buffer position of source element `lin`.
  int64_t offset(int64_t lin) const;
  /// Buffer elements for a tile of `elements` elements.
  int64_t bufferElements(int64_t elements) const;
  bool operator==(const Staging &o) const;
};

/// Shared-memory wavefronts one warp takes to access a staged tile: warp 0's lanes under
/// `access` ((register, lane, warp) to the source tile's coordinates), `vector` consecutive
/// registers per access of `elemBytes`-byte elements. Lanes of a phase (8 for 16-byte
/// accesses, 16 for 8-byte, else all 32) are served together; a bank asked for k distinct
/// words costs k wavefronts. `ownersOnly`: lanes that only hold copies do not access (writes).
int64_t sharedWavefronts(const LinearLayout &access, const Staging &staging, int64_t elemBytes,
                         int64_t vector, bool ownersOnly);

/// The most consecutive registers of `access` one access can move into or out of `staging`:
/// its vector run along the last axis, at most 16 bytes, kept contiguous and aligned by the
/// padding and swizzle; 1 when the layout has no such run.
int64_t stagedVector(const LinearLayout &access, const Staging &staging, int64_t elemBytes);

/// The staging an op that moves through shared memory should use (see above), for a
/// tilegpu.convert_layout, tile.reshape, tile.permute or tile.broadcast with layouts; the
/// plain buffer for others.
Staging planStaging(mlir::Operation *op, unsigned numWarps);

/// The staging recorded on `op` by tilegpu-plan-shared-memory, else planStaging's.
Staging stagingOf(mlir::Operation *op, unsigned numWarps);

/// Records `staging` on `op`.
void setStaging(mlir::Operation *op, const Staging &staging);

/// Where a buffer of `type` keeps an element of each stage: rows along its layout's fastest
/// axis (the last, or the first of a column-major stage), its layout's swizzle, no padding.
Staging bufferStaging(BufferType type);

/// The layout of a buffer whose stages of `tile` ldmatrix or wgmma reads as 16-bit mma
/// operands: rows of the last axis in 16-byte groups, swizzled so that the eight rows one
/// ldmatrix reads at one group column lie in eight distinct bank groups (rows of 128 bytes or
/// more change phase every row, shorter rows every 128 / rowBytes rows); rows longer than
/// 128 bytes in blocks of 128 bytes. For rows of 32, 64 and 128 bytes this is wgmma's 32-,
/// 64- and 128-byte swizzle. `fastAxis` 0 stores a rank-2 tile column-major (the rows are
/// its columns), for operands read from arrays contiguous along their first axis.
SharedLayoutAttr ldmatrixBufferLayout(mlir::RankedTensorType tile, unsigned fastAxis);
SharedLayoutAttr ldmatrixBufferLayout(mlir::RankedTensorType tile);

/// True when a buffer's stages are stored column-major (shared layout order [0, 1]).
bool columnMajor(BufferType buffer);

/// True for the element types wgmma multiplies: f16, bf16, f8 (e4m3, e5m2) and f32 (as TF32).
bool warpgroupElement(mlir::Type element);

/// True when wgmma reads operands of `element` only K-major (A row-major, B column-major):
/// 8-bit and 32-bit elements.
bool warpgroupKMajorOnly(mlir::Type element);

/// The tile axis along which mma operand `operand` (0: A, M x K; 1: B, K x N) runs over K.
unsigned kAxis(unsigned operand);

/// True when wgmma can read the stages of `buffer` as its operand `operand` (0: A, M x K;
/// 1: B, K x N) through shared-memory descriptors: rank-2 tiles of a warpgroupElement laid
/// out by ldmatrixBufferLayout with stored rows of 32 bytes or more, K-major where
/// warpgroupKMajorOnly. (wgmma reads f32 as TF32 by dropping the low bits: the stages must
/// be rounded first, tilegpu.restage.)
bool warpgroupReadable(BufferType buffer, unsigned operand);

/// True when warpgroup mma can multiply ring stages of the (layout-free) tiles `a` and `b`
/// into `acc` in a program of `numWarps` warps, their stages stored along the fast axes
/// `aFast` and `bFast`: both readable in place, of one element type, rank 2, the warps a
/// whole number of warpgroups stacked along M, 16 columns or more.
bool warpgroupMultiplies(mlir::RankedTensorType a, unsigned aFast, mlir::RankedTensorType b,
                         unsigned bFast, mlir::RankedTensorType acc, unsigned numWarps);

/// True when warpgroup mma can multiply `a`, a tile in registers (its layout the dot operand
/// of `acc`'s, 16-bit elements), by ring stages of the (layout-free) tile `b` stored along
/// `bFast` into `acc` in a program of `numWarps` warps: b readable in place, of a's element
/// type, rank 2, the warps a whole number of warpgroups stacked along M, 16 columns or more.
bool warpgroupMultipliesFromRegisters(mlir::RankedTensorType a, mlir::RankedTensorType b,
                                      unsigned bFast, mlir::RankedTensorType acc,
                                      unsigned numWarps);

/// What one tensor-memory-accelerator copy writes of a buffer stage: a box of `rows` x
/// `cols` stored elements, one block column of the stage (`blocks` of them side by side,
/// stored one after the other), swizzled over rows of `swizzleBytes` bytes (0: not
/// swizzled). A column-major stage's stored rows run along the tile's first axis: its map
/// reads an array contiguous along that axis (`columnMajor`).
struct TensorMapBox {
  int64_t rows, cols, blocks, swizzleBytes;
  bool columnMajor = false;
};

/// The box by which a tensor map copies stages of `tile` laid out by `layout`, or nullopt
/// where the hardware cannot write that layout: rank 2, boxes of at most 256 x 256 elements
/// with rows of a multiple of 16 bytes, either unswizzled or in the 32-, 64- or 128-byte
/// swizzle of 16-byte groups with whole swizzle patterns per block (rows a multiple of 8).
std::optional<TensorMapBox> tensorMapBox(mlir::RankedTensorType tile, SharedLayoutAttr layout);

/// The buffer through which tilegpu.tensor_map_store writes `value` (a rank-2 tile with a
/// distributed layout, in a program of `numWarps` warps), or nullopt where it cannot: two
/// stages of one chunk of the tile's columns, 128 bytes of each row, in the 128-byte swizzle
/// (the tensor map's box, so that the rows a warp writes at one column fall in distinct bank
/// groups). The tile's rows must fit a box (at most 256, a multiple of 8), its columns be
/// whole chunks, and every lane and warp hold columns within one chunk, so that which
/// chunk a register belongs to is known at compile time.
std::optional<BufferType> tensorMapStoreStages(mlir::RankedTensorType value, unsigned numWarps);

/// The loop attribute by which tile-pipeline-mma-operands says that its ring leaves the
/// stage of the step before alone for one step more, so that a warpgroup mma of that step
/// may still be reading it (its copies run stages - 2 steps ahead instead of stages - 1).
inline constexpr llvm::StringLiteral kMmaInFlightAttrName = "tilegpu.mma_in_flight";

/// The loop attribute by which tile-pipeline-mma-operands names the iteration argument of a
/// warp-specialized ring's loops (the producer's and the program's) that counts the ring's
/// steps: stages and barrier phases follow it. It starts at 0; a loop around the ring's
/// loops (a persistent program loop) may start it where the last run left it.
inline constexpr llvm::StringLiteral kRingStepsAttrName = "tilegpu.ring_steps";

} // namespace tilecc::tilegpu

#endif
