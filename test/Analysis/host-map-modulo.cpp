// RUN: tilecc check -verify %s
// A hand-written wrap-around (modulo) is not proven, even when it happens to be a bijection.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{tile coordinate 1: it applies '%' to a program coordinate}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        return std::array<int64_t, 2>{c[0], (c[1] + c[0]) % g[1]};
      });
}
