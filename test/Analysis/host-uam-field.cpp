// RUN: tilecc check -verify %s
// A field moved out of a struct is moved; its siblings are not.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
struct Pair {
  Arr left;
  Arr right;
};
void f() {
  Pair s{make(), make()};
  auto p = std::move(s.left).partition<128>(); // expected-note {{'s.left' was moved here}}
  print(s.right);
  print(s.left); // expected-error {{'s.left' is used after it was moved into a partition}}
}
