// RUN: tilecc check -verify %s
// Syncing only some ops of a container leaves the others holding their arrays.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>())); // expected-note {{'a' was lent exclusively here}}
  for (auto& op : ops)
    if (flag())
      std::move(op).sync();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'ops[0]' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'ops' is destroyed}}
