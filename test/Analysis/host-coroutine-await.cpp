// RUN: tilecc check -verify %s
// Coroutines are checked like other functions: co_await on a future waits for it, so the array
// is free afterwards; touching it before the co_await is an error.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include "Inputs/host-task.h"
Task ok(Arr& a) {
  co_await tile::launch<inc>(a.partition_mut<128>()).async();
  print(a);
}

Task early(Arr& a) {
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
  co_await std::move(fut); // expected-note {{the loan is still needed here}}
}
