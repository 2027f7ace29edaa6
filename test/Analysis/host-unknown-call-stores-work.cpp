// RUN: tilecc check -verify %s
// A function whose body tilecc cannot see, given an array and a holder of work (a container of
// futures, an op) by reference, may start work on the array and leave it in the holder: the
// holder holds the array (exclusively for a non-const array, shared for a const one) until it
// is waited for.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void enqueue(std::vector<IncFuture>& queue, Arr& a);
void enqueue_reader(std::vector<IncFuture>& queue, const Arr& a);

void waited() {
  Arr a = make();
  std::vector<IncFuture> queue;
  enqueue(queue, a);
  for (auto& f : queue)
    f.wait();
  print(a);
}

void read_before_the_wait() {
  Arr a = make();
  std::vector<IncFuture> queue;
  enqueue(queue, a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'queue' holds an exclusive loan on it}}
  for (auto& f : queue) // expected-note {{the loan is still needed here}}
    f.wait();
}

void reads_beside_a_reader() {
  Arr a = make();
  std::vector<IncFuture> queue;
  enqueue_reader(queue, a); // expected-note {{'a' was lent shared here}}
  print(a);
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while 'queue' holds a shared loan on it}}
  for (auto& f : queue) // expected-note {{the loan is still needed here}}
    f.wait();
}
