// RUN: tilecc check -verify %s
// A container declared after the array is destroyed first.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
  for (auto& op : ops)
    std::move(op).sync();
}
