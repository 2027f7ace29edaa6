// tile.dim and tile.piece_origin: a piece's valid extent is max(0, min(tile, dim - origin)),
// a shared view's is the array's extent; a shared view starts at 0.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s

// CHECK-LABEL: func.func @piece_dim
func.func @piece_dim(%z: !tile.view<128xf32, exclusive>) -> index {
  // CHECK: %[[ID:.*]] = tile.block_id 0
  // CHECK: %[[TILE:.*]] = arith.constant 128 : index
  // CHECK: %[[ORIGIN:.*]] = arith.muli %[[ID]], %[[TILE]] : index
  // CHECK: %[[DIM:.*]] = tilegpu.array_dim %arg0, 0
  // CHECK: %[[LEFT:.*]] = arith.subi %[[DIM]], %[[ORIGIN]] : index
  // CHECK: %[[MIN:.*]] = arith.minsi %[[TILE]], %[[LEFT]] : index
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK: %[[EXT:.*]] = arith.maxsi %[[MIN]], %[[ZERO]] : index
  // CHECK: return %[[EXT]]
  %d = tile.dim %z, 0 : !tile.view<128xf32, exclusive>
  return %d : index
}

// CHECK-LABEL: func.func @shared_dim
func.func @shared_dim(%x: !tile.view<?x?xf32>) -> (index, index) {
  // CHECK: %[[DIM:.*]] = tilegpu.array_dim %arg0, 1 : <?x?xf32>
  %d = tile.dim %x, 1 : !tile.view<?x?xf32>
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
  %o = tile.piece_origin %x, 1 : !tile.view<?x?xf32>
  // CHECK: return %[[DIM]], %[[ZERO]]
  return %d, %o : index, index
}
