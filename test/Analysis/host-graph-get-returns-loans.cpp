// RUN: tilecc check -verify %s
// get() on the graph ends it: its loans are returned.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int n) {
  Arr a = make();
  auto g = tile::launch<inc>(a.partition_mut<128>()).graph();
  for (int i = 0; i < n; ++i)
    g.sync();
  std::move(g).get();
  print(a);
}
