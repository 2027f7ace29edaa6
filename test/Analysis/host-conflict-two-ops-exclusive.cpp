// RUN: tilecc check -verify %s
// Two ops alive together cannot both hold an array exclusively.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto first = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto second = tile::launch<inc>(a.partition_mut<128>()); // expected-error {{'a' is lent exclusively while the unfinished operation 'first' holds an exclusive loan on it}}
  std::move(second).sync();
  std::move(first).sync(); // expected-note {{the loan is still needed here}}
}
