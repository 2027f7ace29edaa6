// RUN: tilecc check -verify %s
// Reading an array lent exclusively to an unfinished op: the three-point report.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr z = make();
  auto op = tile::launch<inc>(z.partition_mut<128>()); // expected-note {{'z' was lent exclusively here}}
  auto h = z.to_host(); // expected-error {{read (to_host) of 'z' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note {{the loan is still needed here}}
}
