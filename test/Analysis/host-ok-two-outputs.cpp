// RUN: tilecc check -verify %s
// An op with two owned partitions gives both back.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f() {
  Arr a = make();
  Arr b = make();
  auto op = tile::launch<both>(std::move(a).partition<128>(), std::move(b).partition<128>());
  auto [pa, pb] = std::move(op).sync();
  a = std::move(pa).unpartition();
  b = std::move(pb).unpartition();
  print(a);
  print(b);
}
