// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// load_tile_like reads the tile of a shared input at the exclusive piece's origin.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}
template void add<128>(tile::Tensor<float, 128>&, const tile::Tensor<float, tile::dyn>&,
                       const tile::Tensor<float, tile::dyn>&);

// CHECK-LABEL: func.func @add_128(
// CHECK-SAME: !tile.view<128xf32, exclusive>
// CHECK-SAME: !tile.view<?xf32>
// CHECK-SAME: tile.entry = "&::add<128>", tile.kernel = "add<128>", tile.source = "load-tile-like.cpp:6"
// CHECK: %[[O:.*]] = tile.piece_origin %arg0, 0
// CHECK: %[[X:.*]] = tile.load %arg1[%[[O]]] : <?xf32> -> tensor<128xf32>
// CHECK: %[[Y:.*]] = tile.load %arg2
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : tensor<128xf32>
// CHECK: tile.store %[[S]], %arg0[
