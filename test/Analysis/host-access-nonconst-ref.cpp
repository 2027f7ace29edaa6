// RUN: tilecc check -verify %s
// A non-const reference to an unknown function is a write.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x); // expected-note {{'x' was lent shared here}}
  fill(x); // expected-error {{write (passed to 'fill' by non-const reference) of 'x' while the unfinished operation 'op' holds a shared loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
