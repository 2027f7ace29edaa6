// RUN: tilecc check -verify %s
// Syncing the first op on one branch only leaves its loan alive after the if.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(bool c) {
  Arr a = make();
  auto first = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  if (c)
    std::move(first).sync();
  auto second = tile::launch<inc>(a.partition_mut<128>()); // expected-error {{'a' is lent exclusively while the unfinished operation 'first' holds an exclusive loan on it}}
  std::move(second).sync();
} // expected-note {{the loan is still needed here, when 'first' is destroyed}}
