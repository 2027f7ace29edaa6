// RUN: tilecc check -verify %s
// A lambda handed to a function or constructor whose result keeps it (finally(), a cleanup
// object) runs when that object calls it, not when it is made: a guard whose destructor calls
// it returns what the lambda waits for at the end of its scope, and until then what the lambda
// touches stays lent.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <utility>
using IncFuture = decltype(std::declval<IncOp>().async());

template <class F>
struct Finally {
  F f;
  ~Finally() { f(); }
};
template <class F>
Finally<F> finally(F f) {
  return Finally<F>{std::move(f)};
}

template <class F>
class Cleanup {
public:
  explicit Cleanup(F f) : f_(std::move(f)) {}
  ~Cleanup() {
    if (armed_)
      f_();
  }
  void cancel() { armed_ = false; }

private:
  F f_;
  bool armed_ = true;
};

void waits_at_the_end_of_the_scope() {
  Arr a = make();
  IncFuture fut = tile::launch<inc>(a.partition_mut<128>()).async();
  {
    auto guard = finally([&] { fut.wait(); });
  }
  print(a);
}

void read_before_the_guard_ran() {
  Arr a = make();
  IncFuture fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  {
    auto guard = finally([&] { fut.wait(); });
    print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
  } // expected-note {{the loan is still needed here}}
}

void guard_that_may_be_cancelled() {
  Arr a = make();
  IncFuture fut = tile::launch<inc>(a.partition_mut<128>()).async(); // expected-note {{'a' was lent exclusively here}}
  {
    Cleanup cleanup([&] { fut.wait(); });
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'fut' is destroyed}}

void kept_lambda_reads_later() {
  Arr a = make();
  Arr b = make();
  {
    auto guard = finally([&] { print(b); }); // expected-note {{'b' was lent shared here}}
    IncFuture fut = tile::launch<inc>(b.partition_mut<128>()).async(); // expected-error {{'b' is lent exclusively while the work handed to 'finally' (which may run it after it returns) holds a shared loan on it}}
    fut.wait();
  }
  print(a);
}
