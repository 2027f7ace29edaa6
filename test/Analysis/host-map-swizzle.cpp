// RUN: tilecc check -verify %s
// The library schedules are bijections of the grid.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(tile::swizzle<4>{});
  auto q = tile::zeros<float>({64, 64}).partition<16, 16>().map(tile::column_major{});
  auto r = tile::zeros<float>({1000}).partition<128>().map(tile::reversed{});
}
