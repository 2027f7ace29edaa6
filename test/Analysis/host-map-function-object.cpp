// RUN: tilecc check -verify %s
// A user function object is read like a lambda: here a scaled coordinate (injective).
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
struct Stride2 {
  std::array<int64_t, 1> operator()(std::array<int64_t, 1> c, std::array<int64_t, 1>) const {
    return {2 * c[0]};
  }
};
struct Half {
  std::array<int64_t, 1> operator()(std::array<int64_t, 1> c, std::array<int64_t, 1>) const {
    return {c[0] >> 1};
  }
};

void f() {
  auto p = tile::zeros<float>({1024}).partition<128>().map(Stride2{});
  auto q = tile::zeros<float>({1024}).partition<128>().map(Half{}); // expected-error {{tile coordinate 0: it applies '>>' to a program coordinate}}
}
