// RUN: tilecc check -verify %s
// Waiting on only one branch of an if leaves the loan alive on the other path.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f(bool c) {
  Arr a = make();
  auto fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  if (c)
    fut.wait();
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'fut' is destroyed}}
