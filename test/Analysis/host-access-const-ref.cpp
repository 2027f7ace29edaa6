// RUN: tilecc check -verify %s
// A const reference to an unknown function is a read.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x);
  print(x);
  std::move(op).sync();
  print(z);
}
