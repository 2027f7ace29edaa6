// RUN: tilecc check -verify %s
// Moving an array into an op each iteration and taking it back is fine.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int n) {
  Arr a = make();
  for (int i = 0; i < n; ++i) {
    auto op = tile::launch<inc>(std::move(a).partition<128>());
    a = std::move(op).sync().unpartition();
  }
  auto h = a.to_host();
}
