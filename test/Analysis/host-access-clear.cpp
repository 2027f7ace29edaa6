// RUN: tilecc check -verify %s
// Clearing a container of ops destroys them and their loans.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
  ops.clear();
  print(a);
}
