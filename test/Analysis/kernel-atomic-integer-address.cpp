// RUN: tilecc check -verify %s
// An Atomic's address carried through an integer.
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z, tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a 'tile::Atomic&' parameter}}
  std::uintptr_t bits = reinterpret_cast<std::uintptr_t>(&acc); // expected-error {{'acc' is a tile::Atomic view, which accepts only atomic updates (atomic_add/max/min/exchange/cas): the reinterpret_cast to 'std::uintptr_t'}} expected-error {{the reinterpret_cast from 'tile::Atomic<float, 64> *' to 'std::uintptr_t' reaches into the memory of a view}}
  reinterpret_cast<tile::Tensor<float, 64>*>(bits)->store(z.load()); // expected-error {{the reinterpret_cast from 'std::uintptr_t' to 'tile::Tensor<float, 64> *' reaches into the memory of a view}}
}
