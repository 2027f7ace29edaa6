// RUN: tilecc check -verify %s
// Swapping the axes is an affine bijection (the run-time check still refuses non-square grids).
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(
      [](std::array<int64_t, 2> c, std::array<int64_t, 2>) { return std::array<int64_t, 2>{c[1], c[0]}; });
}
