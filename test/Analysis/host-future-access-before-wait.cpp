// RUN: tilecc check -verify %s
// An issued op's future holds its loans until it is waited for: reading the array earlier races.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
  fut.wait(); // expected-note {{the loan is still needed here}}
}
