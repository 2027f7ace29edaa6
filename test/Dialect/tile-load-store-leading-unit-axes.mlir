// RUN: tilecc-opt --canonicalize --split-input-file %s | FileCheck %s
// A reshape that drops a loaded tile's leading unit axes folds into the load: the load moves
// the smaller tile, which spans the view's last axes (attention's (heads, seq, d) operands).
// A store of a reshape that only adds leading unit axes stores the reshape's source.

// CHECK-LABEL: func.func @load_head
// CHECK-NEXT: %[[T:.+]] = tile.load %arg0[%arg1, %arg2, %arg3] : <?x?x?xbf16> -> tensor<128x64xbf16>
// CHECK-NEXT: return %[[T]]
func.func @load_head(%x: !tile.view<?x?x?xbf16>, %h: index, %i: index, %j: index) -> tensor<128x64xbf16> {
  %t = tile.load %x[%h, %i, %j] : !tile.view<?x?x?xbf16> -> tensor<1x128x64xbf16>
  %r = tile.reshape %t : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
  return %r : tensor<128x64xbf16>
}

// -----

// Two leading unit axes, one of them kept.
// CHECK-LABEL: func.func @load_keeps_one
// CHECK-NEXT: %[[T:.+]] = tile.load %arg0[%arg1, %arg1, %arg1, %arg1] : <?x?x?x?xf32> -> tensor<1x16x32xf32>
// CHECK-NEXT: return %[[T]]
func.func @load_keeps_one(%x: !tile.view<?x?x?x?xf32>, %i: index) -> tensor<1x16x32xf32> {
  %t = tile.load %x[%i, %i, %i, %i] : !tile.view<?x?x?x?xf32> -> tensor<1x1x16x32xf32>
  %r = tile.reshape %t : tensor<1x1x16x32xf32> -> tensor<1x16x32xf32>
  return %r : tensor<1x16x32xf32>
}

// -----

// A unit axis that is not leading, a reshape that regroups elements, and a load with another
// use stay as they are.
// CHECK-LABEL: func.func @no_fold
// CHECK: tile.load {{.*}} -> tensor<16x1x32xf32>
// CHECK: tile.reshape {{.*}} -> tensor<16x32xf32>
// CHECK: tile.load {{.*}} -> tensor<1x16x32xf32>
// CHECK: tile.reshape {{.*}} -> tensor<512xf32>
// CHECK: tile.load {{.*}} -> tensor<1x16x32xf32>
// CHECK: tile.reshape {{.*}} -> tensor<16x32xf32>
func.func @no_fold(%x: !tile.view<?x?x?xf32>, %i: index)
    -> (tensor<16x32xf32>, tensor<512xf32>, tensor<16x32xf32>, tensor<1x16x32xf32>) {
  %a = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<16x1x32xf32>
  %ra = tile.reshape %a : tensor<16x1x32xf32> -> tensor<16x32xf32>
  %b = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<1x16x32xf32>
  %rb = tile.reshape %b : tensor<1x16x32xf32> -> tensor<512xf32>
  %c = tile.load %x[%i, %i, %i] : !tile.view<?x?x?xf32> -> tensor<1x16x32xf32>
  %rc = tile.reshape %c : tensor<1x16x32xf32> -> tensor<16x32xf32>
  return %ra, %rb, %rc, %c : tensor<16x32xf32>, tensor<512xf32>, tensor<16x32xf32>, tensor<1x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @store_head
// CHECK-NEXT: tile.store %arg1, %arg0[%arg2, %arg2, %arg2] : tensor<128x64xbf16>, <1x128x64xbf16, exclusive>
// CHECK-NEXT: return
func.func @store_head(%o: !tile.view<1x128x64xbf16, exclusive>, %t: tensor<128x64xbf16>, %i: index) {
  %r = tile.reshape %t : tensor<128x64xbf16> -> tensor<1x128x64xbf16>
  tile.store %r, %o[%i, %i, %i] : tensor<1x128x64xbf16>, !tile.view<1x128x64xbf16, exclusive>
  return
}
