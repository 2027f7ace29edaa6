// RUN: tilecc check -verify %s
// An op or future moved into a lambda's capture is held by the closure. Calling the lambda
// returns its loans when the body consumes every op and future the closure holds on every
// path (sync, wait, a move into a call); otherwise the closure keeps them.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

using IncFuture = decltype(std::declval<IncOp>().async());

void synced_when_called() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  auto run = [op = std::move(op)]() mutable { std::move(op).sync(); };
  run();
  print(a);
}

void future_waited_when_called() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  auto finish = [f = std::move(f)]() mutable { f.wait(); };
  finish();
  print(a);
}

void run_on_a_thread() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  std::thread t([op = std::move(op)]() mutable { std::move(op).sync(); });
  t.join();
  print(a);
}

void read_before_the_call() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto run = [op = std::move(op)]() mutable { std::move(op).sync(); };
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'run' holds an exclusive loan on it}}
  run(); // expected-note {{the loan is still needed here}}
}

void one_of_two_consumed() {
  Arr a = make(), b = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto other = tile::launch<inc>(b.partition_mut<128>());
  auto run = [op = std::move(op), other = std::move(other)]() mutable { std::move(op).sync(); };
  run();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'run' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'run' is destroyed}}

void consumed_on_one_path(bool now) {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  auto run = [op = std::move(op), now]() mutable {
    if (now)
      std::move(op).sync();
  };
  run();
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'run' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'run' is destroyed}}
