// RUN: tilecc check -verify %s
// A lambda returning a graph over an array it owns lets the graph outlive the array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  auto make_graph = [] {
    Arr a = make();
    auto g = tile::launch<inc>(a.partition_mut<128>()).graph(); // expected-note {{'a' was lent exclusively here}}
    return g; // expected-error {{the graph returned here may outlive the array 'a' it borrows}}
  };
  auto g = make_graph();
  g.sync();
}
