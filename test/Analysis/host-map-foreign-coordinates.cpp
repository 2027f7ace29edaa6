// RUN: tilecc check -verify %s
// Coordinates taken from somewhere else (a lookup table) cannot be proven distinct.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(const std::vector<int64_t>& order) {
  auto p = tile::zeros<float>({1024}).partition<128>().map( // expected-error {{tile coordinate 0: a coordinate is not an affine function of the program's coordinates}}
      [&order](std::array<int64_t, 1> c, std::array<int64_t, 1>) { return std::array<int64_t, 1>{order[c[0]]}; });
}
