// RUN: tilecc check -verify %s
// An op handed to a function or a container is not unused here.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  Arr b = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  run(std::move(op));
  std::vector<IncOp> ops;
  auto other = tile::launch<inc>(b.partition_mut<128>());
  ops.push_back(std::move(other));
  for (auto& o : ops)
    std::move(o).sync();
}
