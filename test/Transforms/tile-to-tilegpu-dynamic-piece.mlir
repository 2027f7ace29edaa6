// A piece whose tile extent is only known at run time reads it with tilegpu.piece_shape.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --cse | FileCheck %s

// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%z: !tile.view<?xf32, exclusive>, %t: tensor<256xf32>) -> index {
  %c0 = arith.constant 0 : index
  // CHECK: %[[ID:.*]] = tile.block_id 0
  // CHECK: %[[TILE:.*]] = tilegpu.piece_shape %arg0, 0 : <?xf32, exclusive>
  // CHECK: %[[ORIGIN:.*]] = arith.muli %[[ID]], %[[TILE]] : index
  // CHECK: %[[END:.*]] = arith.addi %[[ORIGIN]], %[[TILE]] : index
  // CHECK: %[[DIM:.*]] = tilegpu.array_dim %arg0, 0
  // CHECK: %[[BOUND:.*]] = arith.minsi %[[END]], %[[DIM]] : index
  // CHECK: tilegpu.global_store %arg1, %arg0[{{.*}}] starts[%[[ORIGIN]]] bounds[%[[BOUND]]]
  tile.store %t, %z[%c0] : tensor<256xf32>, !tile.view<?xf32, exclusive>
  // CHECK: return %[[ORIGIN]]
  %o = tile.piece_origin %z, 0 : !tile.view<?xf32, exclusive>
  return %o : index
}
