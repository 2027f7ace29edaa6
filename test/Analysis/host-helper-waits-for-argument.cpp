// RUN: tilecc check -verify %s
// A function of the translation unit that consumes a reference parameter on every path
// (waits for the futures it is or holds, syncs its op) ends the argument's loans where the
// call returns. One that may return without doing so, or puts new work back into it, does not;
// work it starts on one argument and leaves in another holds that argument after the call.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void wait_all(std::vector<IncFuture>& fs) {
  for (auto& f : fs)
    f.wait();
}
void wait_one(IncFuture& f) { f.wait(); }
void run_op(IncOp& op) { std::move(op).sync(); }
void wait_through(IncFuture& f) { wait_one(f); }
void maybe_wait(IncFuture& f, bool now) {
  if (now)
    f.wait();
}
void rearm(IncFuture& f, Arr& b) {
  f.wait();
  f = tile::launch<inc>(b.partition_mut<128>()).async();
}

void waits_for_a_container() {
  Arr a = make(), b = make();
  std::vector<IncFuture> pending;
  pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  pending.push_back(tile::launch<inc>(b.partition_mut<128>()).async());
  wait_all(pending);
  print(a);
  print(b);
}

void waits_for_one() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  wait_one(f);
  print(a);
}

void syncs_an_op() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  run_op(op);
  print(a);
}

void through_another_helper() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  wait_through(f);
  print(a);
}

void read_before_the_helper() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
  wait_one(f); // expected-note {{the loan is still needed here}}
}

void waits_on_one_path(bool now) {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  maybe_wait(f, now);
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'f' is destroyed}}

void new_work_in_the_argument() {
  Arr a = make(), b = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  rearm(f, b);
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
  f.wait(); // expected-note {{the loan is still needed here}}
}

void work_left_in_an_argument() {
  Arr a = make(), b = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  f.wait();
  rearm(f, b); // expected-note {{'b' was lent exclusively here}}
  print(b); // expected-error {{read (passed to 'print') of 'b' while the future 'f' (not waited for) holds an exclusive loan on it}}
  f.wait(); // expected-note {{the loan is still needed here}}
  print(b);
}
