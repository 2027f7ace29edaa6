// RUN: tilecc check -verify %s
// A method of the translation unit that waits for the futures its object holds, on every path,
// returns their loans where it returns; one that may not (a condition, a field it leaves) does
// not.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

struct Batch {
  std::vector<IncFuture> pending;
  std::vector<IncFuture> later;

  void wait_all() {
    for (auto& f : pending)
      f.wait();
    pending.clear();
  }
  void wait_if(bool now) {
    if (now)
      for (auto& f : pending)
        f.wait();
  }
  void wait_later() {
    for (auto& f : later)
      f.wait();
  }
};

void waits_through_a_method() {
  Arr a = make();
  Batch batch;
  batch.pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  batch.wait_all();
  print(a);
}

void waits_through_a_pointer_to_the_object() {
  Arr a = make();
  auto batch = std::make_unique<Batch>();
  batch->pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
  batch->wait_all();
  print(a);
}

void method_waits_on_some_paths(bool now) {
  Arr a = make();
  Batch batch;
  batch.pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  batch.wait_if(now);
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'batch.pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'batch' is destroyed}}

void method_waits_for_another_field() {
  Arr a = make();
  Batch batch;
  batch.pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  batch.wait_later();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'batch.pending' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'batch' is destroyed}}
