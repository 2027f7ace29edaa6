// RUN: tilecc check -verify %s
// An op moved into an unknown function is consumed there.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  run(std::move(op));
  print(a);
}
