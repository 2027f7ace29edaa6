// RUN: tilecc check -verify %s
// goto is followed like any other edge.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  Arr a = make();
  int i = 0;
again:
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  if (++i < n) {
    print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
    std::move(op).sync(); // expected-note {{the loan is still needed here}}
    goto again;
  }
  std::move(op).sync();
}
