// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A reduce combiner combines two elements; one that reduces a captured tile (a tile operation
// that needs every thread of the block) is a located error, not a barrier inside the combiner.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 1>& y, const tile::Tensor<float, tile::dyn>& a) {
  auto x = a.partition<128>().load(tile::block_id(0));
  auto r = tile::reduce<0>(x, 0.0f, [&](float p, float q) { return p + q + tile::sum<0>(x); });
  // CHECK: reduce-combiner-on-tiles-unsupported.cpp:[[@LINE-1]]:12: error: a combiner that works on tiles (it combines two elements) is not supported in a tile kernel [tile-unsupported]
  y.store(tile::full<float, 1>(r));
}
