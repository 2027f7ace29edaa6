// RUN: tilecc check -verify %s
// An op synced on both branches of an if is finished after it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(bool c) {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  if (c)
    std::move(op).sync();
  else
    std::move(op).sync();
  print(a);
}
