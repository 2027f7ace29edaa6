// RUN: tilecc check -verify %s
// An unknown function that makes a partition ref from an array reference borrows that array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
tile::PartitionRef<float, 128> view(Arr& a);
void f() {
  Arr a = make();
  auto ref = view(a); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the partition ref 'ref' holds an exclusive loan on it}}
} // expected-note {{the loan is still needed here, when 'ref' is destroyed}}
