// RUN: tilecc check -verify %s
// The combiner lambda of tile::reduce and tile::scan is kernel code: its body is checked like
// any device function (here a static tile index past the view).
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 1>& z, const tile::Tensor<float, 64>& x) {
  auto t = x.partition<64>().load(0);
  auto add_x = [&](float a, float b) {
    return a + b + x.partition<64>().load(4)(0); // expected-error {{tile index 4}}
  };
  z.store(tile::full<float, 1>(tile::reduce<0>(t, 0.0f, add_x))); // expected-note {{in the device function called here}}
}
