// RUN: tilecc check -verify %s
// A call that gets two holders by non-const reference may exchange what they hold
// (std::swap, a.swap(b)): after it, each may hold the other's loans.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void swapped_futures() {
  Arr a = make(), b = make();
  IncFuture fa = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  IncFuture fb = tile::launch<inc>(b.partition_mut<128>()).async();
  std::swap(fa, fb);
  fa.wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fb' (not waited for) holds an exclusive loan on it}}
  fb.wait();
} // expected-note@-1 {{the loan is still needed here}}

void both_waited_after_a_swap() {
  Arr a = make(), b = make();
  IncFuture fa = tile::launch<inc>(a.partition_mut<128>()).async();
  IncFuture fb = tile::launch<inc>(b.partition_mut<128>()).async();
  std::swap(fa, fb);
  fa.wait();
  fb.wait();
  print(a);
  print(b);
}

void swapped_containers() {
  Arr a = make();
  std::vector<IncFuture> mine, theirs;
  mine.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  mine.swap(theirs);
  for (auto& f : mine)
    f.wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'theirs' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'theirs' is destroyed}}
