// RUN: tilecc check -verify %s
// A shear with grid-dependent offsets: c -> (g0 - 1 - c0, c1 + 2*c0 + n) has determinant -1.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int64_t n) {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(
      [n](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        const int64_t row = g[0] - 1 - c[0];
        return std::array<int64_t, 2>{row, c[1] + 2 * c[0] + n};
      });
}
