// RUN: tilecc check -verify %s
// A graph returned from a function must not borrow the function's own array, even shared.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
auto capture() {
  Arr x = make();
  auto g = tile::launch<copy>(make().partition<128>(), x).graph(); // expected-note {{'x' was lent shared here}}
  return g; // expected-error {{the graph returned here may outlive the array 'x' it borrows}}
}
