// RUN: tilecc check -verify %s
// A TILE_UNSAFE caller accepts the run-time check instead of a proof.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
TILE_UNSAFE void f(const std::vector<int64_t>& order) {
  auto p = tile::zeros<float>({1024}).partition<128>().map(
      [&order](std::array<int64_t, 1> c, std::array<int64_t, 1>) { return std::array<int64_t, 1>{order[c[0]]}; });
}
