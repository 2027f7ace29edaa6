// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// partition<...>().load(i, j) reads tile (i, j) at element offsets (i*TM, j*TN);
// partition_mut<...>().store writes into the program's own piece.
#include <tile/tile.hpp>

TILE_KERNEL void scale(tile::Tensor<float, 32, 64>& out, const tile::Tensor<float, tile::dyn, tile::dyn>& in) {
  auto tiles = in.partition<32, 64>();
  auto t = tiles.load(tile::block_id(0), tile::block_id(1));
  out.partition_mut<32, 64>().store(t * 2.0f, 0, 0);
}

// CHECK-LABEL: func.func @scale(
// CHECK-SAME: !tile.view<32x64xf32, exclusive>
// CHECK-SAME: !tile.view<?x?xf32>
// CHECK-DAG: %[[B0:.*]] = tile.block_id 0
// CHECK-DAG: %[[B1:.*]] = tile.block_id 1
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: tile.load %arg1[%{{.*}}, %{{.*}}] : <?x?xf32> -> tensor<32x64xf32>
// CHECK: arith.mulf
// CHECK: tile.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}] : tensor<32x64xf32>, <32x64xf32, exclusive>
