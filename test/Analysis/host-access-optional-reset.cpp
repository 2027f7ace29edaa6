// RUN: tilecc check -verify %s
// An op stored in a local optional holds its loan until the optional is reset.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  std::optional<IncOp> pending;
  pending.emplace(tile::launch<inc>(a.partition_mut<128>())); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'pending' holds an exclusive loan on it}}
  pending.reset(); // expected-note {{the loan is still needed here}}
  print(a);
}
