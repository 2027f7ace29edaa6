// RUN: tilecc check -verify %s
// A method that stores work through a reference member leaves the loan in what the member
// names, which may outlive the object; where that is unknown, the work may outlive the function.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

struct Starter {
  IncFuture& slot;
  void start(Arr& a) { slot = tile::launch<inc>(a.partition_mut<128>()).async(); }
  void start_elsewhere(Arr& a);
};

void stored_through_a_reference_member() {
  Arr a = make();
  Arr other = make();
  IncFuture f = tile::launch<inc>(other.partition_mut<128>()).async();
  {
    Starter s{f};
    s.start(a); // expected-note {{'a' was lent exclusively here}}
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
  f.wait(); // expected-note {{the loan is still needed here}}
}

void stored_by_a_method_without_a_body() {
  Arr a = make();
  Arr other = make();
  IncFuture f = tile::launch<inc>(other.partition_mut<128>()).async();
  {
    Starter s{f};
    s.start_elsewhere(a); // expected-note {{'a' was lent exclusively here}}
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'f' (not waited for) holds an exclusive loan on it}}
  f.wait(); // expected-note {{the loan is still needed here}}
}

void stored_then_waited() {
  Arr a = make();
  Arr other = make();
  IncFuture f = tile::launch<inc>(other.partition_mut<128>()).async();
  {
    Starter s{f};
    s.start(a);
  }
  f.wait();
  print(a);
}

Starter starter_elsewhere();

void stored_through_an_unknown_reference() {
  Arr a = make();
  {
    Starter s = starter_elsewhere();
    s.start(a); // expected-error {{the work 'start' stores through the reference member 'slot' may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
  }
}
