// RUN: tilecc check -verify %s
// An object whose destructor (in the translation unit) waits, on every path, for the future a
// reference member names returns that future's loans where the object is destroyed: a scope
// guard. The member is bound by braces or by a constructor taking the future by reference.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

struct WaitOnExit {
  IncFuture& future;
  ~WaitOnExit() { future.wait(); }
};

class Joiner {
public:
  explicit Joiner(IncFuture& f) : f_(f) {}
  ~Joiner() { f_.wait(); }

private:
  IncFuture& f_;
};

struct MaybeWait {
  IncFuture& future;
  bool armed = true;
  ~MaybeWait() {
    if (armed)
      future.wait();
  }
};

void guard_by_braces() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  {
    WaitOnExit guard{f};
  }
  print(a);
}

void guard_by_constructor() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async();
  {
    Joiner joiner(f);
  }
  print(a);
}

void read_inside_the_guard_scope() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  {
    WaitOnExit guard{f};
    print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
  }
} // expected-note {{the loan is still needed here, when 'f' is destroyed}}

void guard_that_may_not_wait() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  {
    MaybeWait guard{f};
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'f' is destroyed}}

WaitOnExit guard_for(IncFuture& f) {
  WaitOnExit guard{f};
  return guard; // destroyed by the caller: returning does not wait
}

void guard_returned_by_a_helper() {
  Arr a = make();
  IncFuture f = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  {
    WaitOnExit guard = guard_for(f);
    (void)guard;
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'f' is destroyed}}
