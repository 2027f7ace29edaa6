// RUN: tilecc check -verify %s
// A container that outlives an array is fine if its ops ran before the array is destroyed.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(int n) {
  std::vector<IncOp> ops;
  for (int i = 0; i < n; ++i) {
    Arr a = make();
    ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
    for (auto& op : ops)
      std::move(op).sync();
    ops.clear();
  }
}
