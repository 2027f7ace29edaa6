// RUN: tilecc check -verify %s
// Affine but singular: (i, j) -> (i + j, 2i + 2j) folds the grid onto a line.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{the map is affine but singular: distinct programs reach the same tile}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2>) {
        return std::array<int64_t, 2>{c[0] + c[1], 2 * (c[0] + c[1])};
      });
}
