// tile-pipeline-mma-operands with a B view contiguous along its first axis in every launch
// (`tilegpu.unit_stride = 0`, a version of tile-version-unit-strides): B's ring stores its
// stages column-major (order [0, 1]: 128 stored rows of 64 elements, one per column of the
// 64 x 128 tile), which wgmma reads K-major, so the loop still runs warp-specialized; the
// copies of the column-major stage run along the first axis too (a tile layout of order
// [0, 1], 16-byte vectors).
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands=max-shared-bytes=131072 | FileCheck %s

// CHECK-LABEL: func.func @gemm_bt
// CHECK: %[[RA:.*]] = tilegpu.alloc_buffer : <4, tensor<128x64xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[RB:.*]] = tilegpu.alloc_buffer : <4, tensor<64x128xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]>>
// CHECK: tilegpu.producer
// CHECK: tilegpu.async_copy %{{.*}} into %[[RA]][%{{.*}}] {{.*}}vector = 8 : i32
// CHECK: tilegpu.async_copy %{{.*}} into %[[RB]][%{{.*}}] {{.*}}tile = tensor<64x128xbf16, #tilegpu.blocked<{{.*}}order = [0, 1]>>, vector = 8 : i32
// CHECK: tilegpu.local_load %[[RB]]
func.func @gemm_bt(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16> {tilegpu.unit_stride = 0 : i64}, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}
