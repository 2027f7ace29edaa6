// RUN: tilecc check -verify %s
// An op stored in a member outlives the method's local array.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
class Runner {
public:
  void start() {
    Arr scratch = make();
    pending.push_back(tile::launch<inc>(scratch.partition_mut<128>())); // expected-error {{'pending' may outlive the array 'scratch' it borrows}} expected-note {{'scratch' was lent exclusively here}}
  } // expected-note {{'scratch' is destroyed here while 'pending' still holds the loan}}
  void startOwn() { pending.push_back(tile::launch<inc>(owned.partition_mut<128>())); }

private:
  Arr owned = make();
  std::vector<IncOp> pending;
};
