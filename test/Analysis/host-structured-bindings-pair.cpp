// RUN: tilecc check -verify %s
// A std::pair made in a declaration gives each member its own loans, and a structured binding
// of a std::pair names its member: waiting through one returns only that member's loans.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void pair_binding_waited() {
  Arr a = make();
  Arr b = make();
  auto [fa, fb] = std::pair{tile::launch<inc>(a.partition_mut<128>()).async(),
                            tile::launch<inc>(b.partition_mut<128>()).async()};
  fa.wait();
  print(a);
  fb.wait();
  print(b);
}

void pair_binding_other_member_waited() {
  Arr a = make();
  Arr b = make();
  auto [fa, fb] = std::pair{tile::launch<inc>(a.partition_mut<128>()).async(), // expected-note {{'a' was lent exclusively here}}
                            tile::launch<inc>(b.partition_mut<128>()).async()};
  fb.wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future '[fa, fb].first' (not waited for) holds an exclusive loan on it}}
  fa.wait(); // expected-note {{the loan is still needed here}}
}

void pair_members_waited() {
  Arr a = make();
  Arr b = make();
  auto p = std::pair{tile::launch<inc>(a.partition_mut<128>()).async(), // expected-note {{'a' was lent exclusively here}}
                     tile::launch<inc>(b.partition_mut<128>()).async()};
  p.second.wait();
  print(b);
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'p.first' (not waited for) holds an exclusive loan on it}}
  p.first.wait(); // expected-note {{the loan is still needed here}}
}
