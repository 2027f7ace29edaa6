// RUN: tilecc check -verify %s
// Zipped ops over different arrays, sharing one input, are fine; sync() returns every loan.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr x = make();
  Arr a = make();
  Arr b = make();
  auto both = tile::zip(tile::launch<copy>(a.partition_mut<128>(), x),
                        tile::launch<copy>(b.partition_mut<128>(), x));
  std::move(both).sync();
  fill(a);
  fill(b);
  fill(x);
}
