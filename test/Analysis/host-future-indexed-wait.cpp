// RUN: tilecc check -verify %s
// A counted loop over a container, `for (i = 0; i < c.size(); ++i)`, that waits for (or
// moves) `c[i]` or `c.at(i)` in every run of its body returns the container's loans when it
// ends, as a range-for does. A loop that may skip an element (a `continue`, a wait under a
// condition, a start past 0, a bound short of size(), a body that changes the index) does not.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void subscript() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  for (size_t i = 0; i < pending.size(); ++i)
    pending[i].wait();
  print(a);
  print(b);
}

void at_with_a_post_increment() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  for (std::size_t i = 0; i != pending.size(); i++) {
    int unused = int(i);
    (void)unused;
    pending.at(i).wait();
  }
  print(a);
}

void moved_out() {
  Arr a = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
  for (size_t i = 0; i < ops.size(); i += 1)
    std::move(ops[i]).sync();
  print(a);
}

void skips_with_continue(bool odd) {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 0; i < pending.size(); ++i) {
    if (odd)
      continue;
    pending[i].wait();
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void waits_under_a_condition(bool odd) {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 0; i < pending.size(); ++i)
    if (odd)
      pending[i].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void starts_at_one() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 1; i < pending.size(); ++i)
    pending[i].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void stops_short() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 0; i + 1 < pending.size(); ++i)
    pending[i].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void changes_the_index() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 0; i < pending.size(); ++i) {
    pending[i].wait();
    ++i;
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void waits_for_another_container() {
  Arr a = make();
  std::vector<IncFuture> pending, others;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  for (size_t i = 0; i < others.size(); ++i)
    others[i].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
  for (auto& f : pending) // expected-note {{the loan is still needed here}}
    f.wait();
}
