// RUN: tilecc check -verify %s
// Writing an array lent shared is not.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x); // expected-note {{'x' was lent shared here}}
  x = make(); // expected-error {{assignment of 'x' while the unfinished operation 'op' holds a shared loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
