// RUN: tilecc check -verify %s
// A graph holds its loans for its whole life, across replays.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  auto g = tile::launch<inc>(a.partition_mut<128>()).graph(); // expected-note {{'a' was lent exclusively here}}
  g.sync();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the graph 'g' holds an exclusive loan on it}}
  g.sync(); // expected-note {{the loan is still needed here}}
}
