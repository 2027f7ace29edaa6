// RUN: tilecc check -verify %s
// Every copy of a shared op holds the op's loans.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto once = tile::launch<inc>(a.partition_mut<128>()).shared(); // expected-note {{'a' was lent exclusively here}}
  auto copy = once;
  std::move(once).sync();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'copy' holds an exclusive loan on it}}
  std::move(copy).sync(); // expected-note {{the loan is still needed here}}
}
