//===- TileDialect.h - the tile dialect ------------------------------*- C++ -*-===//
//
// Program-level tile IR: `!tile.view` types and the ops of TileOps.td. Tile values are builtin
// ranked tensors; elementwise arithmetic on them uses `arith` and `math`.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILE_TILEDIALECT_H
#define TILECC_DIALECT_TILE_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilecc/Dialect/Tile/TileEnums.h.inc"
#include "tilecc/Dialect/Tile/TileDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilecc/Dialect/Tile/TileTypes.h.inc"

#define GET_OP_CLASSES
#include "tilecc/Dialect/Tile/TileOps.h.inc"

namespace tilecc::tile {
/// The attribute naming a function as a tile kernel entry (value: the C++ spelling, `add<128>`).
inline constexpr llvm::StringLiteral kKernelAttrName = "tile.kernel";
/// The attribute carrying the `file:line` of the kernel's definition.
inline constexpr llvm::StringLiteral kSourceAttrName = "tile.source";
/// Function attribute: the warps per tile program the kernel asks for (TILE_KERNEL_CONFIG).
inline constexpr llvm::StringLiteral kNumWarpsAttrName = "tile.num_warps";
/// Unit attribute of the `scf.if` that tile-uniform-selects makes of a select: its condition
/// holds for every element of the tile, and its then-branch is the select's true value.
inline constexpr llvm::StringLiteral kUniformSelectAttrName = "tile.uniform_select";
} // namespace tilecc::tile

#endif
