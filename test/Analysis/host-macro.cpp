// RUN: tilecc check -verify %s
// Launches written through macros are checked at their expansion.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#define LAUNCH_INC(arr) tile::launch<inc>((arr).partition_mut<128>())
#define SYNC(op) std::move(op).sync()
void f() {
  Arr a = make();
  auto op = LAUNCH_INC(a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  SYNC(op); // expected-note {{the loan is still needed here}}
}
