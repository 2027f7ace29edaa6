// RUN: tilecc check -verify %s
// A lambda may return an op that borrows what it captured by reference; the loan is then the caller's.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto start = [&] { return tile::launch<inc>(a.partition_mut<128>()); }; // expected-note {{'a' was lent exclusively here}}
  auto op = start();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
  print(a);
}
