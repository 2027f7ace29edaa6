// RUN: tilecc check -verify %s
// An op borrowing an array the caller owns may be returned.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
IncOp start(Arr& a) { return tile::launch<inc>(a.partition_mut<128>()); }
void f() {
  Arr a = make();
  auto op = start(a);
  std::move(op).sync();
  print(a);
}
