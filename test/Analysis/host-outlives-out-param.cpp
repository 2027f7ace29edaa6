// RUN: tilecc check -verify %s
// An op stored through a reference parameter leaves the function.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void start(std::optional<IncOp>& out) {
  Arr a = make();
  out.emplace(tile::launch<inc>(a.partition_mut<128>())); // expected-error {{'out' may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
} // expected-note {{'a' is destroyed here while 'out' still holds the loan}}
