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
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let dependentDialects = ["::tilecc::tile::TileDialect"];
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

def TileGPU_LayoutEncodingAttrInterface : AttrInterface<"LayoutEncodingAttrInterface"> {
  let cppNamespace = "::tilecc::tilegpu";
  let description = [{
    A layout attribute: how the elements of a tile are distributed over the registers, lanes
    and warps of a tile program (distributed layouts), or placed at the offsets of a
    shared-memory buffer (shared layouts). Every layout is one linear layout over a given
    tile shape (tilecc/Layout/LinearLayout.h); conversions, reductions and shared-memory
    addressing are decided on that form.
  }];
  let methods = [
    InterfaceMethod<[{
      The linear layout over a tile of `shape` in a program of `numWarps` warps: inputs
      `register`, `lane`, `warp` for a distributed layout (exactly log2(numWarps) warp bits;
      warps the layout does not use hold copies), `offset` for a shared one; outputs the
      tile's axes.
    }], "::tilecc::LinearLayout", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "unsigned":$numWarps)>,
  ];
}

class TileGPU_Layout<string name, string mnemonicName>
    : AttrDef<TileGPU_Dialect, name, [DeclareAttrInterfaceMethods<TileGPU_LayoutEncodingAttrInterface>]> {
  let mnemonic = mnemonicName;
}

def TileGPU_BlockedLayoutAttr : TileGPU_Layout<"BlockedLayout", "blocked"> {
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
    /// True when the layout can hold a tile of `shape`: the rank matches, no thread's chunk
    /// is larger than the tile, and the pattern tiles it (or a whole number of copies fit).
    bool fits(::llvm::ArrayRef<int64_t> shape) const;
    /// Registers each thread holds for a tile of `shape`.
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_MmaLayoutAttr : TileGPU_Layout<"MmaLayout", "mma"> {
  let summary = "the accumulator fragments of mma.sync m16n8 instructions over the warps";
  let description = [{
    A [B x] M x N tile cut into 16 x 8 instruction tiles. The warps form a grid of
    `warpsPerBlock` (rank entries, the batch entry 1), warp w at row w / WN, column w % WN; the
    grid covers 16*WM x 8*WN and repeats over the tile (and over the batch). Lane l of a warp
    holds, in each instruction tile, the four elements (g, 2t), (g, 2t+1), (g+8, 2t),
    (g+8, 2t+1) with g = l / 4 and t = l % 4: the PTX accumulator fragment. Registers run over
    the batch, then the repeats along M, then along N, then those four. Warps beyond the grid
    (a block with more warps than the tile has room for) hold copies.

    `#tilegpu.mma<warpsPerBlock = [4, 2]>`
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$warpsPerBlock);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getWarpsPerBlock().size(); }
    /// Warps of the grid (at most the block's; the rest hold copies).
    unsigned getNumWarps() const;
    /// True when the layout can hold a tile of `shape` (M a multiple of 16*WM or 1, N of
    /// 8*WN or 1: a unit axis is held by the threads of the others, once per thread).
    bool fits(::llvm::ArrayRef<int64_t> shape) const;
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_DotOperandLayoutAttr : TileGPU_Layout<"DotOperandLayout", "dot_operand"> {
  let summary = "the A (opIdx 0) or B (opIdx 1) operand fragments of mma.sync";
  let description = [{
    The registers `tilegpu.mma` reads for its operand `opIdx` when its accumulator has layout
    `parent`. `kWidth` is the operand elements per 32-bit instruction register: 1 for TF32
    (m16n8k8), 2 for 16-bit inputs (m16n8k16), 4 for f8 (m16n8k32 on sm_89 and later; two
    f16 m16n8k16 on the same registers before, with the k order the fragments share).
    A ([B x] M x K) is held per 16 x k instruction tile as the PTX A fragment, replicated over
    the warp grid's columns; B (K x N) per k x 8 tile as the B fragment, replicated over its
    rows. Registers run over the batch, then M (A) or K (B) tiles, then K (A) or N (B) tiles,
    then the fragment's elements.

    `#tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [4, 2]>, kWidth = 2>`
  }];
  let parameters = (ins "unsigned":$opIdx, "MmaLayoutAttr":$parent, "unsigned":$kWidth);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getParent().getRank(); }
    /// The instruction's k: 16 for kWidth 2, 8 for kWidth 1.
    int64_t getInstrK() const { return 8 * int64_t(getKWidth()); }
    /// Operand elements of one instruction tile each lane holds.
    int64_t getElemsPerTile() const;
    bool fits(::llvm::ArrayRef<int64_t> shape) const;
    int64_t getElemsPerThread(::llvm::ArrayRef<int64_t> shape) const;
  }];
}

def TileGPU_SliceLayoutAttr : TileGPU_Layout<"SliceLayout", "slice"> {
  let summary = "a distributed layout without one of its parent's axes: a reduction's result";
  let description = [{
    The tile of rank R-1 that reducing a tile in layout `parent` along `dim` leaves: each
    element sits where the parent held the elements it combines, so the lanes and warps that
    spread the parent along `dim` hold copies, and the registers that did are gone.
    Broadcasting a tile in this layout back along `dim` (after reshaping `dim` in as a unit
    axis) needs no data movement.

    `#tilegpu.slice<dim = 1, parent = #tilegpu.blocked<...>>`
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TileGPU_LinearLayoutAttr : TileGPU_Layout<"LinearLayout", "linear"> {
  let summary = "a distributed layout given by its bases: where each register, lane and warp bit goes";
  let description = [{
    The general distributed layout, for results that no named layout describes: the tile
    coordinates that each bit of a thread's register number, of its lane (5 bits) and of its
    warp adds (XOR-combined, as in every tilecc layout). A zero basis holds copies. A reshape
    keeps each element in its thread under the layout its operand's bases give over the
    result's shape, so layout inference uses this form where no named layout does (a
    reduction's result reshaped with a unit axis on the other side). Coordinates past a
    tile's extent wrap (as a slice's parent is seen over a unit axis); a tile's own layout
    must cover it exactly.

    `#tilegpu.linear<register = [[0, 1], [0, 2]], lane = [[0, 4], [0, 8], [1, 0], [2, 0],
    [4, 0]], warp = [[8, 0]]>`
  }];
  let parameters = (ins "unsigned":$rank,
                        ArrayRefParameter<"int64_t">:$registers,
                        ArrayRefParameter<"int64_t">:$lanes,
                        ArrayRefParameter<"int64_t">:$warps);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The layout `layout` (inputs register, lane, warp over a tile of `shape`) as bases.
    static LinearLayoutAttr get(::mlir::MLIRContext *ctx, const ::tilecc::LinearLayout &layout);
    /// True when the bases stay inside a tile of `shape` of the same rank and reach every
    /// element of it.
    bool fits(::llvm::ArrayRef<int64_t> shape) const;
    unsigned getNumWarps() const { return 1u << (getWarps().size() / getRank()); }
  }];
}

def TileGPU_SharedLayoutAttr : TileGPU_Layout<"SharedLayout", "shared"> {
  let summary = "a tile's place in a shared-memory buffer, with an XOR swizzle";
  let description = [{
    Elements are stored with `order[0]` the fastest axis, in rows along it. Row r of the two
    fastest axes stores its `vec`-element groups permuted: group g is stored at position
    g ^ ((r / perPhase) % maxPhase), so that threads reading one column of a row-major tile, or
    8 rows of 16 bytes for ldmatrix, reach distinct banks. `vec = 1, perPhase = 1,
    maxPhase = 1` is the plain row-major buffer. Slower axes are stacked without a swizzle.
    A nonzero `block` cuts the fastest axis into blocks of that many elements and stores each
    block column of all the rows on its own, one after the other (the rows then have `block`
    elements: the 128-byte swizzle rows that wgmma descriptors address).

    `#tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>`
    `#tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>`
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order, DefaultValuedParameter<"unsigned", "0">:$block);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def TileGPU_BufferType : TypeDef<TileGPU_Dialect, "Buffer"> {
  let mnemonic = "buffer";
  let summary = "a ring of tiles in the block's shared memory";
  let description = [{
    `stages` tiles of type `tile` (shape and element type; no layout), one after the other in
    the kernel's dynamic shared memory, each laid out by the `#tilegpu.shared` `layout` over the
    tile's last axis (rows of the last axis, the swizzle on its `vec`-element groups). A
    software pipeline fills one stage while the program reads another. The buffer's place is
    decided by tilegpu-plan-shared-memory (`tilegpu.smem_offset` on its `alloc_buffer`).

    `!tilegpu.buffer<3, tensor<64x32xf16>, #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>`
  }];
  let parameters = (ins "unsigned":$stages, "::mlir::RankedTensorType":$tile,
                        "SharedLayoutAttr":$layout);
  let assemblyFormat = "`<` $stages `,` $tile `,` $layout `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Elements of one stage.
    int64_t getStageElements() const { return getTile().getNumElements(); }
  }];
}

def TileGPU_TensorMapType : TypeDef<TileGPU_Dialect, "TensorMap"> {
  let mnemonic = "tensor_map";
  let summary = "a tensor-memory-accelerator descriptor (CUtensorMap) of a kernel's view";
  let description = [{
    Describes a view argument for copies of tiles of type `tile` (shape and element type)
    into buffer stages laid out by `layout`: the box is the tile's rows by one block of its
    row (the whole row when the layout has no blocks), its swizzle the layout's (rows of 32,
    64 or 128 bytes in their swizzle, or none). `tilegpu::tensorMapBox` says which layouts a
    descriptor can write. The launch builds the descriptor from the argument. A map marked
    `tf32` (of floats) rounds each element to TF32 as it copies, to nearest, ties to even.

    `!tilegpu.tensor_map<tensor<64x256xbf16>, #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>>`
    `!tilegpu.tensor_map<tensor<128x32xf32>, #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>, tf32>`
  }];
  let parameters = (ins "::mlir::RankedTensorType":$tile, "SharedLayoutAttr":$layout,
                        DefaultValuedParameter<"bool", "false">:$roundTF32);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TileGPU_BarriersType : TypeDef<TileGPU_Dialect, "Barriers"> {
  let mnemonic = "barriers";
  let summary = "a ring of memory barriers (mbarrier objects) in the block's shared memory";
  let description = [{
    `count` barriers, 8 bytes each, placed by tilegpu-plan-shared-memory. Each completes a
    phase when its expected arrivals have arrived; waits name the phase by its parity. A
    warp-specialized ring has one barrier per stage for "the stage is full" and one for "the
    stage is free again".

    `!tilegpu.barriers<4>`
  }];
  let parameters = (ins "unsigned":$count);
  let assemblyFormat = "`<` $count `>`";
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

def TileGPU_ProgramBaseOp : TileGPU_Op<"program_base", [Pure]> {
  let summary = "the first tile program of this CUDA block";
  let description = [{
    In a kernel whose block runs `tilegpu.programs_in_sequence` programs one after the other
    (tilegpu-sequence-programs), or in a persistent kernel (tilegpu-persistent-programs), the
    linear number of the block's first program.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_ProgramStrideOp : TileGPU_Op<"program_stride", [Pure]> {
  let summary = "the number of CUDA blocks of the launch";
  let description = [{
    In a persistent kernel (`tilegpu.persistent`: a block runs programs `tilegpu.program_base`,
    that plus this stride, and so on, below `tilegpu.num_programs`), the distance between the
    linear numbers of two programs a block runs one after the other.
  }];
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_GroupedProgramOp : TileGPU_Op<"grouped_program", [Pure]> {
  let summary = "the program a persistent block visits k-th, in a grouped order";
  let description = [{
    For a launch grid of rank 2, the linear number of the program visited `k`-th when the grid
    is taken in bands of `group` rows, each band column by column (programs that run at once
    then share rows of tiles of one operand and columns of the other); for other ranks, `k`.
    A permutation of the programs, so every program still runs exactly once.
  }];
  let arguments = (ins Index:$k, ConfinedAttr<I64Attr, [IntPositive]>:$group);
  let results = (outs Index:$result);
  let assemblyFormat = "$k attr-dict";
}

def TileGPU_NumProgramsOp : TileGPU_Op<"num_programs", [Pure]> {
  let summary = "the number of tile programs of the launch";
  let results = (outs Index:$result);
  let assemblyFormat = "attr-dict";
}

def TileGPU_ProgramCoordOp : TileGPU_Op<"program_coord", [Pure]> {
  let summary = "a tile program's coordinate along a grid axis";
  let description = [{
    `tile.block_id` of the program whose linear number is `program`: the coordinate along
    `axis` of the launch grid (row-major, last axis fastest; a mapped partition's tile).
  }];
  let arguments = (ins Index:$program, Tile_AxisAttr:$axis);
  let results = (outs Index:$result);
  let assemblyFormat = "$program `,` $axis attr-dict";
}

def TileGPU_GlobalLoadOp : TileGPU_Op<"global_load", [MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "load a distributed tile from global memory";
  let description = [{
    Element `k` of the result is the array element at `offsets + k` when `starts <= offsets + k <
    bounds` on every axis, else zero. Coordinates are absolute in the view's whole array;
    `starts` is optional (zero on every axis when absent) and bounds an exclusive piece from
    below, so that no offset reaches into another program's piece.
    `vector` is the number of consecutive elements along the layout's fastest axis each thread
    moves with one access; every thread's runs start at a multiple of it within the tile.
    `aligned` says that the offset along that axis is a multiple of `vector` too. A tile that
    lies wholly inside its bounds, in a view whose fastest axis has stride 1 and whose rows
    are aligned (known at launch), then moves with vector accesses and no test per element;
    without `aligned` the offset is tested once per access. Other tiles move element by element
    where they are cut or unaligned. `whole` says that when the arguments meet the kernel's
    `tilegpu.specialization` (tested once per launch), the tile lies wholly inside its bounds
    or wholly outside them, and its vectors are aligned: the specialized kernel tests only
    which, once per access. `runs` says that when the arguments meet the specialization's run
    facts, each thread's run of `vector` elements lies wholly inside or wholly outside the
    bounds and is an aligned vector: a tile the bounds cut then moves with one predicated
    vector access per run and no path per element.

    `%t = tilegpu.global_load %x[%i] bounds [%n] {aligned, vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>`
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$offsets, Variadic<Index>:$starts,
                       Variadic<Index>:$bounds, ConfinedAttr<I32Attr, [IntPositive]>:$vector,
                       UnitAttr:$aligned, UnitAttr:$whole, UnitAttr:$runs);
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
    exclusive. `vector`, `aligned`, `whole` and `runs` as for `global_load`.
  }];
  let arguments = (ins AnyRankedTensor:$value, Tile_ViewType:$view, Variadic<Index>:$offsets,
                       Variadic<Index>:$starts, Variadic<Index>:$bounds,
                       ConfinedAttr<I32Attr, [IntPositive]>:$vector, UnitAttr:$aligned,
                       UnitAttr:$whole, UnitAttr:$runs);
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

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout",
    [Pure, SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "the same tile under another layout";
  let description = [{
    Moves a tile's elements between the threads that hold them under the source layout and
    those that hold them under the result's. CodeGen stages the tile in the kernel's shared
    memory (`tilegpu.smem_offset`). Conversions of conversions fold, and a constant converts
    for free.

    `%d = tilegpu.convert_layout %c : tensor<64x64xf32, #tilegpu.mma<...>> -> tensor<64x64xf32, #B>`
  }];
  let arguments = (ins AnyRankedTensor:$src);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def TileGPU_MmaOp : TileGPU_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + a x b on fragments held in registers (mma.sync, sm_80 and later)";
  let description = [{
    `tile.mma` once its operands are in the fragment layouts: `a` and `b` carry
    `#tilegpu.dot_operand` layouts with opIdx 0 and 1 of the accumulator's `#tilegpu.mma`
    layout. Each warp runs the instructions of its accumulator tiles over K with no shared
    memory; the result stays in the accumulator's registers.

    `%r = tilegpu.mma %a, %b, %c : tensor<64x32xf16, #A>, tensor<32x64xf16, #B> -> tensor<64x64xf32, #M>`
  }];
  let arguments = (ins AnyRankedTensor:$a, AnyRankedTensor:$b, AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shared-memory buffers and async copies
//===----------------------------------------------------------------------===//

def TileGPU_AllocBufferOp : TileGPU_Op<"alloc_buffer", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a shared-memory ring buffer of the tile program";
  let description = [{
    The buffer lives from here to its last use; tilegpu-plan-shared-memory gives it its bytes
    (`tilegpu.smem_offset`). Its contents start undefined.

    `%b = tilegpu.alloc_buffer : !tilegpu.buffer<3, tensor<64x32xf16>, #S>`
  }];
  let results = (outs TileGPU_BufferType:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy",
    [MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "start copying a tile from global memory into a buffer's stage";
  let description = [{
    Element `k` of stage `stage` becomes the array element at `offsets + k` when `starts <=
    offsets + k < bounds` on every axis, else zero, as `global_load` reads it. The threads of
    the program share the copy as the distributed layout of `tile` (a tensor type with the
    tile's shape and element type) deals its elements, `vector` consecutive elements per
    access (`cp.async` of 4, 8 or 16 bytes where the view allows it, else plain loads and
    shared stores, zeros written for elements out of bounds). The copy completes only at a
    later `async_wait` that leaves fewer groups pending than were committed since; its bytes
    are visible to other threads after a `barrier` that follows that wait. `aligned`, `whole`
    and `runs` as for `global_load`. With `round_tf32` each float is stored rounded to TF32
    (ten mantissa bits, to nearest, ties to even): `cp.async` cannot round, so such a copy
    makes plain loads and shared stores, unless `tile-tensor-map-copies` gives it to a tensor
    map that rounds (the tensor memory accelerator rounds as it copies).

    `tilegpu.async_copy %a[%i, %k] bounds[%m, %n] into %b[%s] {vector = 8 : i32, tile = tensor<64x32xf16, #L>} : !tile.view<?x?xf16>, !tilegpu.buffer<3, tensor<64x32xf16>, #S>`
  }];
  let arguments = (ins Tile_ViewType:$view, Variadic<Index>:$offsets, Variadic<Index>:$starts,
                       Variadic<Index>:$bounds, TileGPU_BufferType:$buffer, Index:$stage,
                       ConfinedAttr<I32Attr, [IntPositive]>:$vector, TypeAttrOf<AnyRankedTensor>:$tile,
                       UnitAttr:$aligned, UnitAttr:$whole, UnitAttr:$runs,
                       UnitAttr:$round_tf32);
  let assemblyFormat = [{
    $view `[` $offsets `]` (`starts` `[` $starts^ `]`)? `bounds` `[` $bounds `]` `into`
    $buffer `[` $stage `]` attr-dict `:` type($view) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitOp : TileGPU_Op<"async_commit", [MemoryEffects<[MemWrite]>]> {
  let summary = "close the group of async copies this thread started since the last commit";
  let assemblyFormat = "attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until at most `pending` committed groups of async copies are in flight";
  let description = [{
    Groups complete in the order they were committed: after `async_wait {pending = n}` every
    group but the `n` committed last has landed in shared memory (this thread's copies; a
    `barrier` then makes them visible to the others).
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let assemblyFormat = "attr-dict";
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the tile program's threads meet; shared-memory accesses before it are done";
  let assemblyFormat = "attr-dict";
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read a buffer's stage into a distributed tile";
  let description = [{
    The tile held in stage `stage`, in the result's layout. 16-bit operands of `tilegpu.mma`
    (`#tilegpu.dot_operand` with kWidth 2) are read with ldmatrix.

    `%t = tilegpu.local_load %b[%s] : !tilegpu.buffer<3, tensor<64x32xf16>, #S> -> tensor<64x32xf16, #D>`
  }];
  let arguments = (ins TileGPU_BufferType:$buffer, Index:$stage);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$buffer `[` $stage `]` attr-dict `:` type($buffer) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_RestageOp : TileGPU_Op<"restage", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "rewrite a buffer's stage in another buffer's layout, optionally as TF32";
  let description = [{
    Stage `dstStage` of `dst` becomes the tile held in stage `srcStage` of `src` (the same
    tile shape and element type; the two laid out alike, or one row-major and the other
    column-major), each float rounded to TF32 (ten mantissa bits, to nearest, ties to even)
    where `round_tf32` is set. `src` and `dst` may be one buffer laid out alike (in place). The
    program's threads share the work: a barrier before it makes the source stage's copies
    visible, and one after it (with `fence_async_shared` before it, for wgmma) its writes.
    wgmma reads 8-bit and TF32 operands only K-major, and TF32 ones by dropping the low bits:
    tile-pipeline-mma-operands restages such operands between their ring and the mma.

    `tilegpu.restage %r[%s] into %k[%t] {round_tf32} : !tilegpu.buffer<3, tensor<32x128xf32>, #R>, !tilegpu.buffer<2, tensor<32x128xf32>, #K>`
  }];
  let arguments = (ins TileGPU_BufferType:$src, Index:$srcStage, TileGPU_BufferType:$dst,
                       Index:$dstStage, UnitAttr:$round_tf32);
  let assemblyFormat = [{
    $src `[` $srcStage `]` `into` $dst `[` $dstStage `]` attr-dict `:` type($src) `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TileGPU_FenceAsyncSharedOp : TileGPU_Op<"fence_async_shared", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "make this thread's shared-memory writes visible to the async proxy";
  let description = [{
    wgmma reads its operands through the async proxy: the writes of a stage (its async copies
    once waited for) are fenced by the threads that made them, then published by a barrier.
  }];
  let assemblyFormat = "attr-dict";
}

def TileGPU_WarpgroupMmaOp : TileGPU_Op<"warpgroup_mma",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + a x b with b (and a) read from buffer stages by the warpgroups";
  let description = [{
    `b` (K x N) is a stage of a ring buffer of tiles laid out by
    tilegpu::ldmatrixBufferLayout; `a` (M x K) is one too, or, for 16-bit inputs, a tile in
    registers with the `#tilegpu.dot_operand` layout (opIdx 0) of the accumulator's (such as
    an accumulator of another mma cast to 16 bits: attention's P x V). The accumulator has
    the `#tilegpu.mma` layout of the block's W warps stacked along M
    (`warpsPerBlock = [W, 1]`, W a multiple of 4), so that warpgroup g holds rows
    64g .. 64g+63 of every 16W rows. On sm_90a each warpgroup issues `wgmma.mma_async` from
    shared-memory descriptors (and A's registers) as one group and goes on: the result may
    only feed the accumulator of another warpgroup mma, or a `warpgroup_wait`, and the stages
    (and A's registers) are read until that wait. Other targets read the same stages with
    ldmatrix and run mma.sync at once. The stages' copies must have been waited for, fenced
    (`fence_async_shared`) and published by a barrier.

    `%r = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>`
    `%r = tilegpu.warpgroup_mma %p, %b[%s], %c : tensor<128x64xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #M, kWidth = 2>>, !tilegpu.buffer<3, tensor<64x64xbf16>, #SB> -> tensor<128x64xf32, #M>`
  }];
  let arguments = (ins AnyTypeOf<[TileGPU_BufferType, AnyRankedTensor]>:$a,
                       Optional<Index>:$aStage, TileGPU_BufferType:$b, Index:$bStage,
                       AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $a (`[` $aStage^ `]`)? `,` $b `[` $bStage `]` `,` $acc attr-dict `:` type($a) `,` type($b)
    `->` type($result)
  }];
  let extraClassDeclaration = [{
    /// True when A is a tile in registers rather than a buffer stage.
    bool aInRegisters() { return ::llvm::isa<::mlir::RankedTensorType>(getA().getType()); }
    /// A's tile type (without layout when it is a buffer stage).
    ::mlir::RankedTensorType getATile();
  }];
  let hasVerifier = 1;
}

def TileGPU_WarpgroupWaitOp : TileGPU_Op<"warpgroup_wait",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait until at most `pending` warpgroup mma groups are in flight";
  let description = [{
    Groups complete in the order they were issued: with `pending = 0`, `acc` (the result of
    the last `warpgroup_mma`) is ready as `result` and no stage is read any more.

    `%r = tilegpu.warpgroup_wait %c {pending = 0 : i32} : tensor<128x128xf32, #W>`
  }];
  let arguments = (ins AnyRankedTensor:$acc, ConfinedAttr<I32Attr, [IntNonNegative]>:$pending);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$acc attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Warp specialization: memory barriers and the producer warps
//===----------------------------------------------------------------------===//

def TileGPU_AllocBarriersOp : TileGPU_Op<"alloc_barriers", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "a ring of memory barriers, initialized for `arrivals` arrivals per phase";
  let description = [{
    One thread initializes every barrier of the ring, then all the block's threads (those of
    a `tilegpu.producer` included) meet, so it must come before the producer and outside
    control flow. Its bytes are placed by tilegpu-plan-shared-memory.

    `%full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$arrivals);
  let results = (outs TileGPU_BarriersType:$barriers);
  let assemblyFormat = "attr-dict `:` type($barriers)";
}

def TileGPU_BarrierWaitOp : TileGPU_Op<"barrier_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait until barrier `index` has completed the phase of parity `parity`";
  let description = [{
    Returns once the phase of the given parity (0 or 1) of barrier `index` is complete:
    every shared-memory write that arrived on it is visible to the waiting threads (an async
    copy's, through `async_copy_arrive`, in the generic proxy: a `fence_async_shared` follows
    before wgmma reads it). A barrier that never completed a phase counts its phase of parity
    1 as complete, so a first wait for a free stage passes.

    `tilegpu.barrier_wait %full[%s], %parity : !tilegpu.barriers<4>`
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, Index:$index, Index:$parity);
  let assemblyFormat = "$barriers `[` $index `]` `,` $parity attr-dict `:` type($barriers)";
}

def TileGPU_BarrierArriveOp : TileGPU_Op<"barrier_arrive", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "each warp running it arrives once on barrier `index`";
  let description = [{
    The warp's threads have finished their accesses before (its lane 0 arrives with release
    semantics once they all reached this point).

    `tilegpu.barrier_arrive %empty[%s] : !tilegpu.barriers<4>`
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, Index:$index);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` type($barriers)";
}

def TileGPU_TurnWaitOp : TileGPU_Op<"turn_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the program's warpgroup waits for its turn to issue warpgroup mma";
  let description = [{
    The program's warpgroups (four warps each, two or more, in a kernel with a
    `tilegpu.producer`) take turns issuing their warpgroup mma, so that one's products run on
    the tensor cores while the others work on theirs (FlashAttention-3's ping-pong):
    warpgroup w waits until warpgroup w - 1 (the last, for the first) has passed the turn
    with `tilegpu.turn_pass`. With `once`, only the first warpgroup waits: it takes the pass
    that `tilegpu.turn_pass once` began with, so that every pass is waited for.

    `tilegpu.turn_wait`
  }];
  let arguments = (ins UnitAttr:$once);
  let assemblyFormat = "(`once` $once^)? attr-dict";
}

def TileGPU_TurnPassOp : TileGPU_Op<"turn_pass", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the program's warpgroup passes the turn to the next one";
  let description = [{
    See `tilegpu.turn_wait`. With `once`, only the last warpgroup passes (to the first):
    the first turn.

    `tilegpu.turn_pass once`
  }];
  let arguments = (ins UnitAttr:$once);
  let assemblyFormat = "(`once` $once^)? attr-dict";
}

def TileGPU_AsyncCopyArriveOp : TileGPU_Op<"async_copy_arrive",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "each thread arrives on barrier `index` when its async copies so far landed";
  let description = [{
    The arrival of every running thread is counted in the barrier's `arrivals` and happens
    when all the async copies the thread started before have written shared memory
    (`cp.async.mbarrier.arrive.noinc`): a wait on the barrier then sees their bytes.

    `tilegpu.async_copy_arrive %full[%s] : !tilegpu.barriers<4>`
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, Index:$index);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` type($barriers)";
}

def TileGPU_TensorMapOp : TileGPU_Op<"tensor_map", [Pure]> {
  let summary = "the tensor-memory-accelerator descriptor of a view argument, built at launch";
  let description = [{
    `map` describes the kernel's argument `view` (its data, shape and strides) for
    `tensor_map_copy`. The launch builds it, cached per array and box; `valid` is false where
    the hardware cannot describe the view (no tensor memory accelerator, a base address or a
    stride not a multiple of 16 bytes, elements not contiguous along the last axis), and then
    the map must not be used.

    `%map, %valid = tilegpu.tensor_map %arg1 : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<128x64xbf16>, #S>`
  }];
  let arguments = (ins Tile_ViewType:$view);
  let results = (outs TileGPU_TensorMapType:$map, I1:$valid);
  let assemblyFormat = "$view attr-dict `:` type($view) `->` type($map)";
  let hasVerifier = 1;
}

def TileGPU_TensorMapCopyOp : TileGPU_Op<"tensor_map_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "one producer thread copies a tile into a stage through a tensor map";
  let description = [{
    Element `k` of stage `stage` becomes the view's element at `offsets + k` when
    `0 <= offsets + k < shape` on every axis, else zero (the view `map` was built from). The
    first thread of the producer issues the copy (cp.async.bulk.tensor, one per block column
    of the stage), which delivers its bytes to barrier `index` of `barriers`: a phase that
    expects them (`barrier_expect`) completes only once they have landed. Op of a
    `tilegpu.producer` region, used only where the map is valid.

    `tilegpu.tensor_map_copy %map[%i, %k] into %a[%s] arrive %full[%s] : !tilegpu.tensor_map<tensor<128x64xbf16>, #S>, !tilegpu.buffer<4, tensor<128x64xbf16>, #S>, !tilegpu.barriers<4>`
  }];
  let arguments = (ins TileGPU_TensorMapType:$map, Variadic<Index>:$offsets,
                       TileGPU_BufferType:$buffer, Index:$stage, TileGPU_BarriersType:$barriers,
                       Index:$index);
  let assemblyFormat = [{
    $map `[` $offsets `]` `into` $buffer `[` $stage `]` `arrive` $barriers `[` $index `]`
    attr-dict `:` type($map) `,` type($buffer) `,` type($barriers)
  }];
  let hasVerifier = 1;
}

def TileGPU_TensorMapStoreOp : TileGPU_Op<"tensor_map_store", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the program's threads store a tile through a tensor map, chunk by chunk";
  let description = [{
    Writes element `k` of `value` to the view's element at `offsets + k` when
    `0 <= offsets + k < shape` on every axis (the view `map` was built from); other elements
    are dropped. The tile goes out in chunks of the buffer's columns: the program's threads
    write a chunk from their registers into a stage of `buffer` (two stages, used in turn),
    and its first thread hands the stage to the tensor memory accelerator
    (cp.async.bulk.tensor), which stores it while the threads write the next chunk. Each of a
    thread's chunks is known at compile time: the layout's lanes and warps hold columns
    within one chunk. The op begins with a barrier of the program's threads, and its first
    thread waits until the accelerator has read the stages before it ends. Op of a kernel
    with a `tilegpu.producer` (the program's threads meet on a named barrier), used only
    where the map is valid.

    `tilegpu.tensor_map_store %acc, %map[%i, %j] through %c : tensor<128x256xf32, #mma>, !tilegpu.tensor_map<tensor<128x32xf32>, #S>, !tilegpu.buffer<2, tensor<128x32xf32>, #S>`
  }];
  let arguments = (ins AnyRankedTensor:$value, TileGPU_TensorMapType:$map,
                       Variadic<Index>:$offsets, TileGPU_BufferType:$buffer);
  let assemblyFormat = [{
    $value `,` $map `[` $offsets `]` `through` $buffer attr-dict `:` type($value) `,`
    type($map) `,` type($buffer)
  }];
  let hasVerifier = 1;
}

def TileGPU_BarrierExpectOp : TileGPU_Op<"barrier_expect", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "each thread arrives on barrier `index`, whose phase then waits for `bytes` bytes";
  let description = [{
    Every thread running it arrives once (counted in the barrier's `arrivals`), and the
    current phase also waits for `bytes` bytes of `tensor_map_copy` ops to land (expected once,
    by the producer's first thread). Op of a `tilegpu.producer` region, run by all its warps.

    `tilegpu.barrier_expect %full[%s] {bytes = 49152 : i64} : !tilegpu.barriers<4>`
  }];
  let arguments = (ins TileGPU_BarriersType:$barriers, Index:$index,
                       ConfinedAttr<I64Attr, [IntPositive]>:$bytes);
  let assemblyFormat = "$barriers `[` $index `]` attr-dict `:` type($barriers)";
  let hasVerifier = 1;
}

def TileGPU_ProducerOp : TileGPU_Op<"producer", [NoTerminator, SingleBlock,
    RecursiveMemoryEffects]> {
  let summary = "code run by extra warps of the block, which then end";
  let description = [{
    The block gets `warps` more warps (a multiple of 4: whole warpgroups) after the tile
    program's own. They run the region and leave the kernel; the program's warps skip it and
    go on, so the barriers after it are among the program's warps only. Op of the function
    body's block, after every `alloc_barriers` and before any other op with side effects.
    An async copy in the region is shared among the producer's threads, each doing the part
    of one or more of the program's threads under the copy's layout.
    tilegpu-plan-occupancy moves registers from the producer to the program's warps
    (`setmaxnreg`): `registers` per producer thread, `consumerRegisters` per program thread,
    when set.

    `tilegpu.producer {warps = 4 : i32} { scf.for ... { tilegpu.async_copy ... } }`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$warps,
                       OptionalAttr<I32Attr>:$registers, OptionalAttr<I32Attr>:$consumerRegisters);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

#endif // TILECC_DIALECT_TILEGPU_OPS
