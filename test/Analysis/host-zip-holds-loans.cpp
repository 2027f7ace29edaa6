// RUN: tilecc check -verify %s
// The zip holds the loans of the ops moved into it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  Arr b = make();
  auto first = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto both = tile::zip(std::move(first), tile::launch<inc>(b.partition_mut<128>()));
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'both' holds an exclusive loan on it}}
  std::move(both).sync(); // expected-note {{the loan is still needed here}}
}
