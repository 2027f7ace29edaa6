// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// Conditions on the index space: block ids, num_blocks, num_tiles, a view's shape() and loop
// variables compare as 64-bit integers (their C++ type) and steer scf control flow.
#include <tile/tile.hpp>

TILE_KERNEL void edges(tile::Tensor<float, 16, 16>& z,
                       const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto tiles = x.partition<16, 16>();
  auto t = z.load();
  if (tile::block_id(1) + 1 == tile::num_blocks(1))
    t = t + 1.0f; // the last column of programs
  if (z.shape(0) < 16)
    t = t * 2.0f; // a clipped piece
  for (int64_t k = 0; k < tile::num_tiles(tiles, 1); ++k)
    if (k != tile::block_id(1))
      t = t + tiles.load(tile::block_id(0), k);
  z.store(t);
}

// CHECK-LABEL: func.func @edges(
// CHECK: %[[B1:.*]] = tile.block_id 1
// CHECK: %[[B1I:.*]] = arith.index_cast %[[B1]] : index to i64
// CHECK: %[[LAST:.*]] = arith.addi %[[B1I]], %{{.*}} : i64
// CHECK: %[[NB:.*]] = tile.num_blocks 1
// CHECK: %[[NBI:.*]] = arith.index_cast %[[NB]] : index to i64
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[LAST]], %[[NBI]] : i64
// CHECK: scf.if %[[EQ]] -> (tensor<16x16xf32>)
// CHECK: %[[SHAPE:.*]] = tile.dim %arg0, 0 : <16x16xf32, exclusive>
// CHECK: %[[SHAPEI:.*]] = arith.index_cast %[[SHAPE]] : index to i64
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[SHAPEI]], %{{.*}} : i64
// CHECK: scf.if %[[LT]] -> (tensor<16x16xf32>)
// CHECK: %[[TILES:.*]] = arith.ceildivsi
// CHECK: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:   %[[K:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK:   %[[B:.*]] = tile.block_id 1
// CHECK:   %[[BI:.*]] = arith.index_cast %[[B]] : index to i64
// CHECK:   %[[NE:.*]] = arith.cmpi ne, %[[K]], %[[BI]] : i64
// CHECK:   scf.if %[[NE]] -> (tensor<16x16xf32>)
