// RUN: tilecc check -verify %s
// An Atomic passed on to device functions and lambdas that take it as an Atomic.
// expected-no-diagnostics
#include <tile/tile.hpp>

template <class T>
void count(tile::Atomic<T, tile::dyn>& bins, const tile::Tile<T, 128>& t) {
  bins.atomic_add(t, 0);
}

inline int64_t last(const tile::Atomic<int32_t, tile::dyn>& bins) { return bins.shape(0) - 1; }

TILE_KERNEL void histogram(tile::Tensor<int32_t, 128>& x, tile::Atomic<int32_t, tile::dyn>& bins) {
  count(bins, x.load());
  auto bump = [&bins](int64_t i) { bins.atomic_add(1, i); };
  bump(last(bins));
  [](tile::Atomic<int32_t, tile::dyn>& b) { b.atomic_max(7, 0); }(bins);
}
