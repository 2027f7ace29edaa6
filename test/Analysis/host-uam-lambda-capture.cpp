// RUN: tilecc check -verify %s
// An op moved into a lambda capture belongs to the lambda.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto op = tile::launch<inc>(a.partition_mut<128>());
  auto later = [op = std::move(op)]() mutable { std::move(op).sync(); }; // expected-note {{'op' was moved here}}
  later();
  std::move(op).sync(); // expected-error {{'op' is used after it was moved into a lambda capture}}
}
