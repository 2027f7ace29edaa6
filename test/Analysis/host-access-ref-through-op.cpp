// RUN: tilecc check -verify %s
// A partition ref moved into an op: the op holds the loan until it runs.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto ref = a.partition_mut<128>(); // expected-note {{'a' was lent exclusively here}}
  auto op = tile::launch<inc>(std::move(ref));
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
