// RUN: tilecc check -verify %s
// Waiting for every future of a container in a range-for returns their loans when the loop
// ends; before it, the arrays are still lent.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void waited() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  for (auto& f : pending)
    f.wait();
  print(a);
  print(b);
}

void read_before_wait() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
  for (auto& f : pending) // expected-note {{the loan is still needed here}}
    f.wait();
}

void range_for_skips_with_continue(bool odd) {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (auto& f : pending) {
    if (odd)
      continue;
    f.wait();
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}
