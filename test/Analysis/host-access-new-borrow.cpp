// RUN: tilecc check -verify %s
// A new partition_mut of an array an op holds is refused.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x); // expected-note {{'x' was lent shared here}}
  auto ref = x.partition_mut<128>(); // expected-error {{exclusive borrow (partition_mut) of 'x' while the unfinished operation 'op' holds a shared loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
