// RUN: tilecc check -verify %s
// Moving an array an op reads is refused.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  Arr x = make();
  auto op = tile::launch<copy>(z.partition_mut<128>(), x); // expected-note {{'x' was lent shared here}}
  auto p = std::move(x).partition<128>(); // expected-error {{move (partition) of 'x' while the unfinished operation 'op' holds a shared loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
