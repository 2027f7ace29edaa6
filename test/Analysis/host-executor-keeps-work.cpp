// RUN: tilecc check -verify %s
// A function whose body is not visible and that takes a callable by value (an executor's
// `post`, a fire-and-forget `submit`) may keep it and run it after it returns, with nothing to
// wait for: what the callable touches stays lent for the rest of the function, and it must not
// borrow an array the function destroys. Given by reference, the callable is taken to run during
// the call.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void post(std::function<void()> work);
void post_moved(std::function<void()>&& work);
struct Executor {
  void execute(std::function<void()> work);
};

void read_after_post(Arr& a) {
  post([&] { fill(a); }); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the work handed to 'post' (which may run it after it returns) holds an exclusive loan on it}}
}

void executor_member(Executor& ex, Arr& a) {
  ex.execute([&] { tile::launch<inc>(a.partition_mut<128>()).sync(); }); // expected-note {{'a' was lent exclusively here}}
  fill(a); // expected-error {{write (passed to 'fill' by non-const reference) of 'a' while the work handed to 'execute' (which may run it after it returns) holds an exclusive loan on it}}
}

void local_array_outlived() {
  Arr a = make();
  post_moved([&] { print(a); }); // expected-error {{the work handed to 'post_moved' here may outlive the array 'a' it borrows}} expected-note {{'a' was lent shared here}}
}

void readers_beside_a_reader(Arr& a) {
  post([&] { print(a); });
  print(a);
}

void by_reference_runs_during_the_call(Arr& a) {
  call_now([&] { fill(a); });
  print(a);
}
