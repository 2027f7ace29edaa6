// RUN: tilecc check -verify %s
// A range-for's reference may be any element: what is moved out of it may hold any of the
// container's loans, and the others keep theirs.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void moved_into_an_optional() {
  Arr a = make();
  std::optional<IncFuture> kept;
  {
    std::vector<IncFuture> pending;
    pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async()); // expected-note {{'a' was lent exclusively here}}
    for (auto& f : pending)
      kept = std::move(f);
  }
  print(a); // expected-error {{read (passed to 'print') of 'a' while 'kept' holds an exclusive loan on it}}
  kept->wait(); // expected-note {{the loan is still needed here}}
}

void moved_then_waited() {
  Arr a = make();
  std::optional<IncFuture> kept;
  {
    std::vector<IncFuture> pending;
    pending.push_back(tile::launch<inc>(a.partition_mut<128>()).async());
    for (auto& f : pending)
      kept = std::move(f);
  }
  kept->wait();
  print(a);
}
