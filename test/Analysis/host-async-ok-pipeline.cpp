// RUN: tilecc check -verify %s
// A typical pipeline: owned partitions flow through futures; nothing is borrowed across waits.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void f(const Arr& x) {
  auto first = tile::launch<copy>(make().partition<128>(), x).async();
  auto second = tile::launch<inc>(make().partition<128>()).async();
  auto a = std::move(first).get().unpartition();
  auto b = std::move(second).get().unpartition();
  auto sum = tile::launch<add>(make().partition<128>(), a, b).async();
  print(std::move(sum).get().unpartition());
  print(x);
}
