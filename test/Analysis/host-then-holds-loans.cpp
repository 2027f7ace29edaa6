// RUN: tilecc check -verify %s
// then() moves the op's loans into the composed op.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()).then([] {}); // expected-note {{'a' was lent exclusively here}}
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
