// RUN: tilecc check -verify %s
// An op synced in some iterations only still holds its loan in the others.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  Arr a = make();
  for (int i = 0; i < n; ++i) {
    auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
    if (i % 2 == 0)
      std::move(op).sync();
    print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  } // expected-note {{the loan is still needed here, when 'op' is destroyed}}
}
