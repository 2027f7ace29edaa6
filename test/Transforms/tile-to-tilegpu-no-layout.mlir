// Lowering view accesses needs the layouts: without tile-assign-layouts it is an error.
// RUN: tilecc-opt %s --convert-tile-to-tilegpu -verify-diagnostics

func.func @unlaid(%x: !tile.view<?xf32>, %i: index) -> tensor<128xf32> {
  // expected-error @+1 {{moves a tile without a layout; run tile-assign-layouts first}}
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  return %t : tensor<128xf32>
}
