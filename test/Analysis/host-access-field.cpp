// RUN: tilecc check -verify %s
// Fields of a struct are distinct places.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
struct Buffers {
  Arr in;
  Arr out;
};
void f() {
  Buffers s{make(), make()};
  auto op = tile::launch<copy>(s.out.partition_mut<128>(), s.in); // expected-note {{'s.out' was lent exclusively here}}
  print(s.in);
  print(s.out); // expected-error {{read (passed to 'print') of 's.out' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
