// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// RUN: tilecc compile %s -o - | FileCheck %s --check-prefix=CUDA
// `c ? x : y` between two views, or two tilings of views with one tile shape, chooses the view
// at run time: an arith.select of view type, a conditional between view descriptors in CUDA.
#include <tile/tile.hpp>

using tile::dyn;

TILE_KERNEL void choose(tile::Tensor<float, 64, 64>& z, const tile::Tensor<float, dyn, dyn>& x,
                        const tile::Tensor<float, dyn, dyn>& y, int w) {
  auto tiles = w > 0 ? x.partition<64, 64>() : y.partition<64, 64>();
  const auto& whole = w > 1 ? x : y;
  z.store(tiles.load(tile::block_id(0), 0) + tile::load_tile_like(whole, z));
}
// CHECK-LABEL: func.func @choose
// CHECK: %[[C1:.*]] = arith.cmpi sgt, %arg3
// CHECK: %[[T:.*]] = arith.select %[[C1]], %arg1, %arg2 : !tile.view<?x?xf32>
// CHECK: %[[C2:.*]] = arith.cmpi sgt, %arg3
// CHECK: %[[W:.*]] = arith.select %[[C2]], %arg1, %arg2 : !tile.view<?x?xf32>
// CHECK: tile.load %[[T]]
// CHECK: tile.load %[[W]]
// CUDA: const auto [[V:v[0-9]+]] = {{v[0-9]+}} ? arg1 : arg2;
