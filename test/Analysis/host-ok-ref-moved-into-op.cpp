// RUN: tilecc check -verify %s
// A partition ref moved into a launch lends through the op.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto ref = a.partition_mut<128>();
  auto op = tile::launch<inc>(std::move(ref));
  std::move(op).sync();
  print(a);
}
