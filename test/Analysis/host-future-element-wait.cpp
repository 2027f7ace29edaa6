// RUN: tilecc check -verify %s
// A vector of futures filled by push_back or emplace_back in code whose path fixes the count
// keeps each element's loans apart: waiting for `c.back()`, `c.front()`, `c[k]` or `c.at(k)`
// with a constant k, or destroying the last with `pop_back()`, returns the loans of that element
// only. Where the count depends on the path
// (a condition, a loop) or the container is handed to code the checker does not follow, the
// container holds all of its loans until the whole of it is waited for.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void waits_for_the_last() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  pending.back().wait();
  print(b);
  pending.front().wait();
  print(a);
}

void waits_by_index() {
  Arr a = make(), b = make(), c = make();
  std::vector<IncFuture> pending;
  pending.reserve(3);
  pending.emplace_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.emplace_back(tile::launch<inc>(b.partition_mut<128>()).async());
  pending.emplace_back(tile::launch<inc>(c.partition_mut<128>()).async());
  pending[1].wait();
  print(b);
  pending.at(2).wait();
  print(c);
  pending[0].wait();
  print(a);
}

void moved_out_of_an_element() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  IncFuture last = std::move(pending[1]);
  last.wait();
  print(b);
  for (auto& f : pending)
    f.wait();
  print(a);
}

void filled_again_after_clear() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending[0].wait();
  pending.clear();
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  pending.back().wait();
  print(a);
  print(b);
}

void popped_then_waited() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  pending.pop_back(); // the future's destructor waits for it
  print(b);
  pending.back().wait();
  print(a);
}

void ops_run_by_index() {
  Arr a = make(), b = make();
  std::vector<IncOp> ops;
  ops.push_back(tile::launch<inc>(a.partition_mut<128>()));
  ops.push_back(tile::launch<inc>(b.partition_mut<128>()));
  std::move(ops[0]).sync();
  print(a);
  std::move(ops.back()).sync();
  print(b);
}

void waits_for_another_element() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  pending.back().wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void count_depends_on_a_condition(bool more) {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  if (more)
    pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async()); // expected-note {{'b' was lent exclusively here}}
  pending.back().wait();
  print(b); // expected-error {{read (passed to 'print') of 'b' while 'pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void filled_in_a_loop(std::vector<Arr>& arrays) {
  Arr b = make();
  std::vector<IncFuture> pending;
  for (Arr& x : arrays)
    pending.push_back(tile::launch<inc>(x.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async()); // expected-note {{'b' was lent exclusively here}}
  pending.back().wait();
  print(b); // expected-error {{read (passed to 'print') of 'b' while 'pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void extend(std::vector<IncFuture>& pending);

void handed_to_a_function() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  extend(pending);
  pending.back().wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void mentioned_in_a_lambda() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  auto more = [&] { pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async()); };
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  more();
  pending.front().wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void index_not_constant(int k) {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  pending[k].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void index_past_the_end() {
  Arr a = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  pending[1].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[0]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}

void elements_swapped() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  std::swap(pending[0], pending[1]);
  pending[0].wait();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'pending[1]' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'pending' is destroyed}}
