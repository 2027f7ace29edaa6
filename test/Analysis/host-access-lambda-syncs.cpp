// RUN: tilecc check -verify %s
// A lambda that syncs a captured op ends its loans when it is called.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  auto finish = [&] { std::move(op).sync(); };
  finish();
  print(a);
}
