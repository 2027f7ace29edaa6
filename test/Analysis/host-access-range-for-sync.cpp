// RUN: tilecc check -verify %s
// Syncing every op of a container in a range-for ends their loans.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  Arr b = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
  ops.push_back(tile::launch<inc>(b.partition_mut<128>()));
  for (auto& op : ops)
    std::move(op).sync();
  print(a);
  print(b);
}
