// RUN: tilecc check -verify %s
// An array given to a thread's constructor or std::async through std::ref is lent exclusively
// to the thread (the function may write it), through std::cref (or std::ref of a const array)
// shared, until the thread is joined or the future waited for.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <future>
#include <thread>

void worker(Arr& a) { tile::launch<inc>(a.partition_mut<128>()).sync(); }
void reader(const Arr& a) { print(a); }

void joined() {
  Arr a = make();
  std::thread t(worker, std::ref(a));
  t.join();
  print(a);
}

void read_before_join() {
  Arr a = make();
  std::thread t(worker, std::ref(a)); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 't' runs (not joined or waited for) holds an exclusive loan on it}}
  t.join(); // expected-note {{the loan is still needed here}}
}

void reads_beside_a_cref_thread() {
  Arr a = make();
  std::thread t(reader, std::cref(a));
  print(a);
  t.join();
}

void write_beside_a_cref_thread() {
  Arr a = make();
  std::thread t(reader, std::cref(a)); // expected-note {{'a' was lent shared here}}
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while the work on another thread that 't' runs (not joined or waited for) holds a shared loan on it}}
  t.join(); // expected-note {{the loan is still needed here}}
}

void ref_of_a_const_array() {
  const Arr a = make();
  std::thread t(reader, std::ref(a));
  print(a);
  t.join();
}

void async_until_get() {
  Arr a = make();
  auto f = std::async(std::launch::async, worker, std::ref(a)); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 'f' runs (not joined or waited for) holds an exclusive loan on it}}
  f.get(); // expected-note {{the loan is still needed here}}
  print(a);
}

void lambda_with_a_reference_parameter() {
  Arr a = make();
  std::thread t([](Arr& x) { fill(x); }, std::ref(a)); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 't' runs (not joined or waited for) holds an exclusive loan on it}}
  t.join(); // expected-note {{the loan is still needed here}}
}
