// RUN: tilecc check -verify %s
// An op executed on some path is used.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(bool c) {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  if (c)
    std::move(op).sync();
}
