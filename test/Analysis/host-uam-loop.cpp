// RUN: tilecc check -verify %s
// A move inside a loop is a use after move in the next iteration.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  Arr a = make();
  for (int i = 0; i < n; ++i) {
    auto op = tile::launch<inc>(std::move(a).partition<128>()); // expected-error {{'a' is used after it was moved into a partition}} expected-note {{'a' was moved here}}
    std::move(op).sync();
  }
}
