//===- TileOps.td - the tile dialect's ops -------------------------*- tablegen -*-===//
//
// Ops of the program-level tile IR (see TileDialect.td).
//
//===----------------------------------------------------------------------===//

#ifndef TILECC_DIALECT_TILE_OPS
#define TILECC_DIALECT_TILE_OPS

include "tilecc/Dialect/Tile/TileDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

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
    A tile of lower rank than the view spans the view's last axes and is one element thick
    along the others: `tile.load %x[%h, %i, %j] : !tile.view<?x?x?xf32> -> tensor<32x64xf32>`
    reads `(%h, %i + a, %j + b)` (a reshape dropping a loaded tile's leading unit axes folds
    into the load).
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$offsets);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$view `[` $offsets `]` attr-dict `:` type($view) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [MemoryEffects<[MemWrite]>]> {
  let summary = "store a tile into an exclusive view, dropping what falls past its extent";
  let description = [{
    Writes element `k` of the tile at `offsets + k`. As with `tile.load`, a tile of lower rank
    than the view spans the view's last axes.
  }];
  let arguments = (ins AnyRankedTensor:$value, Tile_ViewType:$view, Variadic<Index>:$offsets);
  let assemblyFormat =
      "$value `,` $view `[` $offsets `]` attr-dict `:` type($value) `,` type($view)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_AtomicOp : Tile_Op<"atomic", [AttrSizedOperandSegments,
                                      AllTypesMatch<["value", "old"]>,
                                      MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "atomic read-modify-write of a tile or one element of an atomic view";
  let description = [{
    With a tile `value`, updates the value-shaped window at element `offsets` of the view;
    with a scalar, the one element at `offsets`. Each element update is atomic on its own: `add`,
    `max`/`min` (signed integers, or floats where a NaN operand yields the other one),
    `umax`/`umin` (unsigned integers), `exchange`, and `cas`, which stores `value` where the
    element's bits equal `expected`'s. Elements past the view's extent are
    dropped and read as zero. The result holds the old values.

    `%old = tile.atomic add %t, %h[%i] : tensor<64xi32>, !tile.view<?xi32, atomic>`
  }];
  let arguments = (ins Tile_AtomicKind:$kind, AnyType:$value, Optional<AnyType>:$expected,
                       Tile_ViewType:$view, Variadic<Index>:$offsets);
  let results = (outs AnyType:$old);
  let assemblyFormat = [{
    $kind $value `,` $view `[` $offsets `]` (`expected` $expected^ `:` type($expected))?
    attr-dict `:` type($value) `,` type($view)
  }];
  let builders = [OpBuilder<(ins "AtomicKind":$kind, "::mlir::Value":$value,
                                 "::mlir::Value":$expected, "::mlir::Value":$view,
                                 "::mlir::ValueRange":$offsets), [{
    build($_builder, $_state, value.getType(), kind, value, expected, view, offsets);
  }]>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Complex numbers: built from and taken apart into their f32 parts; arithmetic on complex
// values is lowered to f32 arithmetic on the parts (tile/core.hpp gives the formulas).
//===----------------------------------------------------------------------===//

def Tile_MakeComplexOp : Tile_Op<"make_complex", [Pure, Elementwise,
                                                   AllTypesMatch<["real", "imag"]>]> {
  let summary = "complex values from their real and imaginary parts, elementwise";
  let arguments = (ins AnyTypeOf<[F32, TensorOf<[F32]>]>:$real,
                       AnyTypeOf<[F32, TensorOf<[F32]>]>:$imag);
  let results = (outs AnyTypeOf<[Complex<F32>, TensorOf<[Complex<F32>]>]>:$result);
  let assemblyFormat = "$real `,` $imag attr-dict `:` type($real) `->` type($result)";
}

def Tile_RealOp : Tile_Op<"real", [Pure, Elementwise]> {
  let summary = "the real parts of complex values, elementwise";
  let arguments = (ins AnyTypeOf<[Complex<F32>, TensorOf<[Complex<F32>]>]>:$value);
  let results = (outs AnyTypeOf<[F32, TensorOf<[F32]>]>:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
}

def Tile_ImagOp : Tile_Op<"imag", [Pure, Elementwise]> {
  let summary = "the imaginary parts of complex values, elementwise";
  let arguments = (ins AnyTypeOf<[Complex<F32>, TensorOf<[Complex<F32>]>]>:$value);
  let results = (outs AnyTypeOf<[F32, TensorOf<[F32]>]>:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Tile_CheckOp : Tile_Op<"check", [MemoryEffects<[MemWrite]>]> {
  let summary = "fail the launch with a message unless a condition holds";
  let description = [{
    `condition` is an i1, or a tile of i1 that holds when every element is true. A failure
    records the kernel, the op's source location, the program's coordinates and `message`
    (the first failure of a launch wins); the program goes on. The runtime reports it as a
    tile::Error.

    `tile.check %ok, "values stay finite" : tensor<64xi1>`
  }];
  let arguments = (ins AnyTypeOf<[I1, TensorOf<[I1]>]>:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tile_PrintOp : Tile_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "print a scalar or every element of a tile, with the program's coordinates";
  let description = [{
    One line `[program (i, j)] label = v` for a scalar, `label[a, b] = v` per element of a tile
    in row-major order (tile/debug.hpp gives the number formats). `is_unsigned` prints integers as
    unsigned.

    `tile.print "row", %t : tensor<4xf32>`
  }];
  let arguments = (ins StrAttr:$label, AnyType:$value, UnitAttr:$is_unsigned);
  let assemblyFormat = "$label `,` $value attr-dict `:` type($value)";
}

def Tile_SplatOp : Tile_Op<"splat", [Pure]> {
  let summary = "a tile with every element equal to a scalar";
  let arguments = (ins AnyType:$scalar);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$scalar attr-dict `:` type($scalar) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "each element's index along one axis: 0, 1, ..., N-1";
  let description = [{
    Element (i_0, ..., i_{R-1}) of the result is i_axis (`axis` 0 when absent), so the rank-1
    form is 0, 1, ..., N-1. A broadcast or a reshape of an iota that only adds unit or
    repeated axes is an iota of the result's shape (canonicalization), which every layout
    computes from its coordinates without moving data.

    `%r = tile.iota {axis = 1 : i32} : tensor<4x64xi32>`
  }];
  let arguments = (ins OptionalAttr<I32Attr>:$axis);
  let results = (outs RankedTensorOf<[AnySignlessInteger, AnyFloat]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Type":$type), [{
    build($_builder, $_state, type, ::mlir::IntegerAttr());
  }]>];
  let extraClassDeclaration = [{
    unsigned getIotaAxis() { return getAxis() ? unsigned(*getAxis()) : 0; }
  }];
  let hasVerifier = 1;
}


//===----------------------------------------------------------------------===//
// Shapes: ops that move elements between positions of a tile
//===----------------------------------------------------------------------===//

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeat a tile along its size-1 axes and new leading axes";
  let description = [{
    NumPy rules: the source's shape is aligned with the result's from the right; each source
    extent equals the result's or is 1 (repeated). Leading result axes the source lacks repeat
    the whole source.

    `%b = tile.broadcast %x : tensor<32x1xf32> -> tensor<4x32x64xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "the same elements in row-major order, seen with another shape";
  let arguments = (ins AnyRankedTensor:$source);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_PermuteOp : Tile_Op<"permute", [Pure]> {
  let summary = "reorder a tile's axes: result axis k is source axis perm[k]";
  let arguments = (ins AnyRankedTensor:$source, DenseI32ArrayAttr:$perm);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source $perm attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_CatOp : Tile_Op<"cat", [Pure]> {
  let summary = "two tiles of one shape, joined along an axis (lhs first)";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs, Tile_AxisAttr:$axis);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs `axis` $axis attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ExtractOp : Tile_Op<"extract", [Pure]> {
  let summary = "the sub-tile at a run-time sub-tile index, zero where it lies outside";
  let description = [{
    The source is cut into result-shaped sub-tiles; the result is the one at sub-tile index
    `indices` (elements `[i_k * r_k, (i_k + 1) * r_k)` along axis k). Positions outside the
    source (an index out of range, or negative) read zero.
  }];
  let arguments = (ins AnyRankedTensor:$source, Variadic<Index>:$indices);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

def Tile_ReduceOp : Tile_Op<"reduce", [Pure, AttrSizedOperandSegments]> {
  let summary = "combine a tile's elements along an axis with a combiner region";
  let description = [{
    Reduces N tiles of one shape together along `axis` (N = 2 for argmax: values and indices).
    The combiner block takes the accumulated values `(a_0..a_{N-1})` and another element's
    `(b_0..b_{N-1})` and yields the combination; it must be associative and commutative, since
    the order of combination is the implementation's (a tree on the GPU). Each result is its
    operand's shape without `axis`, or a scalar when the operand has rank 1. With `inits`
    (one scalar per operand), each result is then combined once with them: `f(init, r)`.

    ```
    %s = tile.reduce %x axis 1 : tensor<32x64xf32> -> tensor<32xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.addf %a, %b : f32
      tile.yield %c : f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$sources, Variadic<AnyType>:$inits,
                       Tile_AxisAttr:$axis);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $sources (`init` `(` $inits^ `:` type($inits) `)`)? `axis` $axis attr-dict `:`
    type($sources) `->` type($results) $combiner
  }];
  let hasVerifier = 1;
}

def Tile_ScanOp : Tile_Op<"scan", [Pure, AttrSizedOperandSegments]> {
  let summary = "inclusive scan of tiles along an axis with a combiner region";
  let description = [{
    Result element i along `axis` combines elements 0..i of the operands, in order; the
    combiner (as for `tile.reduce`) takes the running values then the next element's and must
    be associative. Results have their operands' types. With `inits`, every result element is
    `f(init, s)` for the scan `s` without them (the fold starting from `init`).
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$sources, Variadic<AnyType>:$inits,
                       Tile_AxisAttr:$axis);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$combiner);
  let assemblyFormat = [{
    $sources (`init` `(` $inits^ `:` type($inits) `)`)? `axis` $axis attr-dict `:`
    type($sources) `->` type($results) $combiner
  }];
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
                                     ParentOneOf<["ReduceOp", "ScanOp"]>]> {
  let summary = "the combination computed by a combiner region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}


//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate
//===----------------------------------------------------------------------===//

def Tile_MmaOp : Tile_Op<"mma", [Pure]> {
  let summary = "acc + a x b on tensor cores (rank 2, or batched rank 3)";
  let description = [{
    `a` is [B x] M x K, `b` [B x] K x N, `acc` and the result [B x] M x N. Inputs are f16, bf16,
    f32 (multiplied as TF32: each input rounded to 10 mantissa bits, to nearest even) or f8
    (e4m3 or e5m2, in any pair; exactly representable in f16, which the portable path
    multiplies); the accumulator is f32. Products are summed in f32 in an order of the implementation's choosing.

    `%c = tile.mma %a, %b, %acc : tensor<64x32xf16>, tensor<32x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>`
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `,` type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // TILECC_DIALECT_TILE_OPS
