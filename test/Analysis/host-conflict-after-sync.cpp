// RUN: tilecc check -verify %s
// Once the first op ran, its array may be lent again.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<inc>(a.partition_mut<128>());
  std::move(first).sync();
  auto second = tile::launch<copy>(b.partition_mut<128>(), a);
  std::move(second).sync();
}
