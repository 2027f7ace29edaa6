// tile-specialize-launch marks `whole` the accesses whose tiles are wholly inside or wholly
// outside their bounds once the array extents they are bounded by are multiples of the tile's
// extents, and records those facts (and the vectors the views must allow) on the kernel.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tile-specialize-launch | FileCheck %s

// A piece's origin and the piece's store: both extents must be multiples of 128, both views
// must allow 16-byte vectors along axis 0.
// CHECK-LABEL: func.func @piece_origin
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 1, 0, 128>, array<i64: 0, 0, 128>], vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>]}
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32, whole}
// CHECK: tilegpu.global_store {{.*}} {aligned, vector = 4 : i32, whole}
func.func @piece_origin(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  %o = tile.piece_origin %y, 0 : !tile.view<128xf32, exclusive>
  %t = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
  tile.store %t, %y[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// An offset the arithmetic does not explain (an argument) is never whole; the kernel has
// no specialization.
// CHECK-LABEL: func.func @argument_offset
// CHECK-NOT: tilegpu.specialization
// CHECK: tilegpu.global_load {{.*}} {vector = 4 : i32}
func.func @argument_offset(%x: !tile.view<?xf32>, %i: index) -> tensor<128xf32> {
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<128xf32>
  return %t : tensor<128xf32>
}

// A multiple of half the tile is not whole under any extent; a multiple of the tile is.
// Only the whole access's facts are recorded.
// CHECK-LABEL: func.func @half_tile_offset
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 0, 0, 128>], vectors = [array<i64: 0, 0, 16>]}
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32}
// CHECK-NOT: whole
// CHECK: tilegpu.global_load {{.*}} {aligned, vector = 4 : i32, whole}
func.func @half_tile_offset(%x: !tile.view<?xf32>, %i: index) -> (tensor<128xf32>, tensor<128xf32>) {
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %half = arith.muli %i, %c64 : index
  %full = arith.muli %i, %c128 : index
  %a = tile.load %x[%half] : !tile.view<?xf32> -> tensor<128xf32>
  %b = tile.load %x[%full] : !tile.view<?xf32> -> tensor<128xf32>
  return %a, %b : tensor<128xf32>, tensor<128xf32>
}

// The K loop of a GEMV: the induction variable starts at 0 and steps by a whole tile, so the
// tile is whole when the extent is a multiple of 256.
// CHECK-LABEL: func.func @loop_over_tiles
// CHECK-SAME: divisible = [array<i64: 0, 0, 256>]
// CHECK: scf.for
// CHECK: tilegpu.global_load {{.*}} whole
func.func @loop_over_tiles(%x: !tile.view<?xf32>, %n: index) -> tensor<256xf32> {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant dense<0.0> : tensor<256xf32>
  %r = scf.for %k = %c0 to %n step %c256 iter_args(%acc = %zero) -> (tensor<256xf32>) {
    %t = tile.load %x[%k] : !tile.view<?xf32> -> tensor<256xf32>
    %s = arith.addf %acc, %t : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

// Along an axis the tile spans one element, any offset is whole or empty: a row of a matrix
// at any index needs only its row length a multiple of the tile's.
// CHECK-LABEL: func.func @row_at_any_index
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 0, 1, 512>], vectors = [array<i64: 0, 1, 16>]}
// CHECK: tilegpu.global_load {{.*}} whole
func.func @row_at_any_index(%x: !tile.view<?x?xf32>, %i: index) -> tensor<1x512xf32> {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x512xf32>
  return %t : tensor<1x512xf32>
}

// A tile of one element is always whole or empty: the kernel is specialized with no facts.
// CHECK-LABEL: func.func @single_element
// CHECK-SAME: tilegpu.specialization = {divisible = [], vectors = []}
// CHECK: tilegpu.global_load {{.*}} whole
func.func @single_element(%x: !tile.view<?xf32>, %i: index) -> tensor<1xf32> {
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1xf32>
  return %t : tensor<1xf32>
}
