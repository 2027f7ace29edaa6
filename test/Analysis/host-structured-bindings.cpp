// RUN: tilecc check -verify %s
// A structured binding of a struct or an array names a part of the hidden object, so waiting
// through it returns that part's loans (std::pair: host-structured-bindings-pair.cpp). A binding
// of another tuple-like type (std::tuple) is not followed: the hidden object keeps every loan,
// and reading it out with std::get does not move them away.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <tuple>
using IncFuture = decltype(std::declval<IncOp>().async());

struct Two {
  IncFuture x;
  IncFuture y;
};

void struct_binding_waited() {
  Arr a = make();
  Arr b = make();
  auto [fa, fb] = Two{tile::launch<inc>(a.partition_mut<128>()).async(),
                      tile::launch<inc>(b.partition_mut<128>()).async()};
  fa.wait();
  fb.wait();
  print(a);
  print(b);
}

void struct_binding_other_part_waited() {
  Arr a = make();
  Arr b = make();
  auto [fa, fb] = Two{tile::launch<inc>(a.partition_mut<128>()).async(), // expected-note {{'a' was lent exclusively here}}
                      tile::launch<inc>(b.partition_mut<128>()).async()};
  fb.wait();
  print(b);
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future '[fa, fb].x' (not waited for) holds an exclusive loan on it}}
  fa.wait(); // expected-note {{the loan is still needed here}}
}

void tuple_binding_keeps_every_loan() {
  Arr a = make();
  auto [fa, n] = std::tuple{tile::launch<inc>(a.partition_mut<128>()).async(), 3}; // expected-note {{'a' was lent exclusively here}}
  print(a); // expected-error {{read (passed to 'print') of 'a' while '[fa, n]' holds an exclusive loan on it}}
  fa.wait();
} // expected-note {{the loan is still needed here, when '[fa, n]' is destroyed}}
