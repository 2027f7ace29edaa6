// RUN: tilecc check -verify %s
// A map inside a function template is checked in its instantiations, and reported once.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
template <int64_t Step>
void f() {
  auto p = tile::zeros<float>({1024}).partition<128>().map( // expected-error {{tile coordinate 0: it applies '/' to a program coordinate}}
      [](std::array<int64_t, 1> c, std::array<int64_t, 1>) { return std::array<int64_t, 1>{c[0] / Step}; });
}
template void f<2>();
template void f<4>();
