// RUN: tilecc check -verify %s
// The header's internal accessor hands out the raw element pointer.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<int32_t, 64>& z,
                   tile::Atomic<int32_t, 64>& bins) { // expected-note {{'bins' is a 'tile::Atomic&' parameter}}
  int32_t* raw = tile::detail::TensorAccess::data(bins); // expected-error {{'bins' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): 'tile::detail::TensorAccess::data' is the header's internal access to its memory}} expected-error {{'tile::detail::TensorAccess::data' is internal to the tile library}}
  raw[0] += 1;
  z.store(z.load());
}
