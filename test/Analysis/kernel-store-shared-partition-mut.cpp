// RUN: tilecc check -verify %s
// partition_mut on a const_cast shared view gives a mutable view of shared memory.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, tile::dyn>& x) { // expected-note {{'x' is a shared view}}
  auto xs = const_cast<tile::Tensor<float, tile::dyn>&>(x).partition_mut<64>(); // expected-note {{'x' is made writable by this cast}}
  xs.store(z.load(), 0); // expected-error {{store through 'xs', a view of the shared view 'x'}}
}
