// Atomic updates need shared memory only to hand old values to threads that did not make the
// update: a scalar update whose result is used (made by thread 0), and a tile whose layout
// replicates it. Unused results and tiles without copies need none.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --tilegpu-plan-shared-memory | FileCheck %s

// CHECK-LABEL: func.func @scalar_used
// CHECK-SAME: tilegpu.smem_bytes = 16
// CHECK: tilegpu.global_atomic add {{.*}} {tilegpu.smem_offset = 0 : i64}
func.func @scalar_used(%h: !tile.view<4xi64, atomic>, %s: i64, %i: index) -> i64 {
  %o = tile.atomic add %s, %h[%i] : i64, !tile.view<4xi64, atomic>
  return %o : i64
}

// CHECK-LABEL: func.func @scalar_unused
// CHECK-SAME: tilegpu.smem_bytes = 0
// CHECK-NOT: smem_offset
func.func @scalar_unused(%h: !tile.view<4xi64, atomic>, %s: i64, %i: index) {
  %o = tile.atomic add %s, %h[%i] : i64, !tile.view<4xi64, atomic>
  return
}

// A 4-element tile in a warp of 32 lanes is replicated: its old values are staged.
// CHECK-LABEL: func.func @replicated
// CHECK-SAME: tilegpu.smem_bytes = 16
func.func @replicated(%h: !tile.view<4xi32, atomic>, %t: tensor<4xi32>, %i: index) -> tensor<4xi32> {
  %o = tile.atomic add %t, %h[%i] : tensor<4xi32>, !tile.view<4xi32, atomic>
  return %o : tensor<4xi32>
}

// CHECK-LABEL: func.func @distinct
// CHECK-SAME: tilegpu.smem_bytes = 0
// CHECK-NOT: smem_offset
func.func @distinct(%h: !tile.view<?xi32, atomic>, %t: tensor<256xi32>, %i: index) -> tensor<256xi32> {
  %o = tile.atomic add %t, %h[%i] : tensor<256xi32>, !tile.view<?xi32, atomic>
  return %o : tensor<256xi32>
}
