// RUN: tilecc check -verify %s
// A kernel template: each instantiation is checked, so the laundering is reported for both (with
// the type as written in the template); the other template's instantiation is clean.
#include <tile/tile.hpp>

template <int B, class T>
TILE_KERNEL void scatter(tile::Tensor<T, B>& x,
                         tile::Atomic<T, tile::dyn>& out) { // expected-note 2 {{'out' is a 'tile::Atomic&' parameter}}
  auto& view = reinterpret_cast<tile::Tensor<T, tile::dyn>&>(out); // expected-error 2 {{'out' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the reinterpret_cast to 'tile::Tensor<T, tile::dyn>&' would let it}} expected-error {{the reinterpret_cast from 'tile::Atomic<float, tile::dyn>' to 'tile::Tensor<float, tile::dyn>' reaches into the memory of a view}} expected-error {{the reinterpret_cast from 'tile::Atomic<int, tile::dyn>' to 'tile::Tensor<int, tile::dyn>' reaches into the memory of a view}}
  view.template partition_mut<B>().store(x.load(), tile::block_id());
}

template <int B, class T>
TILE_KERNEL void scatter_ok(tile::Tensor<T, B>& x, tile::Atomic<T, tile::dyn>& out) {
  out.atomic_exchange(x.load(), tile::block_id());
}

template void scatter<64, float>(tile::Tensor<float, 64>&, tile::Atomic<float, tile::dyn>&);
template void scatter<32, int32_t>(tile::Tensor<int32_t, 32>&, tile::Atomic<int32_t, tile::dyn>&);
template void scatter_ok<64, float>(tile::Tensor<float, 64>&, tile::Atomic<float, tile::dyn>&);
