// RUN: tilecc check -verify %s
// A user's own `tile::detail` is user code: its globals are globals like any other.
#include <tile/tile.hpp>

namespace tile::detail {
inline int calls = 0;
inline void count() { ++calls; } // expected-error {{may not use the variable 'calls' of static storage: it is not const}}
} // namespace tile::detail

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  tile::detail::count();
  z.store(tile::zeros<float, 64>());
}
