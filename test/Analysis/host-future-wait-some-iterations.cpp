// RUN: tilecc check -verify %s
// A future waited for in only some loop iterations may still be running after the loop.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(int n) {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  for (int i = 0; i < n; ++i)
    if (i == 3)
      fut.wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'fut' is destroyed}}
