// RUN: tilecc check -verify %s
// An Atomic passed to a device function that takes a Tensor: the cast at the call is reported.
#include <tile/tile.hpp>

inline void overwrite(tile::Tensor<int32_t, tile::dyn>& out) {
  out.partition_mut<128>().store(tile::zeros<int32_t, 128>(), 0);
}

inline int32_t first(const tile::Tensor<int32_t, tile::dyn>& in) {
  return in.partition<128>().load(0)(0);
}

TILE_KERNEL void k(tile::Tensor<int32_t, 128>& z,
                   tile::Atomic<int32_t, tile::dyn>& bins) { // expected-note 2 {{'bins' is a 'tile::Atomic&' parameter}}
  overwrite(reinterpret_cast<tile::Tensor<int32_t, tile::dyn>&>(bins)); // expected-error {{'bins' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the reinterpret_cast to 'tile::Tensor<int32_t, tile::dyn>&'}} expected-error {{the reinterpret_cast from 'tile::Atomic<int32_t, tile::dyn>' to 'tile::Tensor<int32_t, tile::dyn>' reaches into the memory of a view}}
  z.store(tile::full<int32_t, 128>(first(*reinterpret_cast<const tile::Tensor<int32_t, tile::dyn>*>(&bins)))); // expected-error {{the reinterpret_cast to 'const tile::Tensor<int32_t, tile::dyn>*'}} expected-error {{the reinterpret_cast from 'tile::Atomic<int32_t, tile::dyn> *' to 'const tile::Tensor<int32_t, tile::dyn> *' reaches into the memory of a view}}
}
