// RUN: tilecc check -verify %s
// Passing a whole struct by non-const reference touches every array in it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
struct Buffers {
  Arr in;
  Arr out;
};
void touch(Buffers& b);
void f() {
  Buffers s{make(), make()};
  auto op = tile::launch<inc>(s.out.partition_mut<128>()); // expected-note {{'s.out' was lent exclusively here}}
  touch(s); // expected-error {{write (passed to 'touch' by non-const reference) of 's' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
