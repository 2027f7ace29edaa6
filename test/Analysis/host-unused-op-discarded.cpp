// RUN: tilecc check -verify %s
// A launch whose op is dropped at once never runs.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  (void)tile::launch<inc>(a.partition_mut<128>()); // expected-warning {{this operation is never executed}}
  auto n = tile::launch<inc>(a.partition_mut<128>()).grid_rank(); // expected-warning {{this operation is never executed}}
}
