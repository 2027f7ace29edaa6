// RUN: tilecc check -verify %s
// A live partition ref holds its array until it is destroyed.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto ref = a.partition_mut<128>(); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the partition ref 'ref' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'ref' is destroyed}}
