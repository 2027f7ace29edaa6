// RUN: tilecc check -verify %s
// Destroying a future waits for its work: after its scope the array is free again.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  {
    auto fut = tile::launch<inc>(a.partition_mut<128>()).async();
  }
  fill(a);
}
