//===- TileDialect.td - the tile dialect and its types--------------------------*- tablegen -*-===//
//
// The tile dialect is the program-level form of a tile kernel: one function per instantiated
// entry, whose tile values are ranked tensors (elementwise math on them uses upstream `arith` and
// `math`) and whose memory is reached through `!tile.view` arguments. Views carry their access
// mode (shared, exclusive, atomic); only exclusive views may be stored to, and the verifier holds
// every producer of this IR to that rule.
//
//===----------------------------------------------------------------------===//

#ifndef TILECC_DIALECT_TILE_DIALECT
#define TILECC_DIALECT_TILE_DIALECT

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilecc::tile";
  let summary = "Tile programs: tile values, tensor views and their memory operations";
  let useDefaultTypePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Tile_Access : I32EnumAttr<"Access", "how a tile program may use a view", [
    I32EnumAttrCase<"Shared", 0, "shared">,
    I32EnumAttrCase<"Exclusive", 1, "exclusive">,
    I32EnumAttrCase<"Atomic", 2, "atomic">]> {
  let cppNamespace = "::tilecc::tile";
  let genSpecializedAttr = 0;
}

def Tile_AtomicKind : I32EnumAttr<"AtomicKind", "an atomic read-modify-write update", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">,
    I32EnumAttrCase<"Umax", 3, "umax">,
    I32EnumAttrCase<"Umin", 4, "umin">,
    I32EnumAttrCase<"Exchange", 5, "exchange">,
    I32EnumAttrCase<"Cas", 6, "cas">]> {
  let cppNamespace = "::tilecc::tile";
}

def Tile_ViewType : TypeDef<Tile_Dialect, "View"> {
  let mnemonic = "view";
  let summary = "a view of global memory";
  let description = [{
    `!tile.view<128xf32, exclusive>` is this tile program's piece of a partitioned array;
    `!tile.view<?x?xf32>` (shared is the default) a whole array that every program may read.
    Dimensions are static extents or `?` for run-time ones.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::tilecc::tile::Access":$access);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
    bool isExclusive() const { return getAccess() == ::tilecc::tile::Access::Exclusive; }
  }];
}

def Tile_AxisAttr : ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>;

#endif // TILECC_DIALECT_TILE_DIALECT
