// The warp grid: warps stacked along M where it holds 16 rows per warp, else per-warp tiles as
// square as the accumulator allows, and a grid smaller than
// the block when the accumulator has fewer instruction tiles than the block has warps.
// RUN: tilecc-opt %s --tile-mma-layouts | FileCheck %s

// CHECK-LABEL: func.func @wide
// CHECK: tilegpu.mma {{.*}} -> tensor<64x256xf32, #tilegpu.mma<warpsPerBlock = [2, 4]>>
func.func @wide(%a: tensor<64x16xf16>, %b: tensor<16x256xf16>, %c: tensor<64x256xf32>) -> tensor<64x256xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.mma %a, %b, %c : tensor<64x16xf16>, tensor<16x256xf16>, tensor<64x256xf32> -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

// CHECK-LABEL: func.func @few_tiles
// CHECK: tilegpu.mma {{.*}} -> tensor<16x16xf32, #tilegpu.mma<warpsPerBlock = [1, 2]>>
func.func @few_tiles(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.mma %a, %b, %c : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  return %r : tensor<16x16xf32>
}

// CHECK-LABEL: func.func @batched
// CHECK: tilegpu.mma {{.*}} -> tensor<4x32x32xf32, #tilegpu.mma<warpsPerBlock = [1, 2, 2]>>
func.func @batched(%a: tensor<4x32x16xbf16>, %b: tensor<4x16x32xbf16>, %c: tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    attributes {tilegpu.num_warps = 4 : i32} {
  %r = tile.mma %a, %b, %c : tensor<4x32x16xbf16>, tensor<4x16x32xbf16>, tensor<4x32x32xf32> -> tensor<4x32x32xf32>
  return %r : tensor<4x32x32xf32>
}

// CHECK-LABEL: func.func @stacked
// Where M holds 16 rows per warp, the warps stack along M (the warpgroup mma's arrangement).
// CHECK: tilegpu.mma {{.*}} -> tensor<128x256xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
func.func @stacked(%a: tensor<128x16xf16>, %b: tensor<16x256xf16>, %c: tensor<128x256xf32>) -> tensor<128x256xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %r = tile.mma %a, %b, %c : tensor<128x16xf16>, tensor<16x256xf16>, tensor<128x256xf32> -> tensor<128x256xf32>
  return %r : tensor<128x256xf32>
}
