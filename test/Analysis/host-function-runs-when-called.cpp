// RUN: tilecc check -verify %s
// A std::function made from a lambda runs the lambda when it is called, not when it is made:
// what the lambda does to the arrays it captured by reference happens at each call.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void made_while_lent() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  std::function<void()> show = [&] { print(a); };
  std::move(op).sync();
  show();
}

void called_while_lent() {
  Arr a = make();
  std::function<void()> show = [&] { print(a); }; // expected-note {{the lambda uses 'a' here}}
  auto op = tile::launch<inc>(a.partition_mut<128>()); // expected-note {{'a' was lent exclusively here}}
  show(); // expected-error {{read (passed to 'print', in the lambda called here) of 'a' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
