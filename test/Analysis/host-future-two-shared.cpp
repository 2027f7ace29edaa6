// RUN: tilecc check -verify %s
// Two futures may share an input.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr x = make();
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<copy>(a.partition_mut<128>(), x).async();
  auto second = tile::launch<copy>(b.partition_mut<128>(), x).async();
  print(x);
  std::move(first).get();
  std::move(second).get();
}
