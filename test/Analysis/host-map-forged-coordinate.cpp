// RUN: tilecc check -verify %s
// A coordinate that ignores the program (a forged, constant tile) sends every program to it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{the map is affine but singular}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2>) { return std::array<int64_t, 2>{c[0], 0}; });
}
