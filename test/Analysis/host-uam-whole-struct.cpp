// RUN: tilecc check -verify %s
// Moving a struct moves the arrays in it.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
struct Holder {
  Arr arr;
};
void f() {
  Holder s{make()};
  Holder t = std::move(s); // expected-note {{'s' was moved here}}
  print(t.arr);
  print(s.arr); // expected-error {{'s.arr' is used after it was moved into 't'}}
}
