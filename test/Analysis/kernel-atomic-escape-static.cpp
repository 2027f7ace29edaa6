// RUN: tilecc check -verify %s
// An Atomic kept in a static variable outlives the tile program, like any view.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   tile::Atomic<float, 64>& acc) { // expected-note {{'acc' is a parameter of the kernel}}
  static tile::Atomic<float, 64>* keep = nullptr; // expected-error {{may not use the variable 'keep' of static storage: it is not const}}
  keep = &acc; // expected-error {{the view 'acc' escapes the tile program: it is stored in the static variable 'keep'}}
  keep->atomic_add(z.load(), 0);
}
