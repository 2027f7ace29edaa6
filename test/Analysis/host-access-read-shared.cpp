// RUN: tilecc check -verify %s
// Reading an array lent shared is fine.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x);
  auto h = x.to_host();
  auto s = x.shape();
  std::move(op).sync();
}
