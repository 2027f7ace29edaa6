// RUN: tilecc check -verify %s
// A lambda handed (as a std::function) to a function that returns a std::future, such as a
// thread pool's submit, runs on another thread: what it touches is lent to the future until it
// is waited for.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <future>

struct Pool {
  std::future<void> submit(std::function<void()> work);
};

void waited(Pool& pool) {
  Arr a = make();
  std::future<void> done = pool.submit([&] { tile::launch<inc>(a.partition_mut<128>()).sync(); });
  done.wait();
  print(a);
}

void read_before_wait(Pool& pool) {
  Arr a = make();
  std::future<void> done = pool.submit([&] { fill(a); }); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 'done' runs (not joined or waited for) holds an exclusive loan on it}}
  done.wait(); // expected-note {{the loan is still needed here}}
}

void reads_beside_a_reader(Pool& pool) {
  Arr a = make();
  std::future<void> done = pool.submit([&] { print(a); });
  print(a);
  done.wait();
}
