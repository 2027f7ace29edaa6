//===- SharedScratch.h - the shared memory an op stages through -----*- C++ -*-===//
//
// Ops that move elements between the threads of a tile program (reductions, scans, the shape
// ops, tile prints, and atomic updates whose old values reach threads that did not make them) stage their operands in the block's dynamic shared memory. `getScratch` says how
// many bytes an op needs under the layouts of its operands and where each operand's part
// starts; the SharedMemoryPlanner places the whole buffer (`tilegpu.smem_offset`) and CodeGen
// addresses the parts. Both must call this one function so that they agree.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_SHAREDSCRATCH_H
#define TILECC_DIALECT_TILEGPU_SHAREDSCRATCH_H

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace tilecc::tilegpu {

/// Op attribute: byte offset of the op's scratch in the kernel's dynamic shared memory.
inline constexpr llvm::StringLiteral kSmemOffsetAttrName = "tilegpu.smem_offset";
/// Op attribute (tilegpu-place-barriers): no shared-memory access since the last barrier
/// overlaps the op's bytes, so the barrier before its writes may go.
inline constexpr llvm::StringLiteral kNeedsNoBarrierAttrName = "tilegpu.needs_no_barrier";
/// Function attribute: bytes of dynamic shared memory the kernel needs.
inline constexpr llvm::StringLiteral kSmemBytesAttrName = "tilegpu.smem_bytes";

/// Bytes one element occupies in memory and registers (bool takes a byte, index eight).
int64_t elementBytes(mlir::Type type);

/// One part per staged operand (a scan's part holds the tile, then its chunk carries).
struct ScratchPart {
  int64_t offset = 0;      ///< from the start of the op's scratch, 16-byte aligned
  int64_t elements = 0;    ///< elements of the staged tile (a reduction: partial results)
  int64_t carryOffset = 0; ///< scans: where the chunk carries start
};
struct Scratch {
  llvm::SmallVector<ScratchPart, 2> parts;
  int64_t bytes = 0;
};

/// The scratch `op` needs in a tile program of `numThreads` threads, or nullopt when it needs
/// none. Tile operands must carry layouts.
std::optional<Scratch> getScratch(mlir::Operation *op, int64_t numThreads);

/// Bytes a shared-memory ring buffer of `type` occupies: all its stages.
int64_t bufferBytes(BufferType type);

/// Bytes one memory barrier (an mbarrier) occupies.
inline constexpr int64_t kBarrierBytes = 8;

/// Bytes of dynamic shared memory `op` occupies (a ring buffer, an array of barriers, or the
/// scratch of an op that stages through it); 0 for an op that occupies none.
int64_t sharedBytesOf(mlir::Operation *op, int64_t numThreads);

/// Checks a planned kernel before its shared memory is addressed: `tilegpu.smem_bytes` within
/// what any target allows, and every op that occupies shared memory placed inside it at a
/// non-negative offset. An input that was not planned by tilecc's own pipeline fails here
/// rather than writing outside the block's buffer.
mlir::LogicalResult verifySharedMemoryPlan(mlir::Operation *func, int64_t numThreads);

/// The element type an mma operand is staged as: f8 inputs as f16 (exact), others unchanged.
mlir::Type mmaStagedType(mlir::Type element);

/// Operand elements per 32-bit register of the mma instruction for `element` inputs: 1 for
/// TF32 (m16n8k8), 2 for f16/bf16 (m16n8k16), 4 for f8 (m16n8k32).
unsigned mmaKWidth(mlir::Type element);

/// True for a conversion to 16-bit mma operands (kWidth 2) whose elements must move between
/// threads: CodeGen reads them back from shared memory with ldmatrix. (Registers that hold
/// the operand's elements already, such as an accumulator cast for the next mma, stay.)
bool convertsToLdmatrix(ConvertLayoutOp op);


/// How a scan that tilegpu::planScan cannot run in registers is split over `numThreads`
/// threads once staged: lines along the axis, and chunks per line, each scanned in place by
/// one thread before a second pass scans each line's chunk totals.
struct ScanSplit {
  int64_t lines = 1, chunks = 1;
};
ScanSplit scanSplit(llvm::ArrayRef<int64_t> shape, unsigned axis, int64_t numThreads);

} // namespace tilecc::tilegpu

#endif
