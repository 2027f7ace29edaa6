// RUN: tilecc check -verify %s
// An array lent exclusively to one op cannot be lent shared to another op alive with it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto second = tile::launch<copy>(b.partition_mut<128>(), a); // expected-error {{'a' is lent shared while the unfinished operation 'first' holds an exclusive loan on it}}
  std::move(first).sync(); // expected-note {{the loan is still needed here}}
  std::move(second).sync();
}
