// RUN: tilecc check -verify %s
// Dividing a program coordinate sends two programs to one tile.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{the map of this partition is not provably injective (tile coordinate 0: it applies '/' to a program coordinate)}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2>) { return std::array<int64_t, 2>{c[0] / 2, c[1]}; });
}
