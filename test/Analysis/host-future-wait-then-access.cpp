// RUN: tilecc check -verify %s
// After wait() the future's loans are returned: the array may be read, written and lent again.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async();
  fut.wait();
  print(a);
  fill(a);
  tile::launch<inc>(a.partition_mut<128>()).sync();
}
