// RUN: tilecc check -verify %s
// A function template is checked in each instantiation; one report per location.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
template <class T>
void twice(tile::Array<T>& a) {
  auto op = tile::launch<inc>(a.template partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
template <int N>
void sized() {
  Arr a = tile::zeros<float>({N});
  auto p = std::move(a).partition<128>(); // expected-note {{'a' was moved here}}
  print(a); // expected-error {{'a' is used after it was moved into a partition}}
}
void f() {
  Arr a = make();
  twice(a);
  sized<100>();
  sized<200>();
}
