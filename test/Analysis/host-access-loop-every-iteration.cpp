// RUN: tilecc check -verify %s
// An op synced in every iteration leaves the array free.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int n) {
  Arr a = make();
  for (int i = 0; i < n; ++i) {
    auto op = tile::launch<inc>(a.partition_mut<128>());
    std::move(op).sync();
    print(a);
  }
  print(a);
}
