// RUN: tilecc check -verify %s
// Ops run one after another on the same array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int n) {
  Arr a = make();
  Arr b = make();
  for (int i = 0; i < n; ++i) {
    auto first = tile::launch<copy>(b.partition_mut<128>(), a);
    std::move(first).sync();
    auto second = tile::launch<copy>(a.partition_mut<128>(), b);
    std::move(second).sync();
  }
  print(a);
}
