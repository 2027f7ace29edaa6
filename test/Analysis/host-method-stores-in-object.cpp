// RUN: tilecc check -verify %s
// A method (or constructor) that starts work on an array argument and keeps it in its object
// leaves the object holding a loan on that array; so may one whose body is not visible.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

struct Batch {
  std::vector<IncFuture> pending;

  void start(Arr& a) { pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); }
  void start_elsewhere(Arr& a);
  void wait_all() {
    for (auto& f : pending)
      f.wait();
  }
};

struct Started {
  IncFuture future;
  explicit Started(Arr& a) : future(tile::launch<inc>(a.partition_mut<128>()).async()) {}
};

void kept_by_a_method() {
  Arr a = make();
  Batch batch;
  batch.start(a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'batch.pending' holds an exclusive loan on it}}
  batch.wait_all(); // expected-note {{the loan is still needed here}}
}

void kept_then_waited() {
  Arr a = make();
  Batch batch;
  batch.start(a);
  batch.wait_all();
  print(a);
}

void kept_by_a_method_without_a_body() {
  Arr a = make();
  Batch batch;
  batch.start_elsewhere(a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'batch' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'batch' is destroyed}}

void kept_by_a_constructor() {
  Arr a = make();
  Started started(a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'started' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'started' is destroyed}}
