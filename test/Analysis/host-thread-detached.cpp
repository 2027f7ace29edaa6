// RUN: tilecc check -verify %s
// A detached thread's work may outlive the function: it must not borrow an array the function
// destroys. A jthread joins when it is destroyed, so its loans end with its scope.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <thread>

void detached() {
  Arr a = make();
  std::thread t([&] { print(a); }); // expected-note {{'a' was lent shared here}}
  t.detach(); // expected-error {{the work detached here may outlive the array 'a' it borrows}}
}

void joined_at_scope_end() {
  Arr a = make();
  {
    std::jthread t([&] { fill(a); }); // expected-note {{'a' was lent exclusively here}}
    print(a); // expected-error {{read (passed to 'print') of 'a' while the work on another thread that 't' runs (not joined or waited for) holds an exclusive loan on it}}
  } // expected-note {{the loan is still needed here}}
  print(a);
}
