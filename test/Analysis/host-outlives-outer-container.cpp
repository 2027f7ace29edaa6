// RUN: tilecc check -verify %s
// An op stored in a container that outlives the array it borrows.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  std::vector<IncOp> ops;
  for (int i = 0; i < n; ++i) {
    Arr a = make();
    ops.push_back(tile::launch<inc>(a.partition_mut<128>())); // expected-error {{'ops' may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
  } // expected-note {{'a' is destroyed here while 'ops' still holds the loan}}
  for (auto& op : ops)
    std::move(op).sync();
}
