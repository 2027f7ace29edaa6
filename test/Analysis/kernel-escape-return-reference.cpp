// RUN: tilecc check -verify %s
// A device function returning a view by reference hands it out of the function.
#include <tile/tile.hpp>

inline const tile::Tensor<float, 64>& pick(const tile::Tensor<float, 64>& a,
                                           const tile::Tensor<float, 64>& b, bool first) {
  if (first)
    return a; // expected-error {{the view 'x' escapes the device function 'pick': it is returned by reference}}
  return b; // expected-error {{the view 'y' escapes the device function 'pick': it is returned by reference}}
}

TILE_KERNEL void k(tile::Tensor<float, 64>& z,
                   const tile::Tensor<float, 64>& x, // expected-note {{'x' is a parameter of the kernel}}
                   const tile::Tensor<float, 64>& y, // expected-note {{'y' is a parameter of the kernel}}
                   int which) {
  z.store(pick(x, y, which > 0).load()); // expected-note {{in the device function called here}} expected-note {{in the device function called here}}
}
