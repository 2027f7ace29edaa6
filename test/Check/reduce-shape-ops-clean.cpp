// RUN: tilecc check -verify %s
// RUN: tilecc check %s 2>&1 | count 0
// expected-no-diagnostics
// A kernel using the reductions, scans and shape operations (tile/reduce.hpp, tile/shape.hpp),
// lambdas passed to tile::reduce and tile::scan included, checks clean.
#include <tile/tile.hpp>

TILE_KERNEL void row_stats(tile::Tensor<float, 16>& row_sum, tile::Tensor<float, 16>& row_max,
                           tile::Tensor<int32_t, 16>& where_max, tile::Tensor<float, 16>& row_l1,
                           tile::Tensor<float, 16, 32>& centered, tile::Tensor<float, 16, 32>& prefix,
                           tile::Tensor<float, 32, 16>& transposed, tile::Tensor<float, 16, 32>& halves,
                           const tile::Tensor<float, 16, 32>& x, float scale) {
  auto t = x.load();
  auto m = tile::max<1>(t);
  row_sum.store(tile::sum<1>(t) * scale);
  row_max.store(m);
  where_max.store(tile::argmax<1>(t));
  row_l1.store(tile::reduce<1>(tile::abs(t), 0.0f, [](float a, float b) { return a + b; }));
  // Subtract each row's maximum, then divide by the largest element of the tile.
  auto shifted = t - tile::broadcast<16, 32>(tile::reshape<16, 1>(m));
  centered.store(shifted / (tile::max(t) + 1.0f));
  auto running_max = tile::scan<1>(t, -1e30f, [](float a, float b) { return a < b ? b : a; });
  prefix.store(tile::cumsum<1>(t) + running_max);
  transposed.store(tile::permute<1, 0>(t));
  // The two 8-row halves of the tile, swapped.
  auto top = tile::extract<8, 32>(t, 0, 0);
  auto bottom = tile::extract<8, 32>(t, 1, 0);
  halves.store(tile::cat<0>(bottom, top));
}
