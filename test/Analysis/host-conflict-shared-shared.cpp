// RUN: tilecc check -verify %s
// Two ops may share an input.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr x = make();
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<copy>(a.partition_mut<128>(), x);
  auto second = tile::launch<copy>(b.partition_mut<128>(), x);
  std::move(first).sync();
  std::move(second).sync();
  print(x);
}
