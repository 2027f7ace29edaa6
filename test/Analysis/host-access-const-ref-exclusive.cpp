// RUN: tilecc check -verify %s
// Even a read conflicts with an exclusive loan.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  auto op = tile::launch<inc>(z.partition_mut<128>()); // expected-note {{'z' was lent exclusively here}}
  print(z); // expected-error {{read (passed to 'print') of 'z' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
