// tile-specialize-launch marks `whole` the accesses whose tiles are wholly inside or wholly
// outside their bounds once the array extents they are bounded by are multiples of the tile's
// extents, `runs` those whose runs of `vector` elements are once the extents along the vector
// axis are multiples of the run, and records both sets of facts (and the vectors the views
// must allow) on the kernel.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tile-specialize-launch | FileCheck %s

// A piece's origin and the piece's store: both extents must be multiples of 128, both views
// must allow 16-byte vectors along axis 0.
// CHECK-LABEL: func.func @piece_origin
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 1, 0, 128>, array<i64: 0, 0, 128>], run_divisible = [array<i64: 1, 0, 4>, array<i64: 0, 0, 4>], run_vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>], vectors = [array<i64: 1, 0, 16>, array<i64: 0, 0, 16>]}
// CHECK: tilegpu.global_load {{.*}} {aligned, runs, vector = 4 : i32, whole}
// CHECK: tilegpu.global_store {{.*}} {aligned, runs, vector = 4 : i32, whole}
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

// A multiple of half the tile is not whole under any extent, but its runs of 4 are; a
// multiple of the tile is whole. The whole facts are the whole access's alone.
// CHECK-LABEL: func.func @half_tile_offset
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 0, 0, 128>], run_divisible = [array<i64: 0, 0, 4>], run_vectors = [array<i64: 0, 0, 16>], vectors = [array<i64: 0, 0, 16>]}
// CHECK: tilegpu.global_load {{.*}} {aligned, runs, vector = 4 : i32}
// CHECK-NOT: whole
// CHECK: tilegpu.global_load {{.*}} {aligned, runs, vector = 4 : i32, whole}
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
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 0, 1, 512>], run_divisible = [array<i64: 0, 1, 4>], run_vectors = [array<i64: 0, 1, 16>], vectors = [array<i64: 0, 1, 16>]}
// CHECK: tilegpu.global_load {{.*}} whole
func.func @row_at_any_index(%x: !tile.view<?x?xf32>, %i: index) -> tensor<1x512xf32> {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%i, %c0] : !tile.view<?x?xf32> -> tensor<1x512xf32>
  return %t : tensor<1x512xf32>
}

// A tile of one element is always whole or empty: the kernel is specialized with no facts.
// Its single elements have no runs to prove.
// CHECK-LABEL: func.func @single_element
// CHECK-SAME: tilegpu.specialization = {divisible = [], vectors = []}
// CHECK: tilegpu.global_load {{.*}} whole
func.func @single_element(%x: !tile.view<?xf32>, %i: index) -> tensor<1xf32> {
  %t = tile.load %x[%i] : !tile.view<?xf32> -> tensor<1xf32>
  return %t : tensor<1xf32>
}

// A block of rows at a multiple of the block (the keys of an attention step): whole when both
// extents are multiples of the tile's; its runs of 8 along the rows need only the row length
// a multiple of 8, so a key count the block does not divide still moves whole vectors.
// CHECK-LABEL: func.func @block_of_rows
// CHECK-SAME: divisible = [array<i64: 0, 0, 64>, array<i64: 0, 1, 128>], run_divisible = [array<i64: 0, 1, 8>], run_vectors = [array<i64: 0, 1, 16>]
// CHECK: tilegpu.global_load {{.*}} {aligned, runs, vector = 8 : i32, whole}
func.func @block_of_rows(%x: !tile.view<?x?xbf16>, %b: index) -> tensor<64x128xbf16> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %row = arith.muli %b, %c64 : index
  %t = tile.load %x[%row, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  return %t : tensor<64x128xbf16>
}

// An offset along the vector axis the arithmetic does not explain: no runs either.
// CHECK-LABEL: func.func @unexplained_column
// CHECK-NOT: tilegpu.specialization
// CHECK: tilegpu.global_load {{.*}} {vector = 8 : i32}
func.func @unexplained_column(%x: !tile.view<?x?xbf16>, %j: index) -> tensor<64x128xbf16> {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %j] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
  return %t : tensor<64x128xbf16>
}

// A rank-1 tile of a rank-2 view (one row, the tile along the last axis): the facts are of
// the view's last axis; along the leading axis the tile is one element, inside or outside.
// CHECK-LABEL: func.func @row_of_matrix
// CHECK-SAME: tilegpu.specialization = {divisible = [array<i64: 1, 1, 128>, array<i64: 0, 0, 128>], run_divisible = [array<i64: 1, 1, 4>, array<i64: 0, 0, 4>], run_vectors = [array<i64: 1, 1, 16>, array<i64: 0, 0, 16>], vectors = [array<i64: 1, 1, 16>, array<i64: 0, 0, 16>]}
// CHECK: tilegpu.global_load {{.*}} {aligned, runs, vector = 4 : i32, whole} : <?x?xf32> -> tensor<128xf32
func.func @row_of_matrix(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?x?xf32>, %r: index) {
  %c0 = arith.constant 0 : index
  %o = tile.piece_origin %y, 0 : !tile.view<128xf32, exclusive>
  %t = tile.load %x[%r, %o] : !tile.view<?x?xf32> -> tensor<128xf32>
  tile.store %t, %y[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
