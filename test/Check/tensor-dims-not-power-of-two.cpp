// RUN: not tilecc check %s 2>&1 | FileCheck %s
// A view whose shape is not a power of two is fine to partition, but loading or storing it
// whole makes a tile of that shape: a static_assert says so, at the user's call.
#include <tile/tile.hpp>

TILE_KERNEL void whole(tile::Tensor<float, 100>& z, const tile::Tensor<float, 100>& x) {
  z.store(x.load());
}

// Through power-of-two tiles it is fine: the last elements are masked.
TILE_KERNEL void tiled(tile::Tensor<float, 100>& z, const tile::Tensor<float, 100>& x) {
  z.partition_mut<128>().store(x.partition<128>().load(0), 0);
}

// The first error of line 7, at the user's call, with the library's line as a note; the
// errors that follow from it on the same line (the Tile's own static_assert, the void value,
// the store's static_assert) are left out.
// CHECK: tensor-dims-not-power-of-two.cpp:7:13: error: static assertion failed {{.*}}: Tensor::load(): the whole view loads as one tile, and every tile dimension must be a power of two; load it through partition<...>() with power-of-two tiles
// CHECK: tile/tensor.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
// CHECK-NOT: error:
// CHECK-NOT: tensor-dims-not-power-of-two.cpp:12
