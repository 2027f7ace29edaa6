// RUN: tilecc check -verify %s
// A function the user writes inside namespace tile is user code: it is analysed like any other
// device function, not trusted as the library.
#include <tile/tile.hpp>

namespace tile {
inline void overwrite(const Tensor<float, 64>& x) {
  const_cast<Tensor<float, 64>&>(x).store(zeros<float, 64>()); // expected-note {{made writable by this cast}} expected-error {{store through the shared view 'x'}}
}
} // namespace tile

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  tile::overwrite(x); // expected-note {{in the device function called here}}
  z.store(x.load());
}
