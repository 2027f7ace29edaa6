// RUN: tilecc check -verify %s
// Syncing the first op on every branch ends its loan.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(bool c) {
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<inc>(a.partition_mut<128>());
  if (c) {
    std::move(first).sync();
  } else {
    print(b);
    std::move(first).sync();
  }
  auto second = tile::launch<inc>(a.partition_mut<128>());
  std::move(second).sync();
}
