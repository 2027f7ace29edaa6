// RUN: tilecc check -verify %s
// try/catch blocks are analyzed; nothing crashes.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  try {
    auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
    if (flag())
      throw 1;
    print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
    std::move(op).sync(); // expected-note {{the loan is still needed here}}
  } catch (int) {
    print(a);
  }
  print(a);
}
