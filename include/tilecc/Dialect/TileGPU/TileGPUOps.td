//===- TileGPUOps.td - the tilegpu dialect -----------------------*- tablegen -*-===//
//
// The tilegpu dialect is the block-level form of a tile program: every tile value carries a
// layout (how its elements are distributed over the block's threads), and memory accesses name
// absolute coordinates in the whole array with explicit bounds and vector widths. CodeGen prints
// this form as CUDA C++. Layout conversions, shared-memory buffers, barriers, async copies and
// mma/wgmma grow here.
//
//===----------------------------------------------------------------------===//

#ifndef TILECC_DIALECT_TILEGPU_OPS
#define TILECC_DIALECT_TILEGPU_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tilecc/Dialect/Tile/TileDialect.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::tilecc::tilegpu";
  let summary = "Block-level tile programs: layouts, memory access, synchronisation";
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::tilecc::tile::TileDialect"];
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def TileGPU_BlockedLayoutAttr : AttrDef<TileGPU_Dialect, "BlockedLayout"> {
  let mnemonic = "blocked";
  let summary = "a tile distributed in contiguous chunks over lanes and warps";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along axis d; a warp's 32 lanes are
    spread as `threadsPerWarp`, the block's warps as `warpsPerBlock`; `order` lists the axes
    fastest-varying first. The pattern repeats to cover the tile; where it is larger than the
    tile, elements are replicated (the first copy owns the element for stores).

    `#tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1],
    order = [1, 0]>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerBlock,
                        ArrayRefParameter<"unsigned">:$order);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
    unsigned getNumWarps() const;
    /// Registers each thread holds for a tile of `shape`.
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_ArrayDimOp : TileGPU_Op<"array_dim", [Pure]> {
  let summary = "the extent of a view's whole array along an axis";
  let arguments = (ins Tile_ViewType:$view, Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `,` $axis attr-dict `:` type($view)";
  let builders = [OpBuilder<(ins "::mlir::Value":$view, "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), view, $_builder.getI32IntegerAttr(axis));
  }]>];
}

def TileGPU_PieceShapeOp : TileGPU_Op<"piece_shape", [Pure]> {
  let summary = "the run-time tile shape of an exclusive piece along an axis";
  let arguments = (ins Tile_ViewType:$view, Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `,` $axis attr-dict `:` type($view)";
  let builders = [OpBuilder<(ins "::mlir::Value":$view, "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), view, $_builder.getI32IntegerAttr(axis));
  }]>];
}

def TileGPU_GlobalLoadOp : TileGPU_Op<"global_load", [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "load a distributed tile from global memory";
  let description = [{
    Element `k` of the result is the array element at `offsets + k` when `starts <= offsets + k <
    bounds` on every axis, else zero. Coordinates are absolute in the view's whole array;
    `starts` is optional (zero on every axis when absent) and bounds an exclusive piece from
    below, so that no offset reaches into another program's piece.
    `vector` is the number of consecutive elements along the fastest axis each thread moves with
    one access when the memory allows it (the generated code checks stride and alignment).

    `%t = tilegpu.global_load %x[%i] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>`
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$offsets, Variadic<Index>:$starts,
                       Variadic<Index>:$bounds, ConfinedAttr<I32Attr, [IntPositive]>:$vector);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $view `[` $offsets `]` (`starts` `[` $starts^ `]`)? `bounds` `[` $bounds `]` attr-dict `:`
    type($view) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_GlobalStoreOp : TileGPU_Op<"global_store", [MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "store a distributed tile to global memory, dropping elements out of bounds";
  let description = [{
    Writes element `k` of the tile to the array element at `offsets + k` when `starts <=
    offsets + k < bounds` on every axis (`starts` zero when absent); other elements are dropped.
    Where the layout replicates the tile, only the owning copy stores. The view must be
    exclusive.
  }];
  let arguments = (ins AnyRankedTensor:$value, Tile_ViewType:$view, Variadic<Index>:$offsets,
                       Variadic<Index>:$starts, Variadic<Index>:$bounds,
                       ConfinedAttr<I32Attr, [IntPositive]>:$vector);
  let assemblyFormat = [{
    $value `,` $view `[` $offsets `]` (`starts` `[` $starts^ `]`)? `bounds` `[` $bounds `]`
    attr-dict `:` type($value) `,` type($view)
  }];
  let hasVerifier = 1;
}

def TileGPU_GlobalAtomicOp : TileGPU_Op<"global_atomic", [AttrSizedOperandSegments,
    AllTypesMatch<["value", "old"]>, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic updates of a distributed tile or one element in global memory";
  let description = [{
    `tile.atomic` in whole-array coordinates: element `k` of a tile `value` updates the array
    element at `offsets + k` when `offsets + k < bounds` on every axis (else it is dropped and
    its old value reads zero); a scalar `value` updates the element at `offsets`. Each element
    is updated exactly once: where the layout replicates the tile, the owning copy updates and
    the old values reach the copies through shared memory; a scalar update is made by thread 0
    and its old value broadcast the same way (`tilegpu.smem_offset`, only when the result is
    used).

    `%o = tilegpu.global_atomic max %t, %h[%i] bounds [%n] : tensor<64xf32, #L>, !tile.view<?xf32, atomic>`
  }];
  let arguments = (ins Tile_AtomicKind:$kind, AnyType:$value, Optional<AnyType>:$expected,
                       Tile_ViewType:$view, Variadic<Index>:$offsets, Variadic<Index>:$bounds);
  let results = (outs AnyType:$old);
  let assemblyFormat = [{
    $kind $value `,` $view `[` $offsets `]` `bounds` `[` $bounds `]`
    (`expected` $expected^ `:` type($expected))? attr-dict `:` type($value) `,` type($view)
  }];
  let hasVerifier = 1;
}

#endif // TILECC_DIALECT_TILEGPU_OPS
