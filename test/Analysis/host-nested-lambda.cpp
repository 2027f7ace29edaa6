// RUN: tilecc check -verify %s
// Errors inside a lambda body are reported once, in the lambda.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto work = [] {
    Arr a = make();
    auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
    print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
    std::move(op).sync(); // expected-note {{the loan is still needed here}}
  };
  work();
  work();
}
