// RUN: tilecc check -verify %s
// A std::optional or a smart pointer holds one value: waiting for the future or syncing the op
// it holds through `->`, `*` or `value()` returns the holder's loans; before, the array is lent.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <memory>

using IncFuture = decltype(std::declval<IncOp>().async());

void optional_future() {
  Arr a = make();
  std::optional<IncFuture> f;
  f.emplace(tile::launch<inc>(a.partition_mut<128>()).async());
  f->wait();
  print(a);
}

void optional_op() {
  Arr a = make();
  std::optional<IncOp> op;
  op.emplace(tile::launch<inc>(a.partition_mut<128>()));
  std::move(*op).sync();
  print(a);
}

void optional_value() {
  Arr a = make();
  std::optional<IncFuture> f;
  f.emplace(tile::launch<inc>(a.partition_mut<128>()).async());
  f.value().wait();
  print(a);
}

void unique_future() {
  Arr a = make();
  auto f = std::make_unique<IncFuture>(tile::launch<inc>(a.partition_mut<128>()).async());
  (*f).wait();
  print(a);
}

void read_before_wait() {
  Arr a = make();
  std::optional<IncFuture> f;
  f.emplace(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'f' holds an exclusive loan on it}}
  f->wait(); // expected-note {{the loan is still needed here}}
}
