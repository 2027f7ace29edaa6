// RUN: tilecc check -verify %s
// A graph stored in a longer-lived variable outlives an array of an inner scope.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncGraph = decltype(tile::launch<inc>(std::declval<tile::PartitionRef<float, 128>>()).graph());

void f() {
  std::optional<IncGraph> saved;
  {
    Arr a = make();
    saved.emplace(tile::launch<inc>(a.partition_mut<128>()).graph()); // expected-error {{'saved' may outlive the array 'a' it borrows}} expected-note {{'a' was lent exclusively here}}
  } // expected-note {{'a' is destroyed here while 'saved' still holds the loan}}
  saved->sync();
}
