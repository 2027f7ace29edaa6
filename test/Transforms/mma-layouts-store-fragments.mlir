// An mma result that is only stored, directly or through elementwise ops of it alone (a
// scale by a scalar, a cast), is stored from its fragments: no conversion, so no shared-memory
// exchange. A result that is also used otherwise (here reduced) keeps its conversion.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts | FileCheck %s

// CHECK-LABEL: func.func @stored
// CHECK: %[[R:.*]] = tilegpu.mma {{.*}} -> tensor<64x64xf32, #[[MMA:tilegpu.mma<[^>]*>]]>
// CHECK-NOT: tilegpu.convert_layout %[[R]]
// CHECK: tilegpu.global_store %[[R]], {{.*}} : tensor<64x64xf32, #[[MMA]]>
func.func @stored(%z: !tile.view<64x64xf32, exclusive>, %a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %r = tile.mma %a, %b, %c : tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  tile.store %r, %z[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32, exclusive>
  return
}

// CHECK-LABEL: func.func @scaled_and_cast
// CHECK: %[[R:.*]] = tilegpu.mma {{.*}} -> tensor<64x64xf32, #[[MMA:tilegpu.mma<[^>]*>]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[S:.*]] = arith.mulf %[[R]], %{{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[T:.*]] = arith.truncf %[[S]] : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xbf16, #[[MMA]]>
// CHECK: tilegpu.global_store %[[T]], {{.*}} : tensor<64x64xbf16, #[[MMA]]>
func.func @scaled_and_cast(%z: !tile.view<64x64xbf16, exclusive>, %a: tensor<64x16xbf16>, %b: tensor<16x64xbf16>, %c: tensor<64x64xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %r = tile.mma %a, %b, %c : tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  %splat = tile.splat %s : f32 -> tensor<64x64xf32>
  %scaled = arith.mulf %r, %splat : tensor<64x64xf32>
  %t = arith.truncf %scaled : tensor<64x64xf32> to tensor<64x64xbf16>
  tile.store %t, %z[%c0, %c0] : tensor<64x64xbf16>, !tile.view<64x64xbf16, exclusive>
  return
}

// CHECK-LABEL: func.func @also_reduced
// CHECK: %[[R:.*]] = tilegpu.mma
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[R]]
// CHECK: tilegpu.global_store %[[C]]
func.func @also_reduced(%z: !tile.view<64x64xf32, exclusive>, %a: tensor<64x16xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : index
  %r = tile.mma %a, %b, %c : tensor<64x16xf16>, tensor<16x64xf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  tile.store %r, %z[%c0, %c0] : tensor<64x64xf32>, !tile.view<64x64xf32, exclusive>
  %sum = tile.reduce %r axis 1 : tensor<64x64xf32> -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %add = arith.addf %x, %y : f32
    tile.yield %add : f32
  }
  return %sum : tensor<64xf32>
}
