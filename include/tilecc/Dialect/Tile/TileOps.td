//===- TileOps.td - the tile dialect's ops -------------------------*- tablegen -*-===//
//
// Ops of the program-level tile IR (see TileDialect.td).
//
//===----------------------------------------------------------------------===//

#ifndef TILECC_DIALECT_TILE_OPS
#define TILECC_DIALECT_TILE_OPS

include "tilecc/Dialect/Tile/TileDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

class Tile_Op<string mnemonic, list<Trait> traits = []> : Op<Tile_Dialect, mnemonic, traits>;

def Tile_BlockIdOp : Tile_Op<"block_id", [Pure]> {
  let summary = "this tile program's coordinate along a grid axis";
  let arguments = (ins Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let builders = [OpBuilder<(ins "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), $_builder.getI32IntegerAttr(axis));
  }]>];
}

def Tile_NumBlocksOp : Tile_Op<"num_blocks", [Pure]> {
  let summary = "the number of tile programs along a grid axis";
  let arguments = (ins Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$axis attr-dict";
  let builders = [OpBuilder<(ins "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), $_builder.getI32IntegerAttr(axis));
  }]>];
}

def Tile_DimOp : Tile_Op<"dim", [Pure]> {
  let summary = "the valid extent of a view along an axis";
  let description = [{
    For a shared view, the array's extent; for an exclusive piece, the piece's extent clipped to
    the array (smaller than the static tile shape at the edge).
  }];
  let arguments = (ins Tile_ViewType:$view, Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `,` $axis attr-dict `:` type($view)";
  let builders = [OpBuilder<(ins "::mlir::Value":$view, "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), view, $_builder.getI32IntegerAttr(axis));
  }]>];
  let hasVerifier = 1;
}

def Tile_PieceOriginOp : Tile_Op<"piece_origin", [Pure]> {
  let summary = "where a view starts in its array, along an axis";
  let description = [{
    Zero for a whole-array view; `block_id(axis) * tile(axis)` for this program's exclusive piece.
  }];
  let arguments = (ins Tile_ViewType:$view, Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$view `,` $axis attr-dict `:` type($view)";
  let builders = [OpBuilder<(ins "::mlir::Value":$view, "int32_t":$axis), [{
    build($_builder, $_state, $_builder.getIndexType(), view, $_builder.getI32IntegerAttr(axis));
  }]>];
  let hasVerifier = 1;
}

def Tile_LoadOp : Tile_Op<"load", [MemoryEffects<[MemRead]>]> {
  let summary = "load a tile from a view, reading zero past the view's extent";
  let description = [{
    `%t = tile.load %x[%i, %j] : !tile.view<?x?xf32> -> tensor<32x64xf32>` reads the elements at
    offsets `(%i + a, %j + b)` of the view; positions outside the view's valid extent read zero.
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$view `[` $offsets `]` attr-dict `:` type($view) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile into an exclusive view, dropping what falls past its extent";
  let arguments = (ins AnyRankedTensor:$value, Tile_ViewType:$view, Variadic<Index>:$offsets);
  let assemblyFormat =
      "$value `,` $view `[` $offsets `]` attr-dict `:` type($value) `,` type($view)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile with every element equal to a scalar";
  let arguments = (ins AnyType:$scalar);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$scalar attr-dict `:` type($scalar) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "the 1-D tile 0, 1, ..., N-1";
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // TILECC_DIALECT_TILE_OPS
