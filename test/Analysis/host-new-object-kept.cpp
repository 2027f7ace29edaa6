// RUN: tilecc check -verify %s
// An object made by `new` is not followed through the pointers to it: the loans it is made
// with stay lent for the rest of the function, and must not be on an array the function
// destroys. (A std::unique_ptr's object is its holder's place, see
// host-access-optional-and-pointer.cpp.)
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());
struct Holder {
  IncFuture f;
};

void new_holder_of_a_local_array() {
  Arr a = make();
  Holder* h = new Holder{tile::launch<inc>(a.partition_mut<128>()).async()}; // expected-error {{the object made by 'new' here may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
  h->f.wait();
  delete h;
}

void new_holder_of_a_callers_array(Arr& a) {
  Holder* h = new Holder{tile::launch<inc>(a.partition_mut<128>()).async()}; // expected-note {{'a' was lent exclusively here}}
  h->f.wait();
  delete h;
  print(a); // expected-error {{read (passed to 'print') of 'a' while the object made by 'new' (not followed) holds an exclusive loan on it}}
}

void new_without_loans(Arr& a) {
  int* n = new int(3);
  print(a);
  delete n;
}
