// RUN: tilecc check -verify %s
// An op passed by non-const reference may or may not have run: it still holds its loan.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  maybe_run(op);
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'op' is destroyed}}
