// RUN: tilecc check -verify %s
// Two arrays lent exclusively to one launch do not conflict.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  Arr b = make();
  auto op = tile::launch<both>(a.partition_mut<128>(), b.partition_mut<128>());
  std::move(op).sync();
  print(a);
  print(b);
}
