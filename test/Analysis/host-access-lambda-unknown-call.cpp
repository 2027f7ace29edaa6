// RUN: tilecc check -verify %s
// A lambda passed to an unknown function may be called there.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  call_now([&] { fill(a); }); // expected-error {{write (passed to 'fill' by non-const reference, in the lambda called here) of 'a' while the unfinished operation 'op' holds an exclusive loan on it}} expected-note {{the lambda uses 'a' here}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
