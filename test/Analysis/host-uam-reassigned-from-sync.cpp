// RUN: tilecc check -verify %s
// The array an op gives back revives the variable it came from.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(std::move(a).partition<128>());
  a = std::move(op).sync().unpartition();
  auto h = a.to_host();
}
