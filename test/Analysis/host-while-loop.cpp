// RUN: tilecc check -verify %s
// A while loop that syncs before reading each round is fine; one that reads first is not.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void good(int n) {
  Arr a = make();
  while (n-- > 0) {
    auto op = tile::launch<inc>(a.partition_mut<128>());
    std::move(op).sync();
    print(a);
  }
}
void bad(int n) {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  while (n-- > 0)
    print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
