// The add kernel: loads from shared views at this piece's origin become global loads at
// block_id * 128 bounded by the array, one element per access (tile-vectorize-accesses widens them).
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu | FileCheck %s --check-prefix=NOTILE

// NOTILE-NOT: tile.load
// NOTILE-NOT: tile.store
// NOTILE-NOT: tile.piece_origin

// CHECK-LABEL: func.func @add_128
func.func @add_128(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %y: !tile.view<?xf32>)
    attributes {tile.kernel = "add<128>"} {
  // CHECK: %[[ID:.*]] = tile.block_id 0
  // CHECK: %[[C128:.*]] = arith.constant 128 : index
  // CHECK: %[[ORIGIN:.*]] = arith.muli %[[ID]], %[[C128]] : index
  %o = tile.piece_origin %z, 0 : !tile.view<128xf32, exclusive>
  // CHECK: %[[NX:.*]] = tilegpu.array_dim %arg1, 0 : <?xf32>
  // CHECK: tilegpu.global_load %arg1[%[[ORIGIN]]] bounds[%[[NX]]] {vector = 1 : i32} : <?xf32> -> tensor<128xf32, #tilegpu.blocked
  %a = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
  // CHECK: %[[NY:.*]] = tilegpu.array_dim %arg2, 0 : <?xf32>
  // CHECK: tilegpu.global_load %arg2[%[[ORIGIN]]] bounds[%[[NY]]] {vector = 1 : i32}
  %b = tile.load %y[%o] : !tile.view<?xf32> -> tensor<128xf32>
  %c = arith.addf %a, %b : tensor<128xf32>
  %c0 = arith.constant 0 : index
  // CHECK: tilegpu.global_store
  tile.store %c, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
