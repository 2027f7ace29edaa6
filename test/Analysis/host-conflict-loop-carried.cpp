// RUN: tilecc check -verify %s
// Ops collected across loop iterations keep their loans: the next launch cannot lend the array again.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  Arr a = make();
  std::vector<IncOp> ops;
  for (int i = 0; i < n; ++i)
    ops.push_back(tile::launch<inc>(a.partition_mut<128>())); // expected-error {{'a' is lent exclusively while 'ops' holds an exclusive loan on it}} expected-note {{'a' was lent exclusively here}} expected-note {{the loan is still needed here}}
  for (auto& op : ops)
    std::move(op).sync();
}
