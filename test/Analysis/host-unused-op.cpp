// RUN: tilecc check -verify %s
// An op that is never executed.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-warning {{the operation in 'op' is never executed; it keeps its loans until it is destroyed}}
  auto g = op.grid_rank();
}
