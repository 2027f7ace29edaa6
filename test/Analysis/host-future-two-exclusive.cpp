// RUN: tilecc check -verify %s
// Two futures alive together cannot both hold an exclusive loan on one array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto first = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  auto second = tile::launch<scale>(a.partition_mut<128>(), 2.0f).async(); // expected-error {{'a' is lent exclusively while the future 'first' (not waited for) holds an exclusive loan on it}}
  std::move(second).get();
  std::move(first).get(); // expected-note {{the loan is still needed here}}
}
