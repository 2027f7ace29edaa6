// An access to an exclusive piece is shifted by the piece's origin and confined to it: from
// the origin (starts) to min(origin + tile, array extent) (bounds), so no offset, negative or
// past the tile, reaches a neighbouring program's piece.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s

// CHECK-LABEL: func.func @store_piece
func.func @store_piece(%z: !tile.view<128xf32, exclusive>, %t: tensor<128xf32>, %i: index) {
  // CHECK: %[[ID:.*]] = tile.block_id 0
  // CHECK: %[[TILE:.*]] = arith.constant 128 : index
  // CHECK: %[[ORIGIN:.*]] = arith.muli %[[ID]], %[[TILE]] : index
  // CHECK: %[[OFF:.*]] = arith.addi %arg2, %[[ORIGIN]] : index
  // CHECK: %[[END:.*]] = arith.addi %[[ORIGIN]], %[[TILE]] : index
  // CHECK: %[[DIM:.*]] = tilegpu.array_dim %arg0, 0 : <128xf32, exclusive>
  // CHECK: %[[BOUND:.*]] = arith.minsi %[[END]], %[[DIM]] : index
  // CHECK: tilegpu.global_store %arg1, %arg0[%[[OFF]]] starts[%[[ORIGIN]]] bounds[%[[BOUND]]] {vector = 1 : i32}
  tile.store %t, %z[%i] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// Loads from the program's own piece are confined the same way.
// CHECK-LABEL: func.func @load_piece
// CHECK: tilegpu.global_load %arg0[%{{.*}}, %{{.*}}] starts[%{{.*}}, %{{.*}}] bounds[%{{.*}}, %{{.*}}] {vector = 1 : i32} : <32x64xf32, exclusive>
func.func @load_piece(%z: !tile.view<32x64xf32, exclusive>, %i: index) -> tensor<32x64xf32> {
  %t = tile.load %z[%i, %i] : !tile.view<32x64xf32, exclusive> -> tensor<32x64xf32>
  return %t : tensor<32x64xf32>
}
